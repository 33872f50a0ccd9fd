//! `dealergen migrate-check`: a dealer's old addresses asked of its built
//! site as Cloudflare will answer them (`cloudflare`): each one a page, a
//! redirect to a page (in how many hops), or missing, with the rule that
//! decided. docs/migrating.md is the guide.

pub mod addresses;
pub mod cloudflare;

use cloudflare::{Hop, Rule, Site};
use serde::Serialize;

/// Hops followed before an address counts as a redirect loop.
pub const MAX_HOPS: usize = 10;

/// What an old address gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Answer {
    Page,
    Redirect,
    Missing,
}

/// One old address and its answer (the JSON format's element).
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    /// The address as the list has it.
    pub url: String,
    pub answer: Answer,
    /// Where the redirects end (a site path, or a URL off the site); for a
    /// missing address, the last address asked (none when the address itself is missing).
    pub to: Option<String>,
    /// The rule that decided the first answer.
    pub rule: String,
    /// Redirects followed (0 for a page, or an address missing itself).
    pub hops: usize,
    /// Each hop's status and Location.
    pub chain: Vec<String>,
    /// The rule of each answer on the way (the first is `rule`).
    pub rules: Vec<String>,
    /// Missing, but the dealer's `migration.accept_missing` lets it be.
    pub accepted: bool,
}

/// Asks `site` for `path_and_query` (a site path with its query) and
/// follows its redirects on the site.
pub fn resolve(site: &Site, url: &str, path_and_query: &str, dealer_rules: &[String]) -> Finding {
    let (mut path, mut search) = split(path_and_query);
    let mut chain = Vec::new();
    let mut first_rule = None;
    let mut rules = Vec::new();
    // The last Location, as sent (with its #fragment).
    let mut last = String::new();
    for _ in 0..=MAX_HOPS {
        let (hop, rule) = site.get(&path, &search);
        rules.push(describe(&rule, dealer_rules));
        first_rule.get_or_insert_with(|| rules[0].clone());
        match hop {
            Hop::Page => {
                let answer = if chain.is_empty() {
                    Answer::Page
                } else {
                    Answer::Redirect
                };
                let to = (!chain.is_empty()).then_some(last);
                return finding(url, answer, to, first_rule, (chain, rules));
            }
            Hop::Missing => {
                let to = (!chain.is_empty()).then_some(last);
                return finding(url, Answer::Missing, to, first_rule, (chain, rules));
            }
            Hop::Redirect { status, location } => {
                chain.push(format!("{status} {location}"));
                if location.contains("://") {
                    // Off the site: what answers there is not this site's to say.
                    return finding(
                        url,
                        Answer::Redirect,
                        Some(location),
                        first_rule,
                        (chain, rules),
                    );
                }
                let without_hash = location.split('#').next().unwrap_or("/");
                (path, search) = split(without_hash);
                last = location;
            }
        }
    }
    let rule = format!("a redirect loop: more than {MAX_HOPS} hops");
    finding(
        url,
        Answer::Missing,
        Some(format!("{path}{search}")),
        Some(rule),
        (chain, rules),
    )
}

fn finding(
    url: &str,
    answer: Answer,
    to: Option<String>,
    rule: Option<String>,
    (chain, rules): (Vec<String>, Vec<String>),
) -> Finding {
    Finding {
        url: url.to_string(),
        answer,
        to,
        rule: rule.unwrap_or_default(),
        hops: chain.len(),
        chain,
        rules,
        accepted: false,
    }
}

fn split(path_and_query: &str) -> (String, String) {
    match path_and_query.find('?') {
        Some(i) => (
            path_and_query[..i].to_string(),
            path_and_query[i..].to_string(),
        ),
        None => (path_and_query.to_string(), String::new()),
    }
}

/// The rule in words; a `_redirects` line that is one of the dealer's
/// own redirects names it (`redirects[i]`).
fn describe(rule: &Rule, dealer_rules: &[String]) -> String {
    match rule {
        Rule::File(f) => format!("page {f}"),
        Rule::Redirects { line, text } => {
            let from = text.split_whitespace().next().unwrap_or("");
            match dealer_rules.iter().position(|d| d == from) {
                Some(i) => {
                    format!("dealer redirect redirects[{i}] (_redirects line {line}: {text})")
                }
                None => format!("_redirects line {line}: {text}"),
            }
        }
        Rule::SiteWorker(why) => format!("site worker: {why}"),
        Rule::DealerQuery { path, query } => {
            let written = |d: &String| match dealer_config::redirect_rules::query_from(d) {
                Some(Ok((p, pairs))) => {
                    p == *path
                        && pairs
                            .iter()
                            .map(|(k, v)| format!("{k}={v}"))
                            .collect::<Vec<_>>()
                            .join("&")
                            == *query
                }
                _ => false,
            };
            match dealer_rules.iter().position(written) {
                Some(i) => format!("dealer redirect redirects[{i}] (site worker: {path}?{query})"),
                None => format!("site worker: {path}?{query}"),
            }
        }
        Rule::TrailingSlash => "the CDN adds the page's trailing slash".into(),
        Rule::NotFound => "no page, redirect or rule: the 404 page".into(),
    }
}

/// A dealer's built site, asked as `migrate-check` and `explain --address` ask it.
pub struct Checker {
    site: Site,
    /// The `from` of each of the dealer's `redirects`, to name them.
    dealer_rules: Vec<String>,
    accept_missing: Vec<String>,
}

impl Checker {
    /// The built site in `dist` of `dealer` (an error saying to build it first).
    pub fn open(
        dist: &std::path::Path,
        dealer: &dealer_config::LoadedDealer,
    ) -> anyhow::Result<Self> {
        use anyhow::Context;
        let site = Site::open(dist)
            .with_context(|| format!("dealergen build --dealer {}", dealer.slug))?;
        Ok(Checker {
            site,
            dealer_rules: dealer
                .config
                .redirects
                .iter()
                .map(|r| r.from.clone())
                .collect(),
            accept_missing: dealer.config.migration.accept_missing.clone(),
        })
    }

    /// The answer to one address (`url` as listed, its path and query).
    pub fn check(&self, url: &str, path_and_query: &str) -> Finding {
        let mut f = resolve(&self.site, url, path_and_query, &self.dealer_rules);
        let path = path_and_query.split('?').next().unwrap_or("");
        f.accepted = f.answer == Answer::Missing && accepted_missing(path, &self.accept_missing);
        f
    }
}

/// Whether `path` is one the dealer accepts as missing (`/x` exactly, or
/// a prefix ending in `*`).
pub fn accepted_missing(path: &str, accept: &[String]) -> bool {
    accept.iter().any(|a| match a.strip_suffix('*') {
        Some(prefix) => path.starts_with(prefix),
        None => a == path,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepted_addresses_are_exact_or_a_prefix() {
        let accept = ["/old-promo".to_string(), "/wp-content/*".to_string()];
        assert!(accepted_missing("/old-promo", &accept));
        assert!(!accepted_missing("/old-promo/", &accept));
        assert!(accepted_missing("/wp-content/uploads/a.jpg", &accept));
        assert!(!accepted_missing("/wp-admin/", &accept));
    }

    #[test]
    fn redirects_are_followed_to_their_page_and_loops_stop() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| {
            let p = dir.path().join(name);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        };
        write("index.html", "home");
        write("about-us/index.html", "about");
        write(
            "_redirects",
            "/diamond /about-us 301\n/a /b 301\n/b /a 301\n/gone /nowhere/ 301\n",
        );
        let site = Site::open(dir.path()).unwrap();
        let f = resolve(
            &site,
            "https://old.example/diamond?x=1",
            "/diamond?x=1",
            &["/diamond".into()],
        );
        assert_eq!(
            (f.answer, f.hops, f.to.as_deref()),
            (Answer::Redirect, 2, Some("/about-us/?x=1"))
        );
        assert_eq!(f.chain, ["301 /about-us?x=1", "307 /about-us/?x=1"]);
        assert!(
            f.rule.starts_with("dealer redirect redirects[0]"),
            "{}",
            f.rule
        );
        let page = resolve(&site, "/about-us/", "/about-us/", &[]);
        assert_eq!((page.answer, page.hops, page.to), (Answer::Page, 0, None));
        let looped = resolve(&site, "/a", "/a", &[]);
        assert_eq!(looped.answer, Answer::Missing);
        assert!(looped.rule.contains("loop"), "{}", looped.rule);
        let gone = resolve(&site, "/gone", "/gone", &[]);
        assert_eq!(
            (gone.answer, gone.to.as_deref(), gone.hops),
            (Answer::Missing, Some("/nowhere/"), 1)
        );
        let missing = resolve(&site, "/x", "/x", &[]);
        assert_eq!((missing.answer, missing.hops), (Answer::Missing, 0));
        assert_eq!(missing.rule, "no page, redirect or rule: the 404 page");
    }
}
