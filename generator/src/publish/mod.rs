//! The publish stage: what happens to a built site, after `crate::checks`,
//! before it replaces the published one: the rules that fail the build (no
//! dead link, page conventions) and the files a release carries for the
//! CDN and search engines (`_redirects`, `_headers`, `sitemap.xml`,
//! `robots.txt`), computed from the built pages themselves.
//!
//! `scan` reads each page once (`known`: not again when the published
//! release had the same bytes); `links` is the dead-link rule (a library
//! function other commands call: [`link_check::check_links`]); `seo` the page
//! conventions, sitemap and robots; `headers` the CSP; `redirects` the
//! sold-car redirects.

pub mod headers;
pub mod known;
pub mod link_check;
pub mod redirects;
pub mod scan;
pub mod seo;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use link_check::{LinkPolicy, LinkReport, SiteFiles, Target};

/// What a dealer's build hands the publish step.
#[derive(Debug, Clone, Default)]
pub struct PublishPlan {
    /// Dealer slug, for messages.
    pub dealer: String,
    /// The site's public origin (`site_url`).
    pub origin: String,
    /// Redirects to write into `_redirects`.
    pub redirects: Vec<redirects::Redirect>,
    /// Origins the site's scripts reach at run time (for the CSP).
    pub runtime: headers::RuntimeOrigins,
    /// The dealer's query-string redirects, written to
    /// `/query-redirects.json` for the site worker's script (none: no file).
    pub query_redirects: Vec<dealer_config::redirect_rules::QueryRule>,
    /// The vehicle ads feeds, written to `/feeds/` (`pipeline::syndication`):
    /// each row's car page must be a page of this build.
    pub feeds: Vec<crate::pipeline::syndication::FeedFile>,
}

/// What the publish step found and wrote.
#[derive(Debug, Default)]
pub struct PublishReport {
    pub links: LinkReport,
    /// URLs in sitemap.xml.
    pub sitemap_urls: usize,
    /// Distinct inline scripts allowed by hash.
    pub script_hashes: usize,
    pub redirects: usize,
    /// The site's files as Cloudflare counts them (asset_limits).
    pub assets: crate::checks::asset_limits::AssetCount,
    /// This step (links, SEO, sitemap, headers) from start to end.
    pub elapsed: Duration,
    /// The finance compliance check, run before this step by the build
    /// (zero when it did not run, e.g. `check-links`).
    pub compliance: Duration,
    /// Every check before publishing, from start to end (the promised
    /// pages, compliance, this step); this step's time alone when it ran alone.
    pub checks: Duration,
    /// Pages the published release had byte for byte, whose facts came
    /// from it instead of being parsed again (`known`).
    pub pages_known: usize,
}

impl PublishReport {
    /// What the links, sitemap, CSP and redirects came to, as `build` and
    /// `check-links` print it: "links: 12 internal checked (3 exempt) on 4
    /// pages and 2 stylesheets in 5 ms, 0 dead; sitemap 4 URLs, CSP 1
    /// script hash(es), 2 redirect(s)".
    pub fn links_line(&self) -> String {
        format!(
            "links: {} internal checked ({} exempt) on {} pages and {} stylesheets in {:.0} ms, 0 dead; sitemap {} URLs, CSP {} script hash(es), {} redirect(s)",
            self.links.checked,
            self.links.exempt,
            self.links.pages,
            self.links.stylesheets,
            self.links.elapsed.as_secs_f64() * 1000.0,
            self.sitemap_urls,
            self.script_hashes,
            self.redirects
        )
    }
}

/// Where /cars/ids.json (read by the site worker's script,
/// templates/site-worker/worker.mjs) sends a car id: its page and its
/// reservation page must be pages of the site.
fn car_ids_problems(dist: &Path, files: &SiteFiles) -> Vec<String> {
    let file = dist.join("cars/ids.json");
    let Ok(text) = std::fs::read_to_string(&file) else {
        return vec!["cars/ids.json is missing: the site worker could not answer /print?car_id= and /checkout-journey?car_id=".into()];
    };
    let Ok(ids) = serde_json::from_str::<BTreeMap<String, serde_json::Value>>(&text) else {
        return vec!["cars/ids.json is not a map of car ids".into()];
    };
    let mut problems = Vec::new();
    for (id, car) in &ids {
        for key in ["page", "checkout"] {
            let Some(to) = car[key].as_str() else {
                continue;
            };
            if !matches!(
                link_check::resolve_path(to, files, &BTreeMap::new()),
                Some(Target::Page(_))
            ) {
                problems.push(format!(
                    "cars/ids.json: car {id}'s {key} {to}: no page there"
                ));
            }
        }
        if car["page"].as_str().is_none() {
            problems.push(format!("cars/ids.json: car {id} has no page"));
        }
    }
    problems
}

/// Checks the built site in `dist` and writes the CDN's files into it.
/// Fails, naming the dealer, each page and each link, when a link is dead
/// or a page breaks a convention; the full list goes to `report_file`.
/// `pages` are the site's HTML pages (`known::read_pages`); those in
/// `known` are not scanned again, and the facts of the others are added.
pub fn finish(
    dist: &Path,
    plan: &PublishPlan,
    report_file: &Path,
    pages: &[known::BuiltPage],
    known: &mut known::KnownPages,
) -> Result<PublishReport> {
    let started = Instant::now();
    let mut files = SiteFiles::read(dist)?;

    // Redirects first: a link to a gone car resolves through them, and each
    // must land on a page that exists.
    let redirect_map: BTreeMap<String, String> = plan
        .redirects
        .iter()
        .map(|r| (r.from.clone(), r.to.clone()))
        .collect();
    let mut problems: Vec<String> = Vec::new();
    for r in &plan.redirects {
        if redirects::is_dynamic(r) {
            // A pattern (`/cars/*/print/` to `/cars/:splat/`): its targets
            // are the pages its matches name; only its form can be checked.
            if r.to.contains('*') || (r.to.contains(":splat") && r.from.matches('*').count() != 1) {
                problems.push(format!(
                    "_redirects: {} -> {}: a dynamic rule needs one * and may name it once as :splat",
                    r.from, r.to
                ));
            }
            continue;
        }
        if r.to.starts_with("https://") {
            // A dealer's redirect off the site (checked as an https URL with the dealer file).
            continue;
        }
        match link_check::resolve_path(&r.to, &files, &BTreeMap::new()) {
            Some(Target::Page(_)) => {}
            _ => problems.push(format!(
                "_redirects: {} -> {}: no page at {}",
                r.from, r.to, r.to
            )),
        }
    }
    write(dist, "_redirects", &redirects::render(&plan.redirects))?;
    if !plan.query_redirects.is_empty() {
        write(
            dist,
            redirects::QUERY_TABLE_FILE,
            &redirects::query_table(&plan.query_redirects).to_string(),
        )?;
        for r in plan
            .query_redirects
            .iter()
            .filter(|r| !r.to.starts_with("https://"))
        {
            if !matches!(
                link_check::resolve_path(&r.to, &files, &BTreeMap::new()),
                Some(Target::Page(_))
            ) {
                problems.push(format!(
                    "{}: {} -> {}: no page at {}",
                    redirects::QUERY_TABLE_FILE,
                    r.path,
                    r.to,
                    r.to
                ));
            }
        }
    }
    problems.extend(write_feeds(dist, &plan.feeds, &files)?);
    // The site worker's redirects for the older platform's query-string
    // addresses land on the pages /cars/ids.json names: each must exist.
    problems.extend(car_ids_problems(dist, &files));

    let link_started = Instant::now();
    let pages = link_check::scan_pages(pages, known)?;
    problems.extend(
        seo::check(&pages, &plan.origin)
            .into_iter()
            .map(|p| format!("page {}: {}", p.page, p.problem)),
    );
    let policy = LinkPolicy {
        origin: plan.origin.trim_end_matches('/').to_string(),
        exempt_prefixes: vec!["/api/".into()],
        redirects: redirect_map,
    };
    let mut link_report = link_check::check_scanned(dist, &files, &pages, &policy)?;
    // Reading and scanning the pages is most of the work: the figure covers both.
    link_report.elapsed = link_started.elapsed();

    let urls = seo::sitemap_urls(&pages, &plan.origin);
    write(dist, "sitemap.xml", &seo::sitemap(&urls))?;
    write(dist, "robots.txt", &seo::robots(&plan.origin))?;
    let csp = headers::Csp::for_pages(&pages, &plan.origin, &plan.runtime);
    write(dist, "_headers", &headers::render(&csp))?;
    files = SiteFiles::read(dist)?;
    // The generated files are read by crawlers: their URLs must resolve too.
    for u in &urls {
        let path = u.strip_prefix(policy.origin.as_str()).unwrap_or(u);
        if link_check::resolve_path(path, &files, &BTreeMap::new()).is_none() {
            problems.push(format!("sitemap.xml: {u} has no page"));
        }
    }

    let mut lines: Vec<String> = problems.clone();
    lines.extend(link_report.dead.iter().map(|d| {
        format!(
            "page {} links to {} ({}): {}",
            d.page,
            d.link,
            d.kind.as_str(),
            d.reason
        )
    }));
    if lines.is_empty() {
        if report_file.exists() {
            std::fs::remove_file(report_file)
                .with_context(|| format!("cannot remove {}", report_file.display()))?;
        }
    } else {
        std::fs::write(report_file, lines.join("\n") + "\n")
            .with_context(|| format!("cannot write {}", report_file.display()))?;
    }
    if !problems.is_empty() || !link_report.dead.is_empty() {
        let mut msg = format!(
            "{}: the built site breaks the publishing rules",
            plan.dealer
        );
        if !link_report.dead.is_empty() {
            msg.push_str(&format!("\n{}", link_report.summary(20)));
        }
        if !problems.is_empty() {
            msg.push_str(&format!("\n{} page problem(s):", problems.len()));
            for p in problems.iter().take(20) {
                msg.push_str(&format!("\n  {p}"));
            }
            if problems.len() > 20 {
                msg.push_str(&format!("\n  ... and {} more", problems.len() - 20));
            }
        }
        msg.push_str(&format!(
            "\nevery problem is listed in {}",
            report_file.display()
        ));
        bail!(msg);
    }
    Ok(PublishReport {
        sitemap_urls: urls.len(),
        script_hashes: csp.script_hashes.len(),
        redirects: plan.redirects.len(),
        assets: crate::checks::asset_limits::AssetCount::scan(dist)?,
        links: link_report,
        elapsed: started.elapsed(),
        compliance: Duration::ZERO,
        checks: started.elapsed(),
        pages_known: 0,
    })
}

/// Writes the vehicle ads feeds into `dist/feeds/`; an ad never links a
/// page the site does not have, so each row's page is checked here, against
/// this build's files.
fn write_feeds(
    dist: &Path,
    feeds: &[crate::pipeline::syndication::FeedFile],
    files: &SiteFiles,
) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    if feeds.is_empty() {
        return Ok(problems);
    }
    let dir = dist.join("feeds");
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for feed in feeds {
        for page in &feed.pages {
            if !matches!(
                link_check::resolve_path(page, files, &BTreeMap::new()),
                Some(Target::Page(_))
            ) {
                problems.push(format!(
                    "feeds/{}: a row links {page}: no page there",
                    feed.name
                ));
            }
        }
        write(&dir, feed.name, &feed.text)?;
    }
    Ok(problems)
}

fn write(dist: &Path, name: &str, text: &str) -> Result<()> {
    let path = dist.join(name);
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::known::{read_pages, KnownPages};
    use super::*;

    fn page(dist: &Path, file: &str, body: &str) {
        let path = dist.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let html = format!(
            "<!doctype html><html><head><title>{file}</title><meta name=\"description\" content=\"d\"><link rel=\"canonical\" href=\"https://www.dealer.com.au/{}\"></head><body>{body}</body></html>",
            file.trim_end_matches("index.html")
        );
        std::fs::write(path, html).unwrap();
    }

    fn plan() -> PublishPlan {
        PublishPlan {
            dealer: "demo".into(),
            origin: "https://www.dealer.com.au".into(),
            ..PublishPlan::default()
        }
    }

    /// Checks `dist` with `known` as the published release's pages.
    fn check(dist: &Path, known: &mut KnownPages) -> Result<PublishReport> {
        let pages = read_pages(dist)?;
        let report = finish(dist, &plan(), &dist.join("../problems.txt"), &pages, known)?;
        Ok(report)
    }

    #[test]
    fn known_pages_keep_their_facts_but_their_links_are_resolved_against_this_build() {
        let dir = tempfile::tempdir().unwrap();
        let dist = dir.path().join("dist");
        page(&dist, "index.html", "<a href=\"/about/\">About</a>");
        page(&dist, "about/index.html", "<a href=\"/\">Home</a>");
        std::fs::create_dir_all(dist.join("cars")).unwrap();
        std::fs::write(dist.join("cars/ids.json"), "{}").unwrap();
        let mut known = KnownPages::none();
        check(&dist, &mut known).expect("a sound site");
        let pages = read_pages(&dist).unwrap();
        assert!(
            pages.iter().all(|p| known.contains(&p.hash)),
            "every page's facts are recorded"
        );

        // The known facts are used as they are: a page whose recorded facts
        // name a link its bytes do not have shows they were not parsed again.
        let home = pages.iter().find(|p| p.file == "index.html").unwrap();
        let mut facts = known.get(&home.hash).unwrap().clone();
        facts.refs.push(scan::Reference {
            kind: scan::RefKind::Href,
            url: "/recorded-only/".into(),
            tag: "a".into(),
        });
        known.insert(home.hash.clone(), facts);
        let err = check(&dist, &mut known).unwrap_err().to_string();
        assert!(err.contains("/recorded-only/"), "{err}");

        // A known page's link to a page this build no longer has is dead.
        let mut known = KnownPages::none();
        check(&dist, &mut known).unwrap();
        std::fs::remove_dir_all(dist.join("about")).unwrap();
        let err = check(&dist, &mut known).unwrap_err().to_string();
        assert!(err.contains("/about/"), "{err}");
    }

    /// The site worker sends /print?car_id= and /checkout-journey?car_id=
    /// where /cars/ids.json says: each page it names must exist.
    #[test]
    fn the_car_ids_the_site_worker_reads_name_pages_the_site_has() {
        let dir = tempfile::tempdir().unwrap();
        let dist = dir.path().join("dist");
        page(&dist, "index.html", "<a href=\"/cars/a/\">A</a>");
        page(&dist, "cars/a/index.html", "<a href=\"/\">Home</a>");
        let ids = |text: &str| std::fs::write(dist.join("cars/ids.json"), text).unwrap();
        ids(r#"{"7": {"page": "/cars/a/", "checkout": null}}"#);
        check(&dist, &mut KnownPages::none()).expect("every id names a page");
        ids(
            r#"{"7": {"page": "/cars/a/", "checkout": "/cars/a/checkout/"}, "8": {"page": "/cars/gone/", "checkout": null}}"#,
        );
        let err = check(&dist, &mut KnownPages::none())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("car 7's checkout /cars/a/checkout/: no page there"),
            "{err}"
        );
        assert!(
            err.contains("car 8's page /cars/gone/: no page there"),
            "{err}"
        );
        std::fs::remove_file(dist.join("cars/ids.json")).unwrap();
        let err = check(&dist, &mut KnownPages::none())
            .unwrap_err()
            .to_string();
        assert!(err.contains("cars/ids.json is missing"), "{err}");
    }
}
