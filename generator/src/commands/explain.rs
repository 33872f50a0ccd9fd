//! `dealergen explain --dealer X --car Y`.

use anyhow::{Context, Result};
use dealer_config::diagnostic::render_human;
use dealer_config::Loader;

use crate::cli::{ExplainArgs, Selection};
use crate::pipeline::stock::feed;
use crate::project::Project;

/// Exit 0 when the car was found in the feed (on the site or not), 1 when
/// no record of the feed is that car or the dealer cannot be read.
pub fn run(project: &Project, args: ExplainArgs) -> Result<i32> {
    let sel = Selection {
        dealer: vec![args.dealer.clone()],
        all: false,
    };
    let file = crate::selection::select(project, &sel)?.remove(0);
    let now = crate::selection::parse_as_of(args.as_of.as_deref())?;
    let dealer = match Loader::new(project.presets_dir()).load(&file) {
        Ok(d) => d,
        Err(r) => {
            eprint!("{}", render_human(&r.diagnostics, &r.files));
            anyhow::bail!(
                "{} has problems; run `dealergen check --dealer {}`",
                file.display(),
                r.slug
            );
        }
    };
    let feed_path = dealer.dir().join(&dealer.config.stock.feed);
    let feed = feed::load(&feed_path).with_context(|| format!("dealer {}", dealer.slug))?;
    let found =
        crate::explain::explain(&args.car, &feed, &dealer.config, now, &project.public_dir());
    let records = feed.cars.len() + feed.skipped.len();
    print!(
        "{}",
        crate::explain::render(&dealer.slug, &args.car, &found, records, now)
    );
    Ok(if found.is_empty() { 1 } else { 0 })
}
