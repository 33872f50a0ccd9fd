//! The no-dead-link rule: every internal URL a built page references
//! (`href`, `src`, `srcset`, `action`, `poster`, CSS `url()`, also in the
//! site's CSS files) must resolve to a file of the built site, the way the
//! CDN resolves it; a `#fragment` must name an id on the page it points at.
//!
//! Internal means relative, root-relative, or absolute on the site's own
//! origin. Exempt: other hosts (the dealer's other sites included), the
//! edge API under `/api/`, and `tel:`, `mailto:`, `sms:`, `data:`, `blob:`.
//! `javascript:` URLs are dead: the Content-Security-Policy refuses them.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use rayon::prelude::*;
use walkdir::WalkDir;

use super::known::{read_pages, BuiltPage, KnownPages};
use super::scan::{self, css_urls, PageFacts, RefKind};
use crate::pipeline::url_path::percent_decode;

/// What counts as internal, and what else resolves besides files.
#[derive(Debug, Clone, Default)]
pub struct LinkPolicy {
    /// The site's public origin, e.g. "https://www.example.com.au" (no trailing slash).
    pub origin: String,
    /// Path prefixes another service answers, e.g. "/api/".
    pub exempt_prefixes: Vec<String>,
    /// Paths the CDN redirects (`_redirects`), with their targets.
    pub redirects: BTreeMap<String, String>,
}

/// A reference that resolves to nothing.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct DeadLink {
    /// URL path of the page (or CSS file) holding the reference, e.g. "/search/".
    pub page: String,
    /// The reference as written.
    pub link: String,
    pub kind: RefKind,
    /// Why it is dead.
    pub reason: String,
}

/// The result of checking one built site.
#[derive(Debug, Default)]
pub struct LinkReport {
    /// HTML pages scanned.
    pub pages: usize,
    /// CSS files scanned.
    pub stylesheets: usize,
    /// Internal references resolved (every occurrence).
    pub checked: usize,
    /// References left alone (other hosts, the API, tel: ...).
    pub exempt: usize,
    pub dead: Vec<DeadLink>,
    pub elapsed: Duration,
}

impl LinkReport {
    /// The dead links grouped by target, each with the pages it is on: at
    /// most `max` targets, the rest counted.
    pub fn summary(&self, max: usize) -> String {
        let mut by_target: BTreeMap<(&str, &str), Vec<&DeadLink>> = BTreeMap::new();
        for d in &self.dead {
            by_target
                .entry((d.link.as_str(), d.reason.as_str()))
                .or_default()
                .push(d);
        }
        let mut out = format!(
            "{} dead link(s) to {} target(s) on {} page(s):",
            self.dead.len(),
            by_target.len(),
            self.dead
                .iter()
                .map(|d| d.page.as_str())
                .collect::<HashSet<_>>()
                .len()
        );
        for ((link, reason), on) in by_target.iter().take(max) {
            let mut pages: Vec<&str> = on.iter().map(|d| d.page.as_str()).collect();
            pages.sort_unstable();
            pages.dedup();
            let shown = pages.iter().take(3).copied().collect::<Vec<_>>().join(", ");
            let more = match pages.len().saturating_sub(3) {
                0 => String::new(),
                n => format!(" and {n} more page(s)"),
            };
            out.push_str(&format!(
                "\n  {link} ({}) on {shown}{more}: {reason}",
                on[0].kind.as_str()
            ));
        }
        if by_target.len() > max {
            out.push_str(&format!(
                "\n  ... and {} more target(s)",
                by_target.len() - max
            ));
        }
        out
    }
}

/// The files of a built site, by path relative to its root ("a/index.html").
#[derive(Debug, Default)]
pub struct SiteFiles {
    files: HashSet<String>,
}

impl SiteFiles {
    pub fn read(dist: &Path) -> Result<Self> {
        let mut files = HashSet::new();
        for entry in WalkDir::new(dist) {
            let entry = entry.with_context(|| format!("cannot read {}", dist.display()))?;
            if entry.file_type().is_file() {
                let rel = entry
                    .path()
                    .strip_prefix(dist)
                    .expect("walkdir yields children");
                files.insert(rel.to_string_lossy().replace('\\', "/"));
            }
        }
        Ok(SiteFiles { files })
    }

    pub fn from_paths<I: IntoIterator<Item = S>, S: Into<String>>(paths: I) -> Self {
        SiteFiles {
            files: paths.into_iter().map(Into::into).collect(),
        }
    }

    pub fn contains(&self, rel: &str) -> bool {
        self.files.contains(rel)
    }

    pub fn iter(&self) -> impl Iterator<Item = &String> {
        self.files.iter()
    }
}

/// URL path of a built file: "cars/x/index.html" -> "/cars/x/", "404.html" -> "/404.html".
pub fn url_path_of(rel: &str) -> String {
    if rel == "index.html" {
        "/".into()
    } else if let Some(dir) = rel.strip_suffix("/index.html") {
        format!("/{dir}/")
    } else {
        format!("/{rel}")
    }
}

/// Where a URL path leads in the built site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A page; the file is its HTML ("a/index.html").
    Page(String),
    /// Some other file (an image, a script, a JSON file).
    File(String),
    /// A path the CDN redirects.
    Redirect(String),
}

/// Resolves an absolute, decoded URL path (no query, no fragment) the way
/// the CDN does: "/a/" is a/index.html; "/a" is the file a, else a/index.html
/// (answered with a redirect to "/a/"), else a.html.
pub fn resolve_path(
    path: &str,
    files: &SiteFiles,
    redirects: &BTreeMap<String, String>,
) -> Option<Target> {
    let rel = path.trim_start_matches('/');
    let as_target = |f: String| {
        if f.ends_with(".html") {
            Target::Page(f)
        } else {
            Target::File(f)
        }
    };
    if rel.is_empty() || rel.ends_with('/') {
        let index = format!("{rel}index.html");
        if files.contains(&index) {
            return Some(Target::Page(index));
        }
    } else {
        if files.contains(rel) {
            return Some(as_target(rel.to_string()));
        }
        let index = format!("{rel}/index.html");
        if files.contains(&index) {
            return Some(Target::Page(index));
        }
        let html = format!("{rel}.html");
        if files.contains(&html) {
            return Some(Target::Page(html));
        }
    }
    let other = match path.strip_suffix('/') {
        Some(bare) if !bare.is_empty() => bare.to_string(),
        _ => format!("{path}/"),
    };
    redirects
        .get(path)
        .or_else(|| redirects.get(&other))
        .map(|to| Target::Redirect(to.clone()))
}

/// How a reference is treated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Classified {
    /// Not ours to check, and why.
    Exempt(&'static str),
    /// A path of this site, decoded and normalised, and its fragment.
    Internal {
        path: String,
        fragment: Option<String>,
    },
    /// Wrong whatever the site holds.
    Invalid(String),
}

/// Classifies `url` found on the page (or stylesheet) at `base_path`
/// ("/cars/x/"), whose `<base href>` is `base` when it has one.
pub fn classify(url: &str, base_path: &str, base: Option<&str>, policy: &LinkPolicy) -> Classified {
    let url = url.trim();
    let (rest, fragment) = match url.split_once('#') {
        Some((r, f)) => (r, Some(f)),
        None => (url, None),
    };
    let fragment = fragment
        .filter(|f| !f.is_empty())
        .map(|f| percent_decode(f).unwrap_or_else(|| f.to_string()));
    let rest = rest.split('?').next().unwrap_or_default();

    // A scheme: only http(s) on the site's own origin is internal.
    if let Some(colon) = rest.find(':') {
        let scheme = &rest[..colon];
        let is_scheme = !scheme.is_empty()
            && scheme
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
        if is_scheme && !rest[..colon].contains('/') {
            return match scheme.to_ascii_lowercase().as_str() {
                "http" | "https" => match same_origin_path(rest, &policy.origin) {
                    Some(path) => internal(&path, fragment, policy),
                    None => Classified::Exempt("another host"),
                },
                "javascript" => Classified::Invalid(
                    "a javascript: URL runs inline code, which the Content-Security-Policy refuses"
                        .into(),
                ),
                "tel" | "mailto" | "sms" => Classified::Exempt("phone or e-mail"),
                "data" | "blob" => Classified::Exempt("inline data"),
                _ => Classified::Exempt("another application"),
            };
        }
    }
    if let Some(after) = rest.strip_prefix("//") {
        let scheme = policy.origin.split("://").next().unwrap_or("https");
        return match same_origin_path(&format!("{scheme}://{after}"), &policy.origin) {
            Some(path) => internal(&path, fragment, policy),
            None => Classified::Exempt("another host"),
        };
    }
    if rest.is_empty() {
        // "#x" or "?q": this very page.
        return internal(base_path, fragment, policy);
    }
    let absolute = if rest.starts_with('/') {
        rest.to_string()
    } else {
        let dir = match base.map(str::trim) {
            Some(b) if b.starts_with('/') => b.to_string(),
            Some(b) => match same_origin_path(b, &policy.origin) {
                Some(p) => p,
                None => return Classified::Exempt("relative to another host's <base>"),
            },
            None => base_path.to_string(),
        };
        let dir = &dir[..dir.rfind('/').map(|i| i + 1).unwrap_or(0)];
        format!("{dir}{rest}")
    };
    internal(&absolute, fragment, policy)
}

fn internal(path: &str, fragment: Option<String>, policy: &LinkPolicy) -> Classified {
    let Some(decoded) = percent_decode(path) else {
        return Classified::Invalid(format!("`{path}` has a broken %-escape"));
    };
    let Some(path) = normalise(&decoded) else {
        return Classified::Invalid("the path climbs above the site's root".into());
    };
    if policy
        .exempt_prefixes
        .iter()
        .any(|p| path.starts_with(p.as_str()) || path == p.trim_end_matches('/'))
    {
        return Classified::Exempt("served by the edge");
    }
    Classified::Internal { path, fragment }
}

/// The path (with its query cut off already) of `url` when it is on `origin`.
fn same_origin_path(url: &str, origin: &str) -> Option<String> {
    let (scheme, after) = url.split_once("://")?;
    let (o_scheme, o_host) = origin.split_once("://")?;
    let host_end = after.find('/').unwrap_or(after.len());
    let host = &after[..host_end];
    let same_host = host.eq_ignore_ascii_case(o_host.trim_end_matches('/'));
    // http:// of the site's own host is the same site (the CDN upgrades it).
    let same_scheme = scheme.eq_ignore_ascii_case(o_scheme) || scheme.eq_ignore_ascii_case("http");
    (same_host && same_scheme).then(|| {
        let path = &after[host_end..];
        if path.is_empty() {
            "/".to_string()
        } else {
            path.to_string()
        }
    })
}

/// Removes "." and ".." segments; None when ".." climbs above the root.
fn normalise(path: &str) -> Option<String> {
    let mut out: Vec<&str> = Vec::new();
    let trailing = path.ends_with('/') || path.ends_with("/.") || path.ends_with("/..");
    for seg in path.split('/').skip(1) {
        match seg {
            "." | "" => {}
            ".." => {
                out.pop()?;
            }
            s => out.push(s),
        }
    }
    let mut p = format!("/{}", out.join("/"));
    if trailing && p != "/" {
        p.push('/');
    }
    Some(p)
}

/// A scanned page: its file ("a/index.html") and what it references.
pub struct ScannedPage {
    pub file: String,
    pub facts: PageFacts,
}

/// Scans every page (in parallel), but for the pages `known` has the
/// facts of (the same bytes were published before: `known.rs`); the facts
/// found are added to `known`.
pub fn scan_pages(pages: &[BuiltPage], known: &mut KnownPages) -> Result<Vec<ScannedPage>> {
    let scanned: Vec<(ScannedPage, bool)> = pages
        .par_iter()
        .map(|page| {
            let (facts, new) = match known.get(&page.hash) {
                Some(facts) => (facts.clone(), false),
                None => (
                    scan::scan(&page.text).with_context(|| page.file.clone())?,
                    true,
                ),
            };
            Ok((
                ScannedPage {
                    file: page.file.clone(),
                    facts,
                },
                new,
            ))
        })
        .collect::<Result<_>>()?;
    for (page, (scanned, new)) in pages.iter().zip(&scanned) {
        if *new {
            known.insert(page.hash.clone(), scanned.facts.clone());
        }
    }
    Ok(scanned.into_iter().map(|(s, _)| s).collect())
}

/// Checks every page and stylesheet of a built site (scanned already).
pub fn check_scanned(
    dist: &Path,
    files: &SiteFiles,
    pages: &[ScannedPage],
    policy: &LinkPolicy,
) -> Result<LinkReport> {
    let started = Instant::now();
    let ids: HashMap<&str, &HashSet<String>> = pages
        .iter()
        .map(|p| (p.file.as_str(), &p.facts.ids))
        .collect();
    let check_one = |page_path: &str,
                     base: Option<&str>,
                     kind: RefKind,
                     url: &str,
                     is_css: bool|
     -> Result<Option<String>, ()> {
        match classify(url, page_path, base, policy) {
            Classified::Exempt(_) => Err(()),
            Classified::Invalid(why) => Ok(Some(why)),
            Classified::Internal { path, fragment } => {
                let target = resolve_path(&path, files, &policy.redirects);
                Ok(match target {
                    None => Some(dead_reason(&path, files)),
                    Some(Target::Page(file)) => match fragment {
                        Some(f) if !is_css && kind != RefKind::Srcset && f != "top" => {
                            let has = ids.get(file.as_str()).is_some_and(|set| set.contains(&f));
                            (!has).then(|| {
                                format!(
                                    "the page {} has no element with id \"{f}\"",
                                    url_path_of(&file)
                                )
                            })
                        }
                        _ => None,
                    },
                    Some(Target::File(_)) | Some(Target::Redirect(_)) => None,
                })
            }
        }
    };

    let per_page: Vec<(usize, usize, Vec<DeadLink>)> = pages
        .par_iter()
        .map(|p| {
            let page_path = url_path_of(&p.file);
            let (mut checked, mut exempt, mut dead) = (0, 0, Vec::new());
            for r in &p.facts.refs {
                match check_one(&page_path, p.facts.base.as_deref(), r.kind, &r.url, false) {
                    Err(()) => exempt += 1,
                    Ok(None) => checked += 1,
                    Ok(Some(reason)) => {
                        checked += 1;
                        dead.push(DeadLink {
                            page: page_path.clone(),
                            link: r.url.clone(),
                            kind: r.kind,
                            reason,
                        });
                    }
                }
            }
            (checked, exempt, dead)
        })
        .collect();

    let mut css: Vec<&String> = files.iter().filter(|f| f.ends_with(".css")).collect();
    css.sort();
    let per_css: Vec<(usize, usize, Vec<DeadLink>)> = css
        .par_iter()
        .map(|rel| -> Result<(usize, usize, Vec<DeadLink>)> {
            let path = dist.join(rel.as_str());
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let sheet = url_path_of(rel);
            let (mut checked, mut exempt, mut dead) = (0, 0, Vec::new());
            for url in css_urls(&text) {
                match check_one(&sheet, None, RefKind::CssUrl, &url, true) {
                    Err(()) => exempt += 1,
                    Ok(None) => checked += 1,
                    Ok(Some(reason)) => {
                        checked += 1;
                        dead.push(DeadLink {
                            page: sheet.clone(),
                            link: url,
                            kind: RefKind::CssUrl,
                            reason,
                        });
                    }
                }
            }
            Ok((checked, exempt, dead))
        })
        .collect::<Result<_>>()?;

    let mut report = LinkReport {
        pages: pages.len(),
        stylesheets: css.len(),
        ..LinkReport::default()
    };
    for (checked, exempt, dead) in per_page.into_iter().chain(per_css) {
        report.checked += checked;
        report.exempt += exempt;
        report.dead.extend(dead);
    }
    report.dead.sort();
    report.elapsed = started.elapsed();
    Ok(report)
}

/// "no page or file at /x/", with the closest existing page when one is near.
fn dead_reason(path: &str, files: &SiteFiles) -> String {
    let pages: Vec<String> = files
        .iter()
        .filter(|f| f.ends_with("index.html"))
        .map(|f| url_path_of(f))
        .collect();
    let hint = dealer_config::suggest::closest(path, pages.iter().map(String::as_str))
        .map(|s| format!(" (did you mean {s}?)"))
        .unwrap_or_default();
    format!("no page or file at {path}{hint}")
}

/// Scans and checks a built site: the library entry point other commands use.
pub fn check_links(dist: &Path, policy: &LinkPolicy) -> Result<LinkReport> {
    let started = Instant::now();
    let files = SiteFiles::read(dist)?;
    let pages = scan_pages(&read_pages(dist)?, &mut KnownPages::none())?;
    let mut report = check_scanned(dist, &files, &pages, policy)?;
    report.elapsed = started.elapsed();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> LinkPolicy {
        LinkPolicy {
            origin: "https://www.dealer.com.au".into(),
            exempt_prefixes: vec!["/api/".into()],
            redirects: BTreeMap::from([("/cars/sold-1/".to_string(), "/search/".to_string())]),
        }
    }

    fn files() -> SiteFiles {
        SiteFiles::from_paths([
            "index.html",
            "search/index.html",
            "about-us/index.html",
            "favicon.svg",
            "404.html",
            "legacy.html",
            "cars/a b/index.html",
        ])
    }

    fn resolve(url: &str, on: &str) -> Result<Option<Target>, Classified> {
        match classify(url, on, None, &policy()) {
            Classified::Internal { path, .. } => {
                Ok(resolve_path(&path, &files(), &policy().redirects))
            }
            other => Err(other),
        }
    }

    #[test]
    fn a_trailing_slash_path_is_its_directory_index() {
        assert_eq!(
            resolve("/search/", "/").unwrap(),
            Some(Target::Page("search/index.html".into()))
        );
        assert_eq!(
            resolve("/", "/search/").unwrap(),
            Some(Target::Page("index.html".into()))
        );
        assert_eq!(resolve("/nowhere/", "/").unwrap(), None);
    }

    #[test]
    fn a_path_without_slash_is_a_file_or_redirects_to_its_directory() {
        assert_eq!(
            resolve("/favicon.svg", "/").unwrap(),
            Some(Target::File("favicon.svg".into()))
        );
        // The CDN answers /about-us with a redirect to /about-us/.
        assert_eq!(
            resolve("/about-us", "/").unwrap(),
            Some(Target::Page("about-us/index.html".into()))
        );
        // Pretty URL of a flat HTML file.
        assert_eq!(
            resolve("/legacy", "/").unwrap(),
            Some(Target::Page("legacy.html".into()))
        );
        assert_eq!(
            resolve("/favicon.svg/", "/").unwrap(),
            None,
            "a file is not a folder"
        );
    }

    #[test]
    fn query_strings_are_ignored_and_escapes_decoded() {
        assert_eq!(
            resolve("/search/?refinementList%5Bmake%5D%5B0%5D=Kia&page=2", "/").unwrap(),
            Some(Target::Page("search/index.html".into()))
        );
        assert_eq!(
            resolve("/cars/a%20b/", "/").unwrap(),
            Some(Target::Page("cars/a b/index.html".into()))
        );
        assert!(matches!(
            resolve("/cars/%zz/", "/"),
            Err(Classified::Invalid(_))
        ));
    }

    #[test]
    fn relative_links_resolve_against_the_page_or_its_base() {
        assert_eq!(
            resolve("../about-us/", "/search/").unwrap(),
            Some(Target::Page("about-us/index.html".into()))
        );
        assert_eq!(
            resolve("./", "/search/").unwrap(),
            Some(Target::Page("search/index.html".into()))
        );
        assert_eq!(
            resolve("favicon.svg", "/").unwrap(),
            Some(Target::File("favicon.svg".into()))
        );
        assert!(matches!(
            resolve("../../x", "/search/"),
            Err(Classified::Invalid(_))
        ));
        match classify("about-us/", "/search/", Some("/"), &policy()) {
            Classified::Internal { path, .. } => assert_eq!(path, "/about-us/"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_sites_own_origin_is_internal_and_other_hosts_are_not() {
        assert_eq!(
            resolve("https://www.dealer.com.au/about-us/", "/").unwrap(),
            Some(Target::Page("about-us/index.html".into()))
        );
        assert_eq!(
            resolve("https://WWW.DEALER.COM.AU", "/").unwrap(),
            Some(Target::Page("index.html".into()))
        );
        assert_eq!(resolve("//www.dealer.com.au/nope/", "/").unwrap(), None);
        for external in [
            "https://dealer.com.au/x",
            "https://booking.dealer.com.au/",
            "//cdn.example/a.jpg",
        ] {
            assert_eq!(
                resolve(external, "/"),
                Err(Classified::Exempt("another host")),
                "{external}"
            );
        }
    }

    #[test]
    fn the_api_and_non_web_schemes_are_exempt_and_javascript_is_dead() {
        assert_eq!(
            resolve("/api/leads", "/"),
            Err(Classified::Exempt("served by the edge"))
        );
        assert_eq!(
            resolve("/api", "/"),
            Err(Classified::Exempt("served by the edge"))
        );
        for url in [
            "tel:0733330000",
            "mailto:a@b.com",
            "sms:?body=x",
            "data:image/png;base64,AA",
        ] {
            assert!(
                matches!(resolve(url, "/"), Err(Classified::Exempt(_))),
                "{url}"
            );
        }
        assert!(matches!(
            resolve("javascript:void(0)", "/"),
            Err(Classified::Invalid(_))
        ));
    }

    #[test]
    fn redirected_paths_resolve_with_or_without_their_slash() {
        assert_eq!(
            resolve("/cars/sold-1/", "/").unwrap(),
            Some(Target::Redirect("/search/".into()))
        );
        assert_eq!(
            resolve("/cars/sold-1", "/").unwrap(),
            Some(Target::Redirect("/search/".into()))
        );
    }

    fn report_for(pages: &[(&str, &str)]) -> LinkReport {
        let dir = tempfile::tempdir().unwrap();
        for (file, html) in pages {
            let p = dir.path().join(file);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, html).unwrap();
        }
        check_links(dir.path(), &policy()).unwrap()
    }

    #[test]
    fn fragments_must_name_an_id_on_their_page() {
        let report = report_for(&[
            (
                "index.html",
                r##"<a href="#main">skip</a><main id="main"></main><a href="#nope">x</a><a href="#">top</a><a href="#top">top</a><a href="/b/#spec">b</a><a href="/b/#gone">b</a>"##,
            ),
            ("b/index.html", r#"<h2 id="spec">Specs</h2>"#),
        ]);
        let dead: Vec<(&str, &str)> = report
            .dead
            .iter()
            .map(|d| (d.link.as_str(), d.reason.as_str()))
            .collect();
        assert_eq!(
            dead,
            [
                ("#nope", "the page / has no element with id \"nope\""),
                ("/b/#gone", "the page /b/ has no element with id \"gone\""),
            ]
        );
        assert_eq!(report.checked, 6);
    }

    #[test]
    fn an_islands_modules_must_exist() {
        // A page copied from a stale cache names a module the build no
        // longer has: the island would never hydrate, with no error in the page.
        let report = report_for(&[
            (
                "index.html",
                r#"<astro-island component-url="/_astro/Quote.new.js" renderer-url="/_astro/client.js" before-hydration-url=""></astro-island>
                <astro-island component-url="/_astro/ViewsCounter.old.js" renderer-url="/_astro/client.js"></astro-island>"#,
            ),
            ("_astro/Quote.new.js", "export default 1;"),
            ("_astro/client.js", "export default 1;"),
        ]);
        let dead: Vec<(&str, &str, RefKind)> = report
            .dead
            .iter()
            .map(|d| (d.page.as_str(), d.link.as_str(), d.kind))
            .collect();
        assert_eq!(
            dead,
            [("/", "/_astro/ViewsCounter.old.js", RefKind::IslandModule)]
        );
        assert_eq!(report.checked, 4);
    }

    #[test]
    fn stylesheets_and_inline_css_are_checked_relative_to_themselves() {
        let report = report_for(&[
            ("index.html", r#"<div style="background:url(/img/gone.png)"></div><style>.a{background:url(/img/ok.svg)}</style>"#),
            ("img/ok.svg", "<svg/>"),
            ("_astro/site.css", ".b{background:url(../img/ok.svg)} .c{mask:url(missing.svg)} .d{background:url(data:image/png;base64,AA)}"),
        ]);
        let dead: Vec<(&str, &str)> = report
            .dead
            .iter()
            .map(|d| (d.page.as_str(), d.link.as_str()))
            .collect();
        assert_eq!(
            dead,
            [("/", "/img/gone.png"), ("/_astro/site.css", "missing.svg")]
        );
        assert_eq!((report.pages, report.stylesheets, report.exempt), (1, 1, 1));
    }

    #[test]
    fn the_summary_groups_pages_by_dead_target() {
        let report = report_for(&[
            ("index.html", r#"<a href="/special-offers/">Offers</a>"#),
            (
                "search/index.html",
                r#"<a href="/special-offers/">Offers</a><img src="/x.png">"#,
            ),
            ("about-us/index.html", r#"<a href="/serch/">Search</a>"#),
        ]);
        insta::assert_snapshot!(report.summary(10), @r"
        4 dead link(s) to 3 target(s) on 3 page(s):
          /serch/ (href) on /about-us/: no page or file at /serch/ (did you mean /search/?)
          /special-offers/ (href) on /, /search/: no page or file at /special-offers/
          /x.png (src) on /search/: no page or file at /x.png
        ");
    }
}
