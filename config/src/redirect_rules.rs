//! Cloudflare's `_redirects` as its asset worker reads and applies them
//! (workers-sdk `parseRedirects`, `constructRedirects` and the rules
//! engine, read in the wrangler the project runs): one rule a line, `from
//! to [status]`, the status 302 unless given; the first rule for a `from`
//! wins; rules without `*` or `:name` before the first one with are
//! static (matched exactly, at most 2,000), the rest dynamic (matched in
//! order, at most 100: the lines after the 100th are dropped); `*` is a
//! splat (`:splat` in `to`), `:name` one path segment. A relative target
//! keeps the request's query string unless it has its own.
//!
//! The dealer's `redirects` are checked with it (config/src/check/redirects.rs),
//! the generator writes and counts the site's rules with it, and
//! `dealergen migrate-check` answers an old address with it exactly as the
//! CDN will.

use std::collections::HashMap;

/// Static rules a site may have (the CDN ignores the rest).
pub const MAX_STATIC: usize = 2_000;
/// Dynamic rules (`*` or `:name` in `from`) a site may have.
pub const MAX_DYNAMIC: usize = 100;
/// Characters of one line.
pub const MAX_LINE: usize = 1_000;
/// The statuses the CDN accepts (200 rewrites, the others redirect).
pub const STATUSES: [u16; 6] = [200, 301, 302, 303, 307, 308];

/// One rule as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub from: String,
    pub to: String,
    pub status: u16,
    /// 1-based line in the file.
    pub line: usize,
}

/// Whether `from` matches many paths: a `*`, or a `:name` placeholder.
pub fn is_dynamic(from: &str) -> bool {
    from.contains('*') || !placeholders(from).is_empty()
}

/// The name of the `:name` placeholder `s` starts with (a colon, a
/// letter, then letters, digits and underscores), if it starts with one.
fn placeholder_at(s: &str) -> Option<&str> {
    let name = s.strip_prefix(':')?;
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    let end = name
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(name.len());
    Some(&name[..end])
}

/// The `:name` placeholders of a pattern, in order.
pub fn placeholders(pattern: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = pattern;
    while let Some(i) = rest.find(':') {
        match placeholder_at(&rest[i..]) {
            Some(name) => {
                out.push(name);
                rest = &rest[i + 1 + name.len()..];
            }
            None => rest = &rest[i + 1..],
        }
    }
    out
}

/// The site path a target names: without its query string or #fragment.
pub fn target_path(to: &str) -> &str {
    &to[..to.find(['?', '#']).unwrap_or(to.len())]
}

/// A line the CDN ignores, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ignored {
    pub line: usize,
    pub why: String,
}

/// A `_redirects` file as the CDN holds it.
#[derive(Debug, Clone, Default)]
pub struct RuleSet {
    statics: HashMap<String, Rule>,
    dynamic: Vec<(Pattern, Rule)>,
    /// Lines the CDN skips (too long, malformed, over a limit, a repeat).
    pub ignored: Vec<Ignored>,
    /// Static and dynamic rules kept.
    pub counts: (usize, usize),
}

impl RuleSet {
    pub fn parse(text: &str) -> Self {
        let mut set = RuleSet::default();
        let mut seen: std::collections::HashSet<String> = Default::default();
        let (mut statics, mut dynamics) = (0usize, 0usize);
        let mut static_allowed = true;
        let ignore = |set: &mut RuleSet, line: usize, why: String| {
            set.ignored.push(Ignored { line, why });
        };
        let lines: Vec<&str> = text.split('\n').collect();
        for (i, raw) in lines.iter().enumerate() {
            let line_no = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if line.len() > MAX_LINE {
                ignore(
                    &mut set,
                    line_no,
                    format!("longer than {MAX_LINE} characters"),
                );
                continue;
            }
            let mut tokens: Vec<&str> = line.split_whitespace().collect();
            if let Some(c) = tokens
                .iter()
                .enumerate()
                .position(|(k, t)| k >= 2 && t.starts_with('#'))
            {
                tokens.truncate(c);
            }
            if !(2..=3).contains(&tokens.len()) {
                ignore(
                    &mut set,
                    line_no,
                    format!("{} fields, not 2 or 3", tokens.len()),
                );
                continue;
            }
            let (from, to) = (tokens[0], tokens[1]);
            if !from.starts_with('/') && !from.starts_with("https://") {
                ignore(&mut set, line_no, format!("`{from}` is not a path"));
                continue;
            }
            let dynamic = !static_allowed || is_dynamic(from);
            if dynamic {
                dynamics += 1;
                static_allowed = false;
                if dynamics > MAX_DYNAMIC {
                    ignore(
                        &mut set,
                        line_no,
                        format!(
                            "over {MAX_DYNAMIC} dynamic rules: this line and the {} after it are dropped",
                            lines.len() - line_no
                        ),
                    );
                    break;
                }
            } else {
                statics += 1;
                if statics > MAX_STATIC {
                    ignore(&mut set, line_no, format!("over {MAX_STATIC} static rules"));
                    continue;
                }
            }
            let status = match tokens.get(2).map(|s| s.parse::<u16>()) {
                None => 302,
                Some(Ok(s)) if STATUSES.contains(&s) => s,
                Some(_) => {
                    ignore(
                        &mut set,
                        line_no,
                        format!("status `{}` is not one the CDN accepts", tokens[2]),
                    );
                    continue;
                }
            };
            if !seen.insert(from.to_string()) {
                ignore(
                    &mut set,
                    line_no,
                    format!("a second rule for `{from}` (the first one wins)"),
                );
                continue;
            }
            let rule = Rule {
                from: from.to_string(),
                to: to.to_string(),
                status,
                line: line_no,
            };
            if dynamic {
                set.dynamic.push((Pattern::new(from), rule));
            } else {
                set.statics.insert(from.to_string(), rule);
            }
        }
        set.counts = (set.statics.len(), set.dynamic.len());
        set
    }

    /// The rule for a request's `pathname` (as the URL has it, encoded)
    /// and its target with the placeholders filled in.
    pub fn find(&self, pathname: &str) -> Option<(&Rule, String)> {
        if let Some(rule) = self.statics.get(pathname) {
            return Some((rule, rule.to.clone()));
        }
        self.dynamic.iter().find_map(|(pattern, rule)| {
            let groups = pattern.captures(pathname)?;
            Some((rule, fill(&rule.to, &groups)))
        })
    }
}

/// The `Location` of a redirect to `target` (filled in) of a request with
/// `search` ("" or "?…"): a relative target's repeated slashes collapse,
/// and it keeps the request's query string unless it has its own.
pub fn location(target: &str, search: &str) -> String {
    let external = target.contains("://");
    if external {
        // As `new URL(target).href` writes it (an empty path is "/"), the
        // request's query string when the target has none.
        if let Ok(mut url) = url::Url::parse(target) {
            let hash = url.fragment().map(|f| format!("#{f}")).unwrap_or_default();
            url.set_fragment(None);
            if url.query().is_none_or(str::is_empty) {
                url.set_query(None);
                return format!("{url}{search}{hash}");
            }
            return format!("{url}{hash}");
        }
    }
    let (rest, hash) = match target.find('#') {
        Some(i) => target.split_at(i),
        None => (target, ""),
    };
    let (path, own_search) = match rest.find('?') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let path = if external {
        path.to_string()
    } else {
        let mut out = String::with_capacity(path.len());
        for c in path.chars() {
            if !(c == '/' && out.ends_with('/')) {
                out.push(c);
            }
        }
        out
    };
    let query = if own_search.len() > 1 {
        own_search
    } else {
        search
    };
    format!("{path}{query}{hash}")
}

/// `to` with each `:name` replaced by its capture (unknown names stay).
fn fill(to: &str, groups: &[(String, String)]) -> String {
    let mut out = String::with_capacity(to.len());
    let mut rest = to;
    while let Some(i) = rest.find(':') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let name = placeholder_at(&rest[i..]);
        match name.and_then(|n| groups.iter().find(|(k, _)| k == n).map(|(_, v)| (n, v))) {
            Some((n, value)) => {
                out.push_str(value);
                rest = &after[n.len()..];
            }
            None => {
                out.push(':');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out.trim().to_string()
}

/// A `from` pattern: literal text, `*` (anything, the splat) and `:name`
/// (one segment: anything but `/`), anchored at both ends.
#[derive(Debug, Clone)]
enum Part {
    Text(String),
    Splat,
    Segment(String),
}

#[derive(Debug, Clone)]
struct Pattern(Vec<Part>);

impl Pattern {
    fn new(from: &str) -> Self {
        let mut parts = Vec::new();
        let mut text = String::new();
        let mut rest = from;
        while let Some(c) = rest.chars().next() {
            if c == '*' {
                parts.push(Part::Text(std::mem::take(&mut text)));
                parts.push(Part::Splat);
                rest = &rest[1..];
            } else if c == ':' {
                if let Some(name) = placeholder_at(rest) {
                    parts.push(Part::Text(std::mem::take(&mut text)));
                    parts.push(Part::Segment(name.to_string()));
                    rest = &rest[1 + name.len()..];
                    continue;
                }
                text.push(c);
                rest = &rest[1..];
            } else {
                text.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
        parts.push(Part::Text(text));
        parts.retain(|p| !matches!(p, Part::Text(t) if t.is_empty()));
        Pattern(parts)
    }

    /// The named captures (`splat` for `*`) when `path` matches. Like the
    /// CDN's regular expression (`.*` greedy, `[^/]+` a segment), tried
    /// with backtracking.
    fn captures(&self, path: &str) -> Option<Vec<(String, String)>> {
        let mut out = Vec::new();
        matches(&self.0, path, &mut out).then_some(out)
    }
}

fn matches(parts: &[Part], path: &str, out: &mut Vec<(String, String)>) -> bool {
    let Some((first, rest)) = parts.split_first() else {
        return path.is_empty();
    };
    match first {
        Part::Text(t) => path
            .strip_prefix(t.as_str())
            .is_some_and(|p| matches(rest, p, out)),
        Part::Splat | Part::Segment(_) => {
            let (name, limit) = match first {
                Part::Splat => ("splat", path.len()),
                Part::Segment(n) => (n.as_str(), path.find('/').unwrap_or(path.len())),
                Part::Text(_) => unreachable!(),
            };
            let least = usize::from(matches!(first, Part::Segment(_)));
            // Greedy: the longest capture that lets the rest match.
            for end in (least..=limit).rev() {
                if !path.is_char_boundary(end) {
                    continue;
                }
                let mark = out.len();
                out.push((name.to_string(), path[..end].to_string()));
                if matches(rest, &path[end..], out) {
                    return true;
                }
                out.truncate(mark);
            }
            false
        }
    }
}

/// Most query-string redirects a dealer may write: each one's path makes
/// the site worker's script run before the assets for that path.
pub const MAX_QUERY: usize = 100;

/// A redirect whose old address carries its meaning in the query string
/// (`/used-cars?make=toyota`): the CDN's `_redirects` matches paths only,
/// so the site worker's script answers it (templates/site-worker/worker.mjs
/// `queryAnswer`, from the site's `/query-redirects.json`). It matches a
/// request for its path (with or without the trailing slash) whose query
/// has every one of its name=value pairs (other names may come too); the
/// first such rule in the dealer's order decides. The request's own query
/// is not passed on: it was the old address's meaning.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct QueryRule {
    /// The path without its trailing slash ("/used-cars").
    pub path: String,
    /// The name=value pairs, decoded, in the order written.
    pub query: QueryPairs,
    pub to: String,
    pub status: u16,
}

/// A query-string address's name=value pairs, decoded, in the order written.
pub type QueryPairs = Vec<(String, String)>;

/// Splits a `from` with a query string into its path and pairs; None for
/// a `from` without one. Err says what is wrong with one that has one: a
/// pattern in the path, an empty query, a pair without `=`, a name twice.
pub fn query_from(from: &str) -> Option<Result<(String, QueryPairs), String>> {
    let (path, query) = from.split_once('?')?;
    if is_dynamic(path) {
        return Some(Err(format!(
            "`{from}` has a query string after a pattern: only a plain path may carry one"
        )));
    }
    if query.is_empty() {
        return Some(Err(format!("`{from}` ends in `?` with nothing after it")));
    }
    let mut pairs: Vec<(String, String)> = Vec::new();
    for part in query.split('&') {
        let Some((name, _)) = part.split_once('=') else {
            return Some(Err(format!("`{from}`: `{part}` is not a name=value pair")));
        };
        if name.is_empty() {
            return Some(Err(format!("`{from}`: `{part}` has no name")));
        }
        let (name, value) = url::form_urlencoded::parse(part.as_bytes())
            .next()
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .unwrap_or_default();
        if pairs.iter().any(|(n, _)| *n == name) {
            return Some(Err(format!("`{from}` names `{name}` twice")));
        }
        pairs.push((name, value));
    }
    let path = match path.trim_end_matches('/') {
        "" => "/".to_string(),
        p => p.to_string(),
    };
    Some(Ok((path, pairs)))
}

/// Whether a request's query (`search`: "" or "?…") has every pair of
/// `rule` (a name given several times matches on any of its values, as
/// `URLSearchParams.getAll` reads them).
pub fn query_matches(rule: &[(String, String)], search: &str) -> bool {
    let got: Vec<(String, String)> =
        url::form_urlencoded::parse(search.trim_start_matches('?').as_bytes())
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
    rule.iter()
        .all(|(name, value)| got.iter().any(|(k, v)| k == name && v == value))
}

/// The first rule of `rules` that answers `path` with `search`.
pub fn find_query_rule<'a>(
    rules: &'a [QueryRule],
    path: &str,
    search: &str,
) -> Option<&'a QueryRule> {
    let bare = match path.trim_end_matches('/') {
        "" => "/",
        p => p,
    };
    rules
        .iter()
        .find(|r| r.path == bare && query_matches(&r.query, search))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn static_rules_match_exactly_and_the_first_for_a_path_wins() {
        let set = RuleSet::parse("# c\n/a /b 301\n/a /c 301\n/d /e\n");
        assert_eq!(set.find("/a").unwrap().1, "/b");
        assert_eq!(set.find("/a/"), None, "paths match as written");
        assert_eq!(set.find("/d").unwrap().0.status, 302, "302 unless given");
        assert_eq!(set.ignored.len(), 1);
        assert!(set.ignored[0].why.contains("first one wins"));
    }

    #[test]
    fn splats_and_placeholders_fill_the_target() {
        let set = RuleSet::parse(
            "/news/* /blog/:splat 301\n/team/:person/ /about-us/#:person 301\n/x/:a/:b /y/:b/:a 302\n",
        );
        assert_eq!(set.find("/news/2019/a").unwrap().1, "/blog/2019/a");
        assert_eq!(set.find("/news/").unwrap().1, "/blog/");
        assert_eq!(set.find("/team/jo/").unwrap().1, "/about-us/#jo");
        assert_eq!(
            set.find("/team/jo/x/"),
            None,
            "a placeholder is one segment"
        );
        assert_eq!(set.find("/team//"), None, "and never empty");
        assert_eq!(set.find("/x/1/2").unwrap().1, "/y/2/1");
        assert_eq!(set.counts, (0, 3));
    }

    #[test]
    fn after_the_first_dynamic_rule_every_rule_is_dynamic_and_the_limits_hold() {
        let mut text = String::from("/s /t 301\n/d/* /t 301\n/late /t 301\n");
        for i in 0..MAX_DYNAMIC {
            text.push_str(&format!("/more-{i}/* /t 301\n"));
        }
        text.push_str("/never /t 301\n");
        let set = RuleSet::parse(&text);
        assert_eq!(set.counts, (1, MAX_DYNAMIC));
        assert!(
            set.find("/late").is_some(),
            "matched in order among the dynamic ones"
        );
        assert!(set.find("/never").is_none());
        assert!(set.ignored.last().unwrap().why.contains("dropped"));
        let statics: String = (0..=MAX_STATIC)
            .map(|i| format!("/s{i} /t 301\n"))
            .collect();
        let set = RuleSet::parse(&statics);
        assert_eq!(set.counts, (MAX_STATIC, 0));
        assert!(set.find(&format!("/s{MAX_STATIC}")).is_none());
    }

    #[test]
    fn a_target_keeps_the_query_unless_it_has_its_own() {
        assert_eq!(location("/search/", "?make=kia"), "/search/?make=kia");
        assert_eq!(location("/search/?a=1", "?make=kia"), "/search/?a=1");
        assert_eq!(location("//a//b/#h", ""), "/a/b/#h");
        assert_eq!(
            location("https://x.example//a", "?q"),
            "https://x.example//a?q"
        );
        assert_eq!(
            location("https://blog.example.com.au", ""),
            "https://blog.example.com.au/"
        );
        assert_eq!(
            location("https://x.example/a?b=1#c", "?q"),
            "https://x.example/a?b=1#c"
        );
    }

    #[test]
    fn malformed_lines_are_ignored_with_a_reason() {
        let set = RuleSet::parse("/a\n/b /c 418\n/d /e 301 extra\n/f /g 301 # a comment\n");
        assert_eq!(
            set.ignored.iter().map(|i| i.line).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        assert_eq!(set.find("/f").unwrap().1, "/g");
        assert_eq!(placeholders("/a/:b_1/:2/:c"), ["b_1", "c"]);
    }

    #[test]
    fn a_query_string_address_matches_its_path_and_its_pairs() {
        use super::{find_query_rule, query_from, QueryRule};
        let (path, query) = query_from("/used-cars/?make=toyota&body=SUV%20%26%20wagon")
            .unwrap()
            .unwrap();
        assert_eq!(path, "/used-cars");
        assert_eq!(
            query,
            [
                ("make".into(), "toyota".into()),
                ("body".into(), "SUV & wagon".into())
            ]
        );
        let rules = [
            QueryRule {
                path,
                query,
                to: "/search/toyota/suvs/".into(),
                status: 301,
            },
            QueryRule {
                path: "/used-cars".into(),
                query: vec![("make".into(), "toyota".into())],
                to: "/search/toyota/".into(),
                status: 302,
            },
        ];
        let to =
            |path: &str, search: &str| find_query_rule(&rules, path, search).map(|r| r.to.as_str());
        assert_eq!(
            to("/used-cars", "?body=SUV+%26+wagon&make=toyota&utm_source=x"),
            Some("/search/toyota/suvs/")
        );
        assert_eq!(to("/used-cars/", "?make=toyota"), Some("/search/toyota/"));
        assert_eq!(
            to("/used-cars", "?make=toyota&make=kia"),
            Some("/search/toyota/")
        );
        assert_eq!(
            to("/used-cars", "?make=Toyota"),
            None,
            "values are matched as written"
        );
        assert_eq!(to("/used-cars", ""), None);
        assert_eq!(to("/used-carsx", "?make=toyota"), None);
        assert!(query_from("/diamond-advantage").is_none());
        for (bad, says) in [
            ("/news/*?page=2", "after a pattern"),
            ("/used-cars?", "nothing after it"),
            ("/used-cars?make", "not a name=value pair"),
            ("/used-cars?=x", "has no name"),
            ("/used-cars?make=a&make=b", "twice"),
        ] {
            let e = query_from(bad).unwrap().unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
