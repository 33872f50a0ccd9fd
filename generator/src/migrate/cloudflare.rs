//! One request to a built site, answered as Cloudflare serves it: the
//! site worker's script first for the paths `run_worker_first` lists
//! (templates/site-worker/worker.mjs, the older platform's query-string
//! addresses), then the static assets with their `_redirects`
//! (dealer_config::redirect_rules), `html_handling = auto-trailing-slash`
//! and `not_found_handling = 404-page` (rules/vectors/site-worker.json),
//! following workers-sdk's asset worker. A test holds every answer to
//! workerd's own (scripts/e2e/migrate.mjs).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use dealer_config::redirect_rules::{location, RuleSet};

/// Why a request got its answer: the rule that decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rule {
    /// A built file.
    File(String),
    /// A line of `_redirects`.
    Redirects { line: usize, text: String },
    /// The site worker's script.
    SiteWorker(&'static str),
    /// The site worker's script, by one of the dealer's query-string
    /// redirects: its path and its pairs ("make=toyota&body=suv").
    DealerQuery { path: String, query: String },
    /// The assets' trailing-slash handling.
    TrailingSlash,
    /// Nothing: the 404 page.
    NotFound,
}

/// One hop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hop {
    Page,
    Redirect { status: u16, location: String },
    Missing,
}

/// The built site as the CDN holds it.
pub struct Site {
    dist: PathBuf,
    rules: RuleSet,
    /// `_redirects`' lines, for naming a rule.
    lines: Vec<String>,
    /// `/cars/ids.json`: a car id's page and checkout page.
    car_ids: HashMap<String, (String, Option<String>)>,
    /// The paths the site worker's script runs first for.
    worker_first: Vec<String>,
    /// The dealer's query-string redirects (`/query-redirects.json`).
    query_rules: Vec<dealer_config::redirect_rules::QueryRule>,
}

impl Site {
    pub fn open(dist: &Path) -> anyhow::Result<Site> {
        if !dist.join("index.html").is_file() {
            anyhow::bail!(
                "{} is not a built site (no index.html): build the dealer first",
                dist.display()
            );
        }
        let text = std::fs::read_to_string(dist.join("_redirects")).unwrap_or_default();
        let car_ids = match std::fs::read_to_string(dist.join("cars/ids.json")) {
            Ok(t) => {
                let v: serde_json::Value = serde_json::from_str(&t)?;
                v.as_object()
                    .into_iter()
                    .flatten()
                    .filter_map(|(id, c)| {
                        let page = c.get("page")?.as_str()?.to_string();
                        let checkout = c.get("checkout").and_then(|x| x.as_str()).map(String::from);
                        Some((id.clone(), (page, checkout)))
                    })
                    .collect()
            }
            Err(_) => HashMap::new(),
        };
        // The dealer's query-string redirects, read once: the rules and the paths the script runs first for.
        let query_rules = crate::publish::redirects::read_query_table(dist);
        Ok(Site {
            dist: dist.to_path_buf(),
            rules: RuleSet::parse(&text),
            lines: text.split('\n').map(String::from).collect(),
            car_ids,
            worker_first: crate::deploy::configs::worker_first_for(&query_rules),
            query_rules,
        })
    }

    /// The answer to a GET of `path` (as sent: encoded, starting with /)
    /// with `search` ("" or "?…").
    pub fn get(&self, path: &str, search: &str) -> (Hop, Rule) {
        if self.worker_first.iter().any(|p| p == path) {
            if let Some(answer) = self.site_worker(path, search) {
                return answer;
            }
        }
        self.assets(path, search)
    }

    /// The assets binding: `_redirects`, then the files.
    fn assets(&self, path: &str, search: &str) -> (Hop, Rule) {
        if let Some((rule, to)) = self.rules.find(path) {
            let text = self
                .lines
                .get(rule.line - 1)
                .map(|l| l.trim().to_string())
                .unwrap_or_default();
            let decided = Rule::Redirects {
                line: rule.line,
                text,
            };
            if rule.status == 200 {
                let rewritten = to.split(['?', '#']).next().unwrap_or("/").to_string();
                return (self.asset(&rewritten, search).0, decided);
            }
            return (
                Hop::Redirect {
                    status: rule.status,
                    location: location(&to, search),
                },
                decided,
            );
        }
        self.asset(path, search)
    }

    /// templates/site-worker/worker.mjs `legacyAnswer`: null there is
    /// None here (the assets answer).
    fn site_worker(&self, path: &str, search: &str) -> Option<(Hop, Rule)> {
        // The dealer's own first (worker.mjs `queryAnswer`).
        if let Some(r) =
            dealer_config::redirect_rules::find_query_rule(&self.query_rules, path, search)
        {
            return Some((
                Hop::Redirect {
                    status: r.status,
                    location: r.to.clone(),
                },
                Rule::DealerQuery {
                    path: r.path.clone(),
                    query: r
                        .query
                        .iter()
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                        .join("&"),
                },
            ));
        }
        // The first value of a repeated name, as URLSearchParams.get reads it.
        let mut query: HashMap<String, String> = HashMap::new();
        for (k, v) in url::form_urlencoded::parse(search.trim_start_matches('?').as_bytes()) {
            query
                .entry(k.into_owned())
                .or_insert_with(|| v.into_owned());
        }
        let go = |to: String, why: &'static str| {
            Some((
                Hop::Redirect {
                    status: 301,
                    location: to,
                },
                Rule::SiteWorker(why),
            ))
        };
        if path == "/models" {
            if self.assets("/models/", "").0 != Hop::Page {
                // No models page (the script's HEAD, redirect: 'manual',
                // is not a 200): the assets and their _redirects answer.
                return None;
            }
            // The script's body slug: lower-cased (as JavaScript does), then kebab case.
            let body = dealer_config::slug::kebab(
                &query
                    .get("body")
                    .map(String::as_str)
                    .unwrap_or("")
                    .to_lowercase(),
            );
            let to = if body.is_empty() {
                "/models/".to_string()
            } else {
                format!("/models/#{body}")
            };
            return go(to, "/models?body= goes to the models page");
        }
        let bare = path.trim_end_matches('/');
        let checkout = bare == "/checkout-journey";
        if !checkout && bare != "/print" {
            return None;
        }
        let wanted = query.get("car_id").map(|s| s.trim()).unwrap_or("");
        let why = if checkout {
            "/checkout-journey?car_id= goes to the car's checkout"
        } else {
            "/print?car_id= goes to the car's page"
        };
        let car = self.find_car(wanted);
        match car {
            None => go("/search/".into(), why),
            Some((page, car_checkout)) => go(
                if checkout {
                    car_checkout.unwrap_or(page)
                } else {
                    page
                },
                why,
            ),
        }
    }

    fn find_car(&self, wanted: &str) -> Option<(String, Option<String>)> {
        if wanted.is_empty() || wanted.chars().count() > 200 {
            return None;
        }
        if let Some(c) = self.car_ids.get(wanted) {
            return Some(c.clone());
        }
        let slug_like = wanted.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
            && wanted
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        let page = format!("/cars/{wanted}/");
        (slug_like && self.reaches_a_page(&page)).then_some((page, None))
    }

    /// Whether the assets binding's fetch of `path` (which follows
    /// redirects) ends at a page: the script's HEAD of a car's page.
    fn reaches_a_page(&self, path: &str) -> bool {
        let mut at = path.to_string();
        for _ in 0..=super::MAX_HOPS {
            match self.assets(&at, "").0 {
                Hop::Page => return true,
                Hop::Missing => return false,
                Hop::Redirect { location, .. } if !location.contains("://") => {
                    at = location.split(['?', '#']).next().unwrap_or("/").to_string();
                }
                Hop::Redirect { .. } => return false,
            }
        }
        false
    }

    /// The static assets: auto-trailing-slash, then the 404 page.
    fn asset(&self, path: &str, search: &str) -> (Hop, Rule) {
        let decoded = decode(path);
        let file = decoded.trim_start_matches('/');
        let slash = |to: String| {
            (
                Hop::Redirect {
                    status: 307,
                    location: format!("{}{search}", encode(&to)),
                },
                Rule::TrailingSlash,
            )
        };
        let page = |f: String| (Hop::Page, Rule::File(f));
        if let Some(dir) = decoded.strip_suffix("/index.html") {
            if self.is_file(file) {
                return slash(format!("{dir}/"));
            }
        } else if let Some(dir) = decoded.strip_suffix("/index") {
            if self.is_file(file) {
                return page(file.to_string());
            }
            if self.is_file(&format!("{file}.html"))
                || self.is_file(&format!("{}index.html", file.trim_end_matches("index")))
            {
                return slash(format!("{dir}/"));
            }
        } else if decoded.ends_with('/') {
            let index = format!("{file}index.html");
            if self.is_file(&index) {
                return page(index);
            }
            let html = format!("{}.html", file.trim_end_matches('/'));
            if !file.is_empty() && self.is_file(&html) {
                return slash(decoded.trim_end_matches('/').to_string());
            }
        } else if let Some(stem) = decoded.strip_suffix(".html") {
            if self.is_file(file) {
                return slash(stem.to_string());
            }
        }
        if !decoded.ends_with('/') {
            if self.is_file(file) {
                return page(file.to_string());
            }
            if self.is_file(&format!("{file}.html")) {
                return page(format!("{file}.html"));
            }
            if self.is_file(&format!("{file}/index.html")) {
                return slash(format!("{decoded}/"));
            }
        }
        (Hop::Missing, Rule::NotFound)
    }

    fn is_file(&self, relative: &str) -> bool {
        !relative.split('/').any(|s| s == "..") && self.dist.join(relative).is_file()
    }
}

/// Each segment percent-decoded (a bad escape stays as it is), repeated slashes one.
fn decode(path: &str) -> String {
    let joined = path
        .split('/')
        .map(|s| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8()
                .map(|c| c.into_owned())
                .unwrap_or_else(|_| s.to_string())
        })
        .collect::<Vec<_>>()
        .join("/");
    let mut out = String::with_capacity(joined.len());
    for c in joined.chars() {
        if !(c == '/' && out.ends_with('/')) {
            out.push(c);
        }
    }
    out
}

/// Each segment as `encodeURIComponent` writes it.
fn encode(path: &str) -> String {
    const COMPONENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'_')
        .remove(b'.')
        .remove(b'!')
        .remove(b'~')
        .remove(b'*')
        .remove(b'\'')
        .remove(b'(')
        .remove(b')');
    path.split('/')
        .map(|s| percent_encoding::utf8_percent_encode(s, COMPONENT).to_string())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(files: &[(&str, &str)]) -> (tempfile::TempDir, Site) {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let p = dir.path().join(name);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        let s = Site::open(dir.path()).unwrap();
        (dir, s)
    }

    #[test]
    fn pages_slashes_redirects_and_the_404_page() {
        let (_d, s) = site(&[
            ("index.html", "home"),
            ("404.html", "gone"),
            ("about-us/index.html", "about"),
            (
                "_redirects",
                "/contact /contact-us/ 301\n/news/* /about-us/ 301\n",
            ),
            ("contact-us/index.html", "c"),
            ("robots.txt", "r"),
        ]);
        assert_eq!(s.get("/about-us/", "").0, Hop::Page);
        assert_eq!(
            s.get("/about-us", "?a=1"),
            (
                Hop::Redirect {
                    status: 307,
                    location: "/about-us/?a=1".into()
                },
                Rule::TrailingSlash
            )
        );
        assert_eq!(
            s.get("/about-us/index.html", "").0,
            Hop::Redirect {
                status: 307,
                location: "/about-us/".into()
            }
        );
        assert_eq!(s.get("/robots.txt", "").0, Hop::Page);
        let (hop, rule) = s.get("/contact", "?x=1");
        assert_eq!(
            hop,
            Hop::Redirect {
                status: 301,
                location: "/contact-us/?x=1".into()
            }
        );
        assert_eq!(
            rule,
            Rule::Redirects {
                line: 1,
                text: "/contact /contact-us/ 301".into()
            }
        );
        assert_eq!(
            s.get("/news/2019/a", "").0,
            Hop::Redirect {
                status: 301,
                location: "/about-us/".into()
            }
        );
        assert_eq!(s.get("/nothing/", ""), (Hop::Missing, Rule::NotFound));
        assert_eq!(s.get("/../etc/passwd", "").0, Hop::Missing);
    }

    #[test]
    fn the_dealers_query_string_redirects_come_first_for_their_paths_only() {
        let table = crate::publish::redirects::query_table(&[
            dealer_config::redirect_rules::QueryRule {
                path: "/used-cars".into(),
                query: vec![("make".into(), "kia".into())],
                to: "/search/kia/".into(),
                status: 302,
            },
            dealer_config::redirect_rules::QueryRule {
                path: "/print".into(),
                query: vec![("car_id".into(), "7".into())],
                to: "/about-us/".into(),
                status: 301,
            },
        ]);
        let (_d, s) = site(&[
            ("index.html", "home"),
            ("search/kia/index.html", "kia"),
            ("about-us/index.html", "about"),
            ("query-redirects.json", &table.to_string()),
        ]);
        assert!(s.worker_first.iter().any(|p| p == "/used-cars/"));
        assert_eq!(
            s.get("/used-cars/", "?utm_source=x&make=kia"),
            (
                Hop::Redirect {
                    status: 302,
                    location: "/search/kia/".into()
                },
                Rule::DealerQuery {
                    path: "/used-cars".into(),
                    query: "make=kia".into()
                }
            )
        );
        // Another make: no rule of the dealer's, no page: the 404 page.
        assert_eq!(
            s.get("/used-cars", "?make=mazda"),
            (Hop::Missing, Rule::NotFound)
        );
        // The dealer's rule before the platform's for the same address.
        assert_eq!(
            s.get("/print", "?car_id=7").0,
            Hop::Redirect {
                status: 301,
                location: "/about-us/".into()
            }
        );
    }

    #[test]
    fn the_site_workers_query_string_addresses() {
        let (_d, s) = site(&[
            ("index.html", "home"),
            ("models/index.html", "m"),
            ("cars/kia-7/index.html", "car"),
            (
                "cars/ids.json",
                r#"{"7":{"page":"/cars/kia-7/","checkout":"/cars/kia-7/checkout/"}}"#,
            ),
        ]);
        let to = |path: &str, q: &str| match s.get(path, q).0 {
            Hop::Redirect { location, .. } => location,
            other => panic!("{other:?}"),
        };
        assert_eq!(to("/models", "?body=Small%20SUV"), "/models/#small-suv");
        assert_eq!(to("/print", "?car_id=7"), "/cars/kia-7/");
        assert_eq!(to("/print/", "?car_id=kia-7"), "/cars/kia-7/");
        assert_eq!(
            to("/checkout-journey", "?car_id=7"),
            "/cars/kia-7/checkout/"
        );
        assert_eq!(to("/checkout-journey", "?car_id=9"), "/search/");
        let (_d, none) = site(&[
            ("index.html", "home"),
            ("_redirects", "/models /search/ 301\n"),
        ]);
        assert!(
            matches!(none.get("/models", "?body=suv").1, Rule::Redirects { .. }),
            "no models page: the assets answer"
        );
    }
}
