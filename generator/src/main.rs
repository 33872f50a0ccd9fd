use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // clap exits with 2 on usage errors (docs/ARCHITECTURE.md, contract 5).
    let cli = dealergen::cli::Cli::parse();
    let result = dealergen::commands::run(cli);
    // The warm Astro processes end with the run, reaped (their CPU is the
    // run's, as a plain child's would be).
    dealergen::run::astro_server::POOL.stop_idle();
    match result {
        Ok(code) => ExitCode::from(code as u8),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}
