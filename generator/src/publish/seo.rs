//! Page conventions search engines rely on, checked on every built page,
//! and the files they read: `sitemap.xml` (every indexable page, from the
//! built pages themselves, so no page type can be forgotten) and
//! `robots.txt` (pointing at the sitemap).

use super::link_check::{url_path_of, ScannedPage};

/// The page a CDN shows for any missing path: it has no URL of its own.
pub const NOT_FOUND_PAGE: &str = "404.html";

/// A broken convention on a page.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct PageProblem {
    /// URL path of the page.
    pub page: String,
    pub problem: String,
}

/// Every page needs a title and a description; an indexable page needs
/// exactly one canonical link, to itself or another built page on the site's origin; JSON-LD
/// blocks must be JSON; no page may carry inline event handlers (the CSP
/// refuses them, so they would silently do nothing).
pub fn check(pages: &[ScannedPage], origin: &str) -> Vec<PageProblem> {
    let origin = origin.trim_end_matches('/');
    // A page may name another page of the site as its canonical one (the
    // /locations/ twins name their /contact-us/ page), never a missing one.
    let built: std::collections::HashSet<String> = pages
        .iter()
        .map(|p| format!("{origin}{}", url_path_of(&p.file)))
        .collect();
    let mut out = Vec::new();
    for p in pages {
        let f = &p.facts;
        let path = url_path_of(&p.file);
        let mut problem = |text: String| {
            out.push(PageProblem {
                page: path.clone(),
                problem: text,
            })
        };
        if f.title.as_deref().is_none_or(|t| t.trim().is_empty()) {
            problem("no <title>".into());
        }
        if f.description.as_deref().is_none_or(|d| d.trim().is_empty()) {
            problem("no <meta name=\"description\">".into());
        }
        let want = format!("{origin}{path}");
        if p.file == NOT_FOUND_PAGE {
            if !f.canonical.is_empty() {
                problem("the not-found page must not name a canonical URL".into());
            }
        } else if !f.noindex {
            match f.canonical.as_slice() {
                [one] if *one == want || built.contains(one.as_str()) => {}
                [one] => problem(format!("canonical link is {one}, expected {want}")),
                [] => problem(format!("no canonical link (expected {want})")),
                many => problem(format!("{} canonical links", many.len())),
            }
        }
        for block in &f.json_ld {
            if let Err(e) = serde_json::from_str::<serde_json::Value>(block) {
                problem(format!("a JSON-LD block is not JSON: {e}"));
            }
        }
        for handler in &f.event_handlers {
            problem(format!(
                "inline event handler `{handler}`: the Content-Security-Policy refuses it; use a script file"
            ));
        }
    }
    out.sort();
    out
}

/// The URLs of the sitemap: every page that is not the not-found page and
/// not marked noindex, in path order.
pub fn sitemap_urls(pages: &[ScannedPage], origin: &str) -> Vec<String> {
    let origin = origin.trim_end_matches('/');
    let mut urls: Vec<String> = pages
        .iter()
        .filter(|p| p.file != NOT_FOUND_PAGE && !p.facts.noindex)
        .map(|p| format!("{origin}{}", url_path_of(&p.file)))
        .collect();
    urls.sort();
    urls
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `sitemap.xml`.
pub fn sitemap(urls: &[String]) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for u in urls {
        out.push_str(&format!("  <url><loc>{}</loc></url>\n", xml_escape(u)));
    }
    out.push_str("</urlset>\n");
    out
}

/// `robots.txt`: everything may be crawled but the API; the sitemap is named.
pub fn robots(origin: &str) -> String {
    format!(
        "User-agent: *\nDisallow: /api/\n\nSitemap: {}/sitemap.xml\n",
        origin.trim_end_matches('/')
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::publish::scan::scan;

    const ORIGIN: &str = "https://www.dealer.com.au";

    fn page(file: &str, html: &str) -> ScannedPage {
        ScannedPage {
            file: file.into(),
            facts: scan(html).unwrap(),
        }
    }

    fn head(title: &str, canonical: &str) -> String {
        format!(
            r#"<head><title>{title}</title><meta name="description" content="d"><link rel="canonical" href="{canonical}"></head>"#
        )
    }

    #[test]
    fn every_page_names_itself_canonically() {
        let pages = [
            page("index.html", &head("Home", "https://www.dealer.com.au/")),
            page(
                "search/index.html",
                &head("Search", "https://www.dealer.com.au/search"),
            ),
            page("about-us/index.html", "<head><title>About</title></head>"),
            page(
                "sign-in/index.html",
                r#"<head><title>Sign in</title><meta name="description" content="d"><meta name="robots" content="noindex"></head>"#,
            ),
            page(
                "404.html",
                &head("Not found", "https://www.dealer.com.au/404.html"),
            ),
            page(
                "x/index.html",
                &format!(
                    r#"{}<script type="application/ld+json">{{oops</script><a onclick="x()">"#,
                    head("X", "https://www.dealer.com.au/x/")
                ),
            ),
        ];
        let found: Vec<String> = check(&pages, ORIGIN)
            .into_iter()
            .map(|p| format!("{}: {}", p.page, p.problem))
            .collect();
        insta::assert_snapshot!(found.join("\n"), @r#"
        /404.html: the not-found page must not name a canonical URL
        /about-us/: no <meta name="description">
        /about-us/: no canonical link (expected https://www.dealer.com.au/about-us/)
        /search/: canonical link is https://www.dealer.com.au/search, expected https://www.dealer.com.au/search/
        /x/: a JSON-LD block is not JSON: key must be a string at line 1 column 2
        /x/: inline event handler `onclick`: the Content-Security-Policy refuses it; use a script file
        "#);
    }

    #[test]
    fn a_page_may_name_another_built_page_as_canonical_never_a_missing_one() {
        let pages = [
            page(
                "contact-us/main/index.html",
                &head("Main", "https://www.dealer.com.au/contact-us/main/"),
            ),
            // The /locations/ twin names its /contact-us/ page.
            page(
                "locations/main/index.html",
                &head("Main", "https://www.dealer.com.au/contact-us/main/"),
            ),
            page(
                "locations/gone/index.html",
                &head("Gone", "https://www.dealer.com.au/contact-us/gone/"),
            ),
        ];
        let found: Vec<String> = check(&pages, ORIGIN)
            .into_iter()
            .map(|p| format!("{}: {}", p.page, p.problem))
            .collect();
        assert_eq!(
            found,
            ["/locations/gone/: canonical link is https://www.dealer.com.au/contact-us/gone/, expected https://www.dealer.com.au/locations/gone/"]
        );
    }

    #[test]
    fn the_sitemap_lists_indexable_pages_only() {
        let pages = [
            page("index.html", &head("Home", "https://www.dealer.com.au/")),
            page(
                "cars/a&b/index.html",
                &head("Car", "https://www.dealer.com.au/cars/a&b/"),
            ),
            page(
                "sign-in/index.html",
                r#"<meta name="robots" content="noindex">"#,
            ),
            page("404.html", "<title>Not found</title>"),
        ];
        let urls = sitemap_urls(&pages, ORIGIN);
        assert_eq!(
            urls,
            [
                "https://www.dealer.com.au/",
                "https://www.dealer.com.au/cars/a&b/"
            ]
        );
        assert!(sitemap(&urls).contains("<loc>https://www.dealer.com.au/cars/a&amp;b/</loc>"));
        assert_eq!(
            robots("https://www.dealer.com.au/"),
            "User-agent: *\nDisallow: /api/\n\nSitemap: https://www.dealer.com.au/sitemap.xml\n"
        );
    }
}
