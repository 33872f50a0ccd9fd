//! The built site's `_redirects` and `_headers`, applied as the CDN applies
//! them (redirects before files; every matching header block added, a
//! `! Name` line detaching a header an earlier block set), so the preview
//! answers with the Content-Security-Policy and redirects shoppers get.

use dealer_config::redirect_rules::{location, RuleSet};

/// A path pattern: `*` matches any run of characters, the rest is literal.
#[derive(Debug, Clone)]
struct Pattern(Vec<String>);

impl Pattern {
    fn new(p: &str) -> Self {
        Pattern(p.split('*').map(String::from).collect())
    }

    fn matches(&self, path: &str) -> bool {
        self.splat(path).is_some()
    }

    /// What the first `*` matched ("" without one), or None when `path`
    /// does not match: a redirect's `:splat`.
    fn splat<'p>(&self, path: &'p str) -> Option<&'p str> {
        let parts = &self.0;
        if parts.len() == 1 {
            return (path == parts[0]).then_some("");
        }
        let (first, last) = (&parts[0], &parts[parts.len() - 1]);
        if !path.starts_with(first.as_str()) || path.len() < first.len() + last.len() {
            return None;
        }
        let mut rest = &path[first.len()..];
        let mut splat: Option<&str> = None;
        for mid in &parts[1..parts.len() - 1] {
            let i = rest.find(mid.as_str())?;
            splat.get_or_insert(&rest[..i]);
            rest = &rest[i + mid.len()..];
        }
        if !rest.ends_with(last.as_str()) {
            return None;
        }
        Some(splat.unwrap_or(&rest[..rest.len() - last.len()]))
    }
}

#[derive(Debug, Clone)]
struct HeaderBlock {
    path: Pattern,
    /// (lower-case name, value); `None` detaches the header.
    headers: Vec<(String, Option<String>)>,
}

/// Both files of one build.
#[derive(Debug, Clone, Default)]
pub struct CdnRules {
    /// `_redirects` as the CDN holds it (static, then dynamic; its limits).
    redirects: RuleSet,
    headers: Vec<HeaderBlock>,
}

impl CdnRules {
    pub fn parse(redirects: &str, headers: &str) -> Self {
        let redirects = RuleSet::parse(redirects);
        let mut blocks: Vec<HeaderBlock> = Vec::new();
        for raw in headers.lines() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if !raw.starts_with(char::is_whitespace) {
                blocks.push(HeaderBlock {
                    path: Pattern::new(line),
                    headers: Vec::new(),
                });
            } else if let Some(block) = blocks.last_mut() {
                if let Some(name) = line.strip_prefix('!') {
                    block.headers.push((name.trim().to_ascii_lowercase(), None));
                } else if let Some((name, value)) = line.split_once(':') {
                    block.headers.push((
                        name.trim().to_ascii_lowercase(),
                        Some(value.trim().to_string()),
                    ));
                }
            }
        }
        CdnRules {
            redirects,
            headers: blocks,
        }
    }

    /// Reads both files of a built site (a missing file is no rules).
    pub fn read(dist: &std::path::Path) -> Self {
        let read = |name| std::fs::read_to_string(dist.join(name)).unwrap_or_default();
        Self::parse(&read("_redirects"), &read("_headers"))
    }

    /// The redirect of a request for `path` with `search` ("" or
    /// "?…"): (status, Location), as the CDN answers it
    /// (dealer_config::redirect_rules).
    pub fn redirect(&self, path: &str, search: &str) -> Option<(u16, String)> {
        let (rule, to) = self.redirects.find(path)?;
        Some((rule.status, location(&to, search)))
    }

    /// The headers the CDN adds to a file at `path`, in order.
    pub fn headers_for(&self, path: &str) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for block in self.headers.iter().filter(|b| b.path.matches(path)) {
            for (name, value) in &block.headers {
                out.retain(|(n, _)| n != name);
                if let Some(v) = value {
                    out.push((name.clone(), v.clone()));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirects_match_literal_paths_and_splats() {
        let rules = CdnRules::parse(
            "# sold cars\n/cars/old-1/ /search/?make=kia 301\n/promo/* /offers/\n",
            "",
        );
        assert_eq!(
            rules.redirect("/cars/old-1/", ""),
            Some((301, "/search/?make=kia".to_string()))
        );
        assert_eq!(rules.redirect("/cars/old-1/x", ""), None);
        assert_eq!(
            rules.redirect("/promo/a/b", ""),
            Some((302, "/offers/".to_string()))
        );
        assert_eq!(rules.redirect("/promotions/", ""), None);
    }

    #[test]
    fn header_blocks_add_up_and_a_bang_detaches() {
        let rules = CdnRules::parse(
            "",
            "/*\n  Content-Security-Policy: default-src 'self'\n  X-Frame-Options: DENY\n/sitemap.xml\n  ! Content-Security-Policy\n/_astro/*\n  Cache-Control: public, max-age=31536000, immutable\n",
        );
        assert_eq!(
            rules.headers_for("/"),
            [
                (
                    "content-security-policy".into(),
                    "default-src 'self'".into()
                ),
                ("x-frame-options".into(), "DENY".into())
            ]
        );
        assert_eq!(
            rules.headers_for("/sitemap.xml"),
            [("x-frame-options".to_string(), "DENY".to_string())]
        );
        assert!(rules
            .headers_for("/_astro/a.js")
            .iter()
            .any(|(n, v)| n == "cache-control" && v.contains("immutable")));
    }

    #[test]
    fn splats_in_the_middle() {
        let p = Pattern::new("/a/*/b/*.html");
        assert!(p.matches("/a/x/b/y.html"));
        assert!(!p.matches("/a/x/c/y.html"));
        assert!(!Pattern::new("/a*a").matches("/a"));
    }
}
