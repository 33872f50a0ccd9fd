//! `dealergen diff --dealer X [--base REV] [--format json]`: prints the
//! Markdown (or the pages it names, as JSON).

use anyhow::Result;

use crate::cli::{ChangedArgs, DiffArgs, DiffFormat, PullFormat};
use crate::project::Project;

/// Exit 0 with the Markdown on stdout (also when a side does not
/// validate: the report says so and `check` fails the pull request), 1
/// when git or the files cannot be read.
pub fn run(project: &Project, args: DiffArgs) -> Result<i32> {
    let slug = args.dealer.trim();
    if slug.is_empty()
        || !slug
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        anyhow::bail!("`{slug}` is not a dealer slug (lower-case letters, digits and dashes)");
    }
    let now = crate::selection::parse_as_of(args.as_of.as_deref())?;
    let report = crate::diff::report(project, slug, &args.base, now)?;
    match args.format {
        DiffFormat::Markdown => print!("{}", crate::diff::render(slug, &args.base, now, &report)),
        DiffFormat::Json => println!(
            "{}",
            serde_json::to_string_pretty(&crate::diff::pages(slug, &args.base, now, &report))?
        ),
    }
    Ok(0)
}

/// `dealergen changed`: slugs one per line (or JSON), exit 0 even when
/// none changed (an empty list is an answer).
pub fn changed(project: &Project, args: ChangedArgs) -> Result<i32> {
    let mut list = crate::diff::changed_dealers(project, &args.base)?;
    if let Some((i, n)) = args.shard {
        let plan = crate::selection::ShardPlan::new(project, n)?;
        list.retain(|c| plan.holds(i, &c.dealer));
    }
    match args.format {
        PullFormat::Json => println!("{}", serde_json::to_string_pretty(&list)?),
        PullFormat::Human => {
            for c in &list {
                println!("{}", c.dealer);
            }
        }
    }
    Ok(0)
}
