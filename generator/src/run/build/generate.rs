//! Everything a build derives from a dealer and its stock before Astro
//! runs, in memory: the site data, the cars, the search index, the worker's
//! files and the publish plan.

use std::path::Path;

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use dealer_rules::edge_config::EdgeConfig;

use super::{edge_cars, edge_config, edge_kv, edge_stock_words, publish_plan, PlannedPublish};
use crate::pipeline::site_data;
use crate::pipeline::stock::{self, feed, present};

/// Everything a build derives from the dealer and its stock before Astro
/// runs, in memory: what `build_dealer` writes, what `dealergen diff`
/// compares between two revisions, and what the config-field test
/// compares (every documented field must change some of it).
pub struct Generated {
    pub site: site_data::SiteData,
    /// The visible cars as the pages show them.
    pub cars: Vec<present::Car>,
    /// (file name, text): site.json, cars.json, pages.json (the page
    /// table), search-index.json (the pages' data), edge-config.json and edge-kv.json (the worker's),
    /// redirects.txt (the sold-car redirects the publish step writes), and
    /// the ads feeds the dealer publishes (google-vehicle-ads.tsv,
    /// meta-vehicles.csv, written to the release's `feeds/`).
    pub files: Vec<(&'static str, String)>,
    /// The worker's configuration (also in `files` as edge-config.json).
    pub edge: EdgeConfig,
    pub plan: PlannedPublish,
    /// Paths of every page the site has (`crate::pipeline::site_data::page_table`).
    pub pages: Vec<String>,
    pub skipped: Vec<feed::SkippedRecord>,
    pub feed_warnings: Vec<feed::FeedWarning>,
    /// Warnings of the build itself (links left out, redirects that did not fit).
    pub build_warnings: Vec<String>,
    /// What the ads feeds left out, and a summary line per feed
    /// (`pipeline::syndication`): reported with the stock feed's problems.
    pub syndication: Vec<String>,
    /// The feed's colours no colour family claims
    /// (`search_index::unfamiliar_colours`): reported with the stock feed's problems.
    pub colours: Vec<String>,
    /// Cars of the feed the site does not show (incl. other dealerships).
    pub hidden: usize,
}

impl Generated {
    /// One generated file's text (see [`Generated::files`]).
    pub fn file(&self, name: &str) -> Option<&str> {
        self.files
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t.as_str())
    }
}

/// Reads the stock and resolves everything the site and the worker get.
/// `public` holds the site's public files (`astro-app/public`, see
/// [`Project::public_dir`]): a shown car's photo named by a site path that
/// is not there is left out of the car, with a feed warning.
/// The dealer's `redirects` that the site's pages refuse (a target that is
/// no page, a `from` that takes a page's address), each with its file,
/// line and key: the build's error, and what `dealergen check` reports
/// once it knows the pages. Displays as one message, a line a problem.
#[derive(Debug)]
pub struct RedirectProblems(pub Vec<dealer_config::Diagnostic>);

impl std::fmt::Display for RedirectProblems {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} of the dealer's redirects cannot be written:",
            self.0.len()
        )?;
        for d in &self.0 {
            write!(
                f,
                "\n  {}:{}: {}: {}",
                d.file.display(),
                d.line,
                d.key,
                d.message
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for RedirectProblems {}

/// The dealer's `redirects`, checked against the site's pages (file, line
/// and key in each error: [`RedirectProblems`]).
fn dealer_redirects(
    dealer: &dealer_config::LoadedDealer,
    pages: &std::collections::HashSet<String>,
) -> Result<crate::publish::redirects::DealerRules> {
    use crate::publish::redirects;
    redirects::dealer_redirects(&dealer.config.redirects, pages).map_err(|problems| {
        anyhow::Error::new(RedirectProblems(
            problems
                .iter()
                .map(|p| dealer_config::Diagnostic {
                    severity: dealer_config::Severity::Error,
                    file: dealer.path.clone(),
                    line: dealer.redirect_lines.get(p.index).copied().unwrap_or(0),
                    column: 1,
                    key: format!("redirects[{}].{}", p.index, p.key),
                    message: p.message.clone(),
                    expected: None,
                    hint: None,
                })
                .collect(),
        ))
    })
}

/// The CDN reads at most 100 dynamic rules (`*` or `:name`) a site and
/// drops the lines after the 100th: the dealer's (`dealer_rules`) and the
/// platform's, as the plan writes them (`written`), must fit.
fn dynamic_rules_fit(
    dealer_rules: &[dealer_config::model::DealerRedirect],
    written: &[crate::publish::redirects::Redirect],
) -> std::result::Result<(), String> {
    use crate::publish::redirects::is_dynamic;
    use dealer_config::redirect_rules::MAX_DYNAMIC;
    let dynamic: Vec<_> = written.iter().filter(|r| is_dynamic(r)).collect();
    let theirs = dynamic
        .iter()
        .filter(|r| dealer_rules.iter().any(|d| d.from == r.from))
        .count();
    let platform = dynamic.len() - theirs;
    if dynamic.len() <= MAX_DYNAMIC {
        return Ok(());
    }
    Err(format!(
        "{theirs} of the dealer's redirects have `*` or `:name`, and the platform writes {platform} more: the CDN reads at most {MAX_DYNAMIC} a site, so drop or merge {} of them (rules of one folder make one `/folder/*` rule)",
        dynamic.len() - MAX_DYNAMIC
    ))
}

pub fn generate(
    dealer: &dealer_config::LoadedDealer,
    public: &Path,
    now: DateTime<Utc>,
) -> Result<Generated> {
    let cfg = &dealer.config;
    let feed_path = dealer.dir().join(&cfg.stock.feed);
    if !feed_path.exists() && cfg.stock.source.is_some() {
        anyhow::bail!(
            "the stock feed {} is not there yet: run `dealergen stock pull --dealer {}` first",
            feed_path.display(),
            dealer.slug
        );
    }
    let mut feed = feed::load(&feed_path)?;
    let skipped = std::mem::take(&mut feed.skipped);
    let mut feed_warnings = std::mem::take(&mut feed.warnings);
    // A feed that has stopped updating (stock.max_age_hours) is said first.
    let mut build_warnings: Vec<String> = stock::freshness::warnings(
        stock::freshness::file_changed(&feed_path),
        stock::freshness::newest_record(&feed.cars),
        now,
        cfg.stock.max_age_hours,
    );
    let mut selection = stock::select(feed, cfg, now);
    feed_warnings.append(&mut selection.warnings);
    // Before any page or the search index names them (pipeline::stock::photos).
    feed_warnings.extend(crate::pipeline::stock::photos::drop_missing_local_photos(
        &mut selection.visible,
        &cfg.images,
        public,
    ));
    let mut cars: Vec<present::Car> = selection
        .visible
        .iter()
        .map(|c| present::present(c, cfg, now))
        .collect();
    stock::similar::attach_similar(&mut cars, cfg);
    let hidden = selection.hidden.values().sum::<usize>() + selection.other_dealership;

    let mut site = site_data::build_with_pages(&dealer.slug, cfg, &cars, &dealer.pages, now);
    site.logo_size = site_data::logo::intrinsic_size(public, &site.theme.logo);
    let car_slugs = cars.iter().map(|c| c.slug.clone()).collect();
    let settled = site_data::pages::settle_links(&mut site, &car_slugs);
    let mut link_errors = settled.errors;
    link_errors.extend(site_data::pages::unmatched_gated_routes(&site, &car_slugs));
    if !link_errors.is_empty() {
        anyhow::bail!(
            "{} link(s) or gated route(s) in {} lead to no page:\n  {}",
            link_errors.len(),
            dealer.path.display(),
            link_errors.join("\n  ")
        );
    }
    build_warnings.extend(settled.warnings);
    let table = site_data::page_table::table(&site, &cars)
        .with_context(|| format!("the pages of {}", dealer.path.display()))?;
    let pages: std::collections::HashSet<String> =
        site_data::page_table::paths(&table).into_iter().collect();
    let dealer_rules = dealer_redirects(dealer, &pages)?;
    let mut plan = publish_plan(
        &dealer.slug,
        cfg,
        &site,
        &cars,
        &selection.gone,
        &pages,
        dealer_rules.redirects,
    );
    plan.plan.query_redirects = dealer_rules.query;
    dynamic_rules_fit(&cfg.redirects, &plan.plan.redirects)
        .map_err(|e| anyhow::anyhow!("{}: {e}", dealer.path.display()))?;
    // The ads feeds come from the cars as the pages show them
    // (pipeline::syndication): the same release, the same decision.
    let feeds = crate::pipeline::syndication::build(
        &cars,
        &crate::pipeline::syndication::Context { cfg, now },
    );
    if plan.left_out > 0 {
        build_warnings.push(format!(
            "{} sold car(s) past the window get no redirect: _redirects holds {} static rules, shared with the dealer's redirects and the old platform's addresses (the most recent sales are kept)",
            plan.left_out,
            crate::publish::redirects::MAX_REDIRECTS
        ));
    }
    // A colour no family claims is in no Colour filter: said, not hidden.
    let colours =
        crate::pipeline::search_index::unfamiliar_colours(&cars, &cfg.search.colour_families);
    let edge = edge_config(&dealer.slug, cfg);
    let kv = edge_kv(&edge, &edge_cars(cfg, &cars), &edge_stock_words(&cars))?;
    let files = vec![
        ("site.json", serde_json::to_string_pretty(&site)?),
        ("cars.json", serde_json::to_string(&cars)?),
        ("pages.json", serde_json::to_string(&table)?),
        (
            "search-index.json",
            serde_json::to_string(&crate::pipeline::search_index::build(
                &cars,
                &crate::pipeline::search_index::IndexContext {
                    dealer_slug: &dealer.slug,
                    dealer_name: &cfg.name,
                    new_arrival_text: &cfg.copy.new_arrival_text,
                    masked_phones: cfg.features.phone_reveal,
                    colour_words: &cfg.search.colour_families,
                },
            ))?,
        ),
        ("edge-config.json", serde_json::to_string_pretty(&edge)?),
        ("edge-kv.json", serde_json::to_string_pretty(&kv)?),
        (
            "redirects.txt",
            crate::publish::redirects::render(&plan.plan.redirects),
        ),
    ];
    let mut files = files;
    files.extend(feeds.files.iter().map(|f| (f.name, f.text.clone())));
    plan.plan.feeds = feeds.files;
    Ok(Generated {
        site,
        cars,
        files,
        edge,
        plan,
        pages: site_data::page_table::paths(&table),
        skipped,
        feed_warnings,
        build_warnings,
        syndication: feeds.lines,
        colours,
        hidden,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::publish::redirects::Redirect;

    #[test]
    fn the_dealers_and_the_platforms_dynamic_rules_share_the_cdns_hundred() {
        let rule = |from: String| Redirect {
            from,
            to: "/".into(),
            status: 301,
        };
        let dealer: Vec<dealer_config::model::DealerRedirect> = (0..97)
            .map(|i| dealer_config::model::DealerRedirect {
                from: format!("/old-{i}/*"),
                to: "/".into(),
                status: 301,
            })
            .collect();
        let platform = ["/teams/*", "/blog/*", "/cars/*/print/"].map(|f| rule(f.to_string()));
        let mut written: Vec<Redirect> = dealer.iter().map(|d| rule(d.from.clone())).collect();
        written.extend(platform.clone());
        written.push(rule("/static-one".into()));
        assert_eq!(dynamic_rules_fit(&dealer, &written), Ok(()), "97 + 3 fit");
        written.push(rule("/cars/*/print".into()));
        assert_eq!(
            dynamic_rules_fit(&dealer, &written).unwrap_err(),
            "97 of the dealer's redirects have `*` or `:name`, and the platform writes 4 more: the CDN reads at most 100 a site, so drop or merge 1 of them (rules of one folder make one `/folder/*` rule)"
        );
    }
}
