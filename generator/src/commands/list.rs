//! `dealergen list`: every dealer and whether its file validates.

use anyhow::Result;
use dealer_config::Loader;

use crate::project::Project;

pub fn run(project: &Project) -> Result<i32> {
    let loader = Loader::new(project.presets_dir());
    let mut bad = 0;
    for file in project.dealer_files()? {
        match loader.load(&file) {
            Ok(d) => println!(
                "{:32} {:22} {:40} {} location(s)",
                d.slug,
                d.config.template,
                d.config.name,
                d.config.locations.len()
            ),
            Err(r) => {
                bad += 1;
                println!(
                    "{:32} INVALID: {} problem(s), run `dealergen check --dealer {}`",
                    r.slug,
                    r.diagnostics.len(),
                    r.slug
                );
            }
        }
    }
    Ok(if bad > 0 { 1 } else { 0 })
}
