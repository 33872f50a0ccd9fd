//! `dealergen diff --dealer X [--base REV]`: prints the Markdown.

use anyhow::Result;

use crate::cli::DiffArgs;
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
    let now = super::parse_as_of(args.as_of.as_deref())?;
    let markdown = crate::diff::diff_dealer(project, slug, &args.base, now)?;
    print!("{markdown}");
    Ok(0)
}
