//! `dealergen status`: each dealer's status (generator/src/status), as
//! text or JSON; exit 1 when any needs a person.

use anyhow::Result;

use crate::cli::{PullFormat, StatusArgs};
use crate::project::Project;

pub fn run(project: &Project, args: StatusArgs) -> Result<i32> {
    let files = crate::selection::select(project, &args.selection)?;
    let now = match args.as_of.as_deref() {
        Some(at) => crate::selection::parse_as_of(Some(at))?,
        None => chrono::Utc::now(),
    };
    let slugs: Vec<String> = files.iter().map(|f| crate::selection::slug_of(f)).collect();
    let remote = crate::deploy::status::read(project, args.config.as_deref(), &slugs);
    let reports: Vec<_> = files
        .iter()
        .map(|f| crate::status::dealer_status(project, f, now, &remote))
        .collect();
    let needing = reports
        .iter()
        .filter(|r| !r.needs_person.is_empty())
        .count();
    match args.format {
        PullFormat::Json => println!("{}", serde_json::to_string_pretty(&reports)?),
        PullFormat::Human => {
            for r in &reports {
                print!("{}", crate::status::human(r));
            }
            println!("{} dealer(s), {needing} needing a person", reports.len());
        }
    }
    Ok(if needing > 0 { 1 } else { 0 })
}
