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
    let car = match (&args.car, &args.address) {
        (_, Some(address)) => return explain_address(project, &dealer, address),
        (Some(car), None) => car.clone(),
        (None, None) => anyhow::bail!("say which car (--car) or which address (--address)"),
    };
    let feed_path = dealer.dir().join(&dealer.config.stock.feed);
    let feed = feed::load(&feed_path).with_context(|| format!("dealer {}", dealer.slug))?;
    let found = crate::explain::explain(&car, &feed, &dealer.config, now, &project.public_dir());
    let records = feed.cars.len() + feed.skipped.len();
    print!(
        "{}",
        crate::explain::render(&dealer.slug, &car, &found, records, now)
    );
    Ok(if found.is_empty() { 1 } else { 0 })
}

/// `--address`: the built site's answer to one address, hop by hop, with
/// the rule of each (crate::migrate). Exit 1 when it ends at no page.
fn explain_address(
    project: &Project,
    dealer: &dealer_config::LoadedDealer,
    address: &str,
) -> Result<i32> {
    let checker =
        crate::migrate::Checker::open(&project.site_dir(&dealer.slug).join("dist"), dealer)?;
    let list = crate::migrate::addresses::parse(address)?;
    let f = checker.check(address, &list[0].path_and_query);
    println!("{} on {}:", address, dealer.slug);
    for (i, rule) in f.rules.iter().enumerate() {
        match f.chain.get(i) {
            Some(hop) => println!("  {}. {hop}  ({rule})", i + 1),
            None => println!(
                "  {}. {}  ({rule})",
                i + 1,
                if f.answer == crate::migrate::Answer::Missing {
                    "404"
                } else {
                    "200"
                }
            ),
        }
    }
    let verdict = match f.answer {
        crate::migrate::Answer::Page => "a page".to_string(),
        crate::migrate::Answer::Redirect => format!(
            "a redirect to {} in {} hop(s)",
            f.to.as_deref().unwrap_or(""),
            f.hops
        ),
        crate::migrate::Answer::Missing => {
            "missing: add it under `redirects:` (docs/migrating.md)".to_string()
        }
    };
    println!("{verdict}");
    Ok(if f.answer == crate::migrate::Answer::Missing {
        1
    } else {
        0
    })
}
