use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // clap exits with 2 on usage errors (docs/ARCHITECTURE.md, contract 5).
    let cli = dealergen::cli::Cli::parse();
    match dealergen::commands::run(cli) {
        Ok(code) => ExitCode::from(code as u8),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}
