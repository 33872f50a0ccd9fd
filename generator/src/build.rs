//! Building one dealer: load and check the config, read and filter the
//! stock, write the Astro project and its data, run Astro, publish `dist/`,
//! and write the edge config the worker reads.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use dealer_config::{Loader, Rejected};
use dealer_rules::edge_config::{
    EdgeAnalytics, EdgeConfig, EdgeFeatures, EdgeFinance, EdgeForms, EdgeLocation,
    EdgeQuoteProvider, LeadRouting,
};

use crate::project::Project;
use crate::render::{self, TemplateContext};
use crate::site_data;
use crate::stock::{self, feed, present};

#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// The moment visibility and new-arrival rules are judged at.
    pub now: DateTime<Utc>,
    /// Write the Astro project and data but do not run Astro.
    pub skip_astro: bool,
}

/// What a successful build did.
#[derive(Debug)]
pub struct BuildReport {
    pub slug: String,
    pub dist: Option<PathBuf>,
    pub cars_visible: usize,
    pub cars_hidden: usize,
    /// Feed records skipped for lack of a car page's essentials, with the reason.
    pub skipped: Vec<feed::SkippedRecord>,
    /// Fields left out of cars that were kept.
    pub feed_warnings: Vec<feed::FeedWarning>,
    /// Every warning as printed: the dealer file's, then the feed's
    /// (skipped records first), each naming the dealer.
    pub warnings: Vec<String>,
    /// All feed problems of this build, one per line (written when there are any).
    pub feed_report: Option<PathBuf>,
    pub pages: usize,
    /// The publish step's figures (links checked, sitemap, CSP), when Astro ran.
    pub publish: Option<crate::publish::PublishReport>,
    pub elapsed: Duration,
}

/// Why a dealer did not build.
#[derive(Debug)]
pub enum BuildFailure {
    /// The dealer file has problems (all of them are listed).
    Invalid(Box<Rejected>),
    /// Anything after validation: the feed, templates, Astro, the disk.
    Failed(anyhow::Error),
}

impl std::fmt::Display for BuildFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildFailure::Invalid(r) => {
                let n = r
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == dealer_config::Severity::Error)
                    .count();
                write!(
                    f,
                    "{n} problem(s) in the dealer file; run `dealergen check --dealer {}`",
                    r.slug
                )
            }
            BuildFailure::Failed(e) => write!(f, "{e:#}"),
        }
    }
}

/// Pages every build must contain besides one per visible car.
const FIXED_PAGES: [&str; 3] = ["index.html", "search/index.html", "contact-us/index.html"];

pub fn build_dealer(
    project: &Project,
    dealer_file: &Path,
    opts: &BuildOptions,
    step: &dyn Fn(&str),
) -> Result<BuildReport, BuildFailure> {
    let started = Instant::now();
    step("checking config");
    let loader = Loader::new(project.presets_dir());
    let dealer = loader
        .load(dealer_file)
        .map_err(|r| BuildFailure::Invalid(Box::new(r)))?;
    let cfg = &dealer.config;
    let run = || -> Result<BuildReport> {
        step("reading stock");
        let generated = generate(&dealer, opts.now)?;
        let Generated {
            site: _,
            cars,
            files,
            plan,
            skipped,
            feed_warnings,
            mut build_warnings,
            hidden,
        } = generated;

        step("writing project");
        let site_dir = project.site_dir(&dealer.slug);
        let ctx = TemplateContext {
            slug: dealer.slug.clone(),
        };
        let data: Vec<(&str, String)> = files
            .iter()
            .filter(|(name, _)| DATA_FILES.contains(name))
            .map(|(name, text)| (*name, text.clone()))
            .collect();
        render::write_project(project, &site_dir, &ctx, &data)?;
        // The worker's config and KV entries; the redirects reach dist/ in the publish step.
        for (name, text) in files.iter().filter(|(name, _)| name.starts_with("edge-")) {
            std::fs::write(site_dir.join(name), text)
                .with_context(|| format!("cannot write {name}"))?;
        }
        let feed_warnings_extra = &mut build_warnings;

        let mut must_exist: Vec<String> = FIXED_PAGES.iter().map(|s| s.to_string()).collect();
        must_exist.extend(cars.iter().map(|c| format!("cars/{}/index.html", c.slug)));
        let (dist, publish) = if opts.skip_astro {
            (None, None)
        } else {
            step("astro build");
            let report_file = site_dir.join("publish-problems.txt");
            let (dist, report) = crate::astro::build(project, &site_dir, &must_exist, |staged| {
                step("checking links");
                crate::publish::finish(staged, &plan.plan, &report_file)
                    .map_err(|e| anyhow::anyhow!("{e:#}\nthe previous site was kept"))
            })?;
            (Some(dist), Some(report))
        };
        let pages = match &dist {
            Some(d) => walkdir::WalkDir::new(d)
                .into_iter()
                .filter_map(Result::ok)
                .filter(|e| e.path().extension().is_some_and(|x| x == "html"))
                .count(),
            None => 0,
        };
        let mut warnings: Vec<String> = dealer
            .warnings
            .iter()
            .map(|d| format!("{}:{}: {}", d.file.display(), d.line, d.message))
            .collect();
        let feed_lines: Vec<String> = skipped
            .iter()
            .map(ToString::to_string)
            .chain(feed_warnings.iter().map(ToString::to_string))
            .map(|line| format!("{}: stock feed {}: {line}", dealer.slug, cfg.stock.feed))
            .collect();
        let feed_report = write_feed_report(&site_dir, &feed_lines)?;
        warnings.extend(feed_lines);
        warnings.extend(
            feed_warnings_extra
                .drain(..)
                .map(|w| format!("{}: {w}", dealer.slug)),
        );
        Ok(BuildReport {
            slug: dealer.slug.clone(),
            dist,
            cars_visible: cars.len(),
            cars_hidden: hidden,
            skipped,
            feed_warnings,
            warnings,
            feed_report,
            pages,
            publish,
            elapsed: started.elapsed(),
        })
    };
    run().map_err(BuildFailure::Failed)
}

/// The files of `src/data/` the pages read; the other generated files go next to the project.
const DATA_FILES: [&str; 3] = ["site.json", "cars.json", "search-index.json"];

/// Everything a build derives from the dealer and its stock before Astro
/// runs, in memory: what `build_dealer` writes, and what the config-field
/// test compares (every documented field must change some of it).
pub struct Generated {
    pub site: site_data::SiteData,
    pub cars: Vec<present::Car>,
    /// (file name, text): site.json, cars.json, search-index.json (the
    /// pages' data), edge-config.json and edge-kv.json (the worker's),
    /// redirects.txt (the sold-car redirects the publish step writes).
    pub files: Vec<(&'static str, String)>,
    pub plan: PlannedPublish,
    pub skipped: Vec<feed::SkippedRecord>,
    pub feed_warnings: Vec<feed::FeedWarning>,
    /// Warnings of the build itself (links left out, redirects that did not fit).
    pub build_warnings: Vec<String>,
    /// Cars of the feed the site does not show.
    pub hidden: usize,
}

/// Reads the stock and resolves everything the site and the worker get.
pub fn generate(dealer: &dealer_config::LoadedDealer, now: DateTime<Utc>) -> Result<Generated> {
    let cfg = &dealer.config;
    let feed_path = dealer.dir().join(&cfg.stock.feed);
    let mut feed = feed::load(&feed_path)?;
    let skipped = std::mem::take(&mut feed.skipped);
    let mut feed_warnings = std::mem::take(&mut feed.warnings);
    let mut selection = stock::select(feed, cfg, now);
    let mut build_warnings: Vec<String> = Vec::new();
    feed_warnings.append(&mut selection.warnings);
    let cars: Vec<present::Car> = selection
        .visible
        .iter()
        .map(|c| present::present(c, cfg, now))
        .collect();
    let hidden = selection.hidden.values().sum::<usize>() + selection.other_dealership;

    let mut site = site_data::build_with_pages(&dealer.slug, cfg, &cars, &dealer.pages, now);
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
    let plan = publish_plan(&dealer.slug, cfg, &site, &cars, &selection.gone);
    if plan.left_out > 0 {
        build_warnings.push(format!(
            "{} sold car(s) past the window get no redirect: at most {} fit in _redirects (the most recent sales are kept)",
            plan.left_out,
            crate::publish::redirects::MAX_REDIRECTS / 2
        ));
    }
    let edge = edge_config(&dealer.slug, cfg);
    let kv = edge_kv(&edge, cars.iter().map(|c| c.slug.as_str()))?;
    let files = vec![
        ("site.json", serde_json::to_string_pretty(&site)?),
        ("cars.json", serde_json::to_string(&cars)?),
        (
            "search-index.json",
            serde_json::to_string(&crate::search_index::build(&cars))?,
        ),
        ("edge-config.json", serde_json::to_string_pretty(&edge)?),
        ("edge-kv.json", serde_json::to_string_pretty(&kv)?),
        (
            "redirects.txt",
            crate::publish::redirects::render(&plan.plan.redirects),
        ),
    ];
    Ok(Generated {
        site,
        cars,
        files,
        plan,
        skipped,
        feed_warnings,
        build_warnings,
        hidden,
    })
}

/// The publish step's inputs, and how many gone cars found no room in `_redirects`.
pub struct PlannedPublish {
    pub plan: crate::publish::PublishPlan,
    pub left_out: usize,
}

/// What the publish step needs besides the built pages: the sold-car
/// redirects and the origins the site's scripts reach at run time.
pub fn publish_plan(
    slug: &str,
    cfg: &dealer_config::DealerConfig,
    site: &site_data::SiteData,
    cars: &[present::Car],
    gone: &[crate::publish::redirects::GoneCar],
) -> PlannedPublish {
    use crate::publish::headers::origin_of;
    let landings: std::collections::HashSet<String> = site
        .search
        .landing_pages
        .iter()
        .map(|l| l.path.clone())
        .collect();
    let live: std::collections::HashSet<&str> = cars.iter().map(|c| c.slug.as_str()).collect();
    let (redirects, left_out) = crate::publish::redirects::sold_cars(gone, &landings, &live);
    let mut runtime = crate::publish::headers::RuntimeOrigins::default();
    // The edge API (leads, watchlist, quotes...) and, when hosted, the search service.
    if let Some(api) = origin_of(&cfg.edge.api_base) {
        runtime.connect.insert(api.clone());
        runtime.forms.insert(api);
    }
    if let Some(hosted) = &site.search.hosted {
        if let Some(o) = origin_of(&format!("https://{}", hosted.host)) {
            runtime.connect.insert(o);
        }
    }
    // Car photos (search results and the watchlist render them in islands),
    // and the configured images.
    let images = cars
        .iter()
        .flat_map(|c| c.images.iter())
        .chain(site.search.promo_tiles.iter().map(|t| &t.image))
        .chain(std::iter::once(&site.theme.logo));
    runtime.images.extend(images.filter_map(|u| origin_of(u)));
    PlannedPublish {
        plan: crate::publish::PublishPlan {
            dealer: slug.to_string(),
            origin: cfg.site_url.clone(),
            redirects,
            runtime,
        },
        left_out,
    }
}

/// Writes every feed problem to `stock-feed-report.txt` in the site folder
/// (a big feed can have more than a terminal should show), or removes the
/// report of an earlier build when there are none.
fn write_feed_report(site_dir: &Path, lines: &[String]) -> Result<Option<PathBuf>> {
    let path = site_dir.join("stock-feed-report.txt");
    if lines.is_empty() {
        if path.exists() {
            std::fs::remove_file(&path)
                .with_context(|| format!("cannot remove {}", path.display()))?;
        }
        return Ok(None);
    }
    std::fs::write(&path, lines.join("\n") + "\n")
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(Some(path))
}

/// The facts the edge worker needs (rules/src/edge_config.rs).
pub fn edge_config(slug: &str, cfg: &dealer_config::DealerConfig) -> EdgeConfig {
    let origins = std::iter::once(&cfg.site_url)
        .chain(&cfg.edge.extra_origins)
        .map(|o| dealer_rules::edge_config::normalize_origin(o))
        .collect();
    let calc = &cfg.finance.calculator;
    EdgeConfig {
        dealer: slug.to_string(),
        name: cfg.name.clone(),
        origins,
        locations: cfg
            .locations
            .iter()
            .map(|l| EdgeLocation {
                id: l.id.clone(),
                name: l.name.clone(),
                phone: l.phone.clone(),
                lead_email: l.lead_email.clone(),
            })
            .collect(),
        leads: LeadRouting {
            email: cfg.leads.email.clone(),
            webhook_url: cfg.leads.webhook_url.clone(),
        },
        features: EdgeFeatures {
            watchlist: cfg.features.watchlist,
            phone_reveal: cfg.features.phone_reveal,
        },
        dealership_id: cfg.dealership_id,
        forms: EdgeForms {
            message_required: cfg.forms.message_required,
        },
        finance: EdgeFinance {
            calculator: calc.settings(),
            // Only the URL and the secret's NAME: the key itself is a worker
            // secret and never appears in generated output.
            quote_provider: cfg
                .finance
                .quote_provider
                .as_ref()
                .map(|q| EdgeQuoteProvider {
                    url: q.url.clone(),
                    secret_name: q.secret_name.clone(),
                }),
        },
        analytics: EdgeAnalytics {
            enabled: cfg.edge.analytics_sink,
        },
        rate_limits: cfg.edge.rate_limits.resolve(),
    }
}

/// Every KV entry the worker reads for this dealer, in the format of
/// `wrangler kv bulk put` (`[{"key", "value"}]`): the config, one origin
/// key per allowed origin, and the visible cars' slugs (the worker counts
/// views of these cars only).
pub fn edge_kv<'a>(
    edge: &EdgeConfig,
    car_slugs: impl IntoIterator<Item = &'a str>,
) -> anyhow::Result<serde_json::Value> {
    use dealer_rules::edge_config::{car_list, cars_key, dealer_key, origin_key};
    let mut entries = vec![serde_json::json!({
        "key": dealer_key(&edge.dealer),
        "value": serde_json::to_string(edge)?,
    })];
    for origin in &edge.origins {
        entries.push(serde_json::json!({ "key": origin_key(origin), "value": edge.dealer }));
    }
    entries.push(serde_json::json!({
        "key": cars_key(&edge.dealer),
        "value": car_list(car_slugs),
    }));
    Ok(serde_json::Value::Array(entries))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every fact the worker reads about a dealer comes from the YAML model.
    #[test]
    fn edge_config_carries_the_worker_facts() {
        let cfg: dealer_config::DealerConfig = serde_json::from_value(serde_json::json!({
            "template": "t", "name": "Demo", "site_url": "https://Demo.example", "dealership_id": 77,
            "edge": {"extra_origins": ["https://staging.demo.example"], "analytics_sink": true,
                     "rate_limits": {"leads": {"per_client": 50}, "code_cooldown_secs": 30}},
            "forms": {"message_required": false},
            "finance": {"calculator": {"default_interest_rate": 8.5, "establishment_fee": 395.0},
                        "quote_provider": {"url": "https://quotes.example/q", "secret_name": "YOUX_API_KEY"}},
            "locations": [], "contact": {"phone": "07 3000 0000", "email": "a@demo.example"}, "stock": {"feed": "x.json"},
        }))
        .expect("minimal dealer config");
        let edge = edge_config("demo", &cfg);
        assert_eq!(
            edge.origins,
            ["https://demo.example", "https://staging.demo.example"]
        );
        assert_eq!(edge.dealership_id, Some(77));
        assert!(!edge.forms.message_required);
        assert!(edge.analytics.enabled);
        assert_eq!(edge.finance.calculator.default_interest_rate, 8.5);
        assert_eq!(edge.finance.calculator.establishment_fee, 395.0);
        assert_eq!(edge.finance.calculator.max_price, 250_000, "YAML default");
        let provider = edge.finance.quote_provider.unwrap();
        assert_eq!(
            (provider.url.as_str(), provider.secret_name.as_str()),
            ("https://quotes.example/q", "YOUX_API_KEY")
        );
        let defaults = dealer_rules::edge_config::EdgeRateLimits::default();
        assert_eq!(edge.rate_limits.leads.per_client, 50);
        assert_eq!(edge.rate_limits.leads.per_dealer, defaults.leads.per_dealer);
        assert_eq!(edge.rate_limits.views, defaults.views);
        assert_eq!(edge.rate_limits.code_cooldown_secs, 30);
        // The JSON written next to the site must load in the worker.
        let json = serde_json::to_string(&edge_config("demo", &cfg)).unwrap();
        let back: EdgeConfig = serde_json::from_str(&json).unwrap();
        assert_eq!(back.dealer, "demo");
        assert_eq!(back.rate_limits, edge_config("demo", &cfg).rate_limits);
    }

    /// The KV entries: the config, every origin, and the visible cars.
    #[test]
    fn edge_kv_lists_every_key_the_worker_reads() {
        let cfg: dealer_config::DealerConfig = serde_json::from_value(serde_json::json!({
            "template": "t", "name": "Demo", "site_url": "https://demo.example",
            "edge": {"extra_origins": ["https://staging.demo.example"]},
            "locations": [], "contact": {"phone": "07 3000 0000", "email": "a@demo.example"}, "stock": {"feed": "x.json"},
        }))
        .expect("minimal dealer config");
        let edge = edge_config("demo", &cfg);
        let kv = edge_kv(&edge, ["b-2", "a-1"]).unwrap();
        let keys: Vec<&str> = kv
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["key"].as_str().unwrap())
            .collect();
        assert_eq!(
            keys,
            [
                "dealer:demo",
                "origin:https://demo.example",
                "origin:https://staging.demo.example",
                "cars:demo"
            ]
        );
        assert_eq!(kv[3]["value"], "a-1\nb-2");
        assert_eq!(kv[1]["value"], "demo");
        let config: EdgeConfig = serde_json::from_str(kv[0]["value"].as_str().unwrap()).unwrap();
        assert_eq!(config, edge);
    }
}
