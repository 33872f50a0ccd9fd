//! The stock feed: it must be there when the site is built, and its
//! source (what `dealergen stock pull` fetches) must be usable.

use std::path::Path;

use crate::model::{StockConfig, StockSource};

use super::{root, urls, Ctx, KeyPath};

pub(super) fn check(stock: &StockConfig, dealer_dir: &Path, cx: &mut Ctx) {
    let feed = dealer_dir.join(&stock.feed);
    if !feed.is_file() {
        let path = root().key("stock").key("feed");
        let hint = format!(
            "the path is relative to the dealer file's folder; looked for {}",
            feed.display()
        );
        if stock.source.is_some() {
            // A new dealer with a source has no feed until the first pull,
            // and the pull must be able to load the dealer to make it.
            cx.warn(
                &path,
                format!("stock feed `{}` does not exist yet", stock.feed),
            )
            .hint = Some(
                "run `dealergen stock pull --dealer <this dealer>` to fetch it from stock.source; the site cannot be built before".into(),
            );
        } else {
            cx.err(&path, format!("stock feed `{}` does not exist", stock.feed))
                .hint = Some(hint);
        }
    }
    if let Some(source) = &stock.source {
        check_source(source, &root().key("stock").key("source"), cx);
    }
}

fn check_source(source: &StockSource, at: &KeyPath, cx: &mut Ctx) {
    match (&source.url, &source.file) {
        (None, None) => {
            cx.err(at, "the stock source names neither a `url` nor a `file`")
                .expected = Some("`url: https://...` or `file: path/to/export.json`".into());
        }
        (Some(_), Some(_)) => {
            cx.err(at, "the stock source names both a `url` and a `file`")
                .hint = Some("keep the one the feed really comes from".into());
        }
        (Some(url), None) => check_url(url, &at.clone().key("url"), cx),
        (None, Some(file)) => {
            if file.trim().is_empty() {
                cx.err(&at.clone().key("file"), "the source file path is empty");
            }
        }
    }
    if let Some(auth) = &source.auth {
        let auth_at = at.clone().key("auth");
        if source.url.is_none() {
            cx.err(&auth_at, "`auth` is only sent to a `url` source")
                .hint = Some("remove `auth`, or fetch the feed from its URL".into());
        }
        if !is_header_name(&auth.header) {
            cx.err(
                &auth_at.clone().key("header"),
                format!("`{}` is not an HTTP header name", auth.header),
            )
            .expected = Some("letters, digits and dashes, e.g. Authorization or X-Api-Key".into());
        }
        if !is_env_name(&auth.env) {
            cx.err(
                &auth_at.key("env"),
                format!("`{}` is not an environment variable name", auth.env),
            )
            .expected = Some(
                "capital letters, digits and _, not starting with a digit, e.g. BMG_FEED_TOKEN"
                    .into(),
            );
        }
    }
}

/// https, or http to this machine (a local exporter, the tests' server).
fn check_url(raw: &str, at: &KeyPath, cx: &mut Ctx) {
    let local = url::Url::parse(raw).is_ok_and(|u| {
        u.scheme() == "http" && matches!(u.host_str(), Some("localhost" | "127.0.0.1" | "[::1]"))
    });
    if local {
        return;
    }
    urls::check_https(
        raw,
        at,
        "the feed address must be https:// (a token sent over http can be read on the way)",
        cx,
    );
}

/// An HTTP field name (RFC 9110 token), as feed servers expect them.
fn is_header_name(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fn is_env_name(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_uppercase() || b == b'_')
        && bytes.all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

#[cfg(test)]
mod tests {
    use crate::check::testing::{accepted, problem_at, problems};
    use crate::diagnostic::Severity;

    #[test]
    fn the_feed_must_exist_next_to_the_dealer_file() {
        let p = problem_at("stock: { feed: missing.json }\n", "stock.feed");
        assert_eq!(p.message, "stock feed `missing.json` does not exist");
        assert_eq!(p.severity, Severity::Error);
        assert!(p
            .hint
            .unwrap()
            .contains("relative to the dealer file's folder"));
        // A folder is not a feed.
        problem_at("stock: { feed: . }\n", "stock.feed");
        accepted("stock: { feed: stock.json }\n");
    }

    #[test]
    fn a_missing_feed_with_a_source_is_a_warning_pointing_at_stock_pull() {
        let p = problem_at(
            "stock: { feed: missing.json, source: { url: \"https://feeds.example.com/s.json\" } }\n",
            "stock.feed",
        );
        assert_eq!(p.severity, Severity::Warning);
        assert_eq!(p.message, "stock feed `missing.json` does not exist yet");
        assert!(p.hint.unwrap().contains("dealergen stock pull --dealer"));
    }

    #[test]
    fn a_source_is_one_url_or_one_file() {
        let p = problem_at("stock: { source: {} }\n", "stock.source");
        assert!(p.message.contains("neither"), "{}", p.message);
        let p = problem_at(
            "stock: { source: { url: \"https://a.example/s.json\", file: x.json } }\n",
            "stock.source",
        );
        assert!(p.message.contains("both"), "{}", p.message);
        accepted("stock: { source: { file: ../exports/stock.json } }\n");
        accepted("stock: { source: { url: \"https://feeds.example.com.au/1041/stock.json?fmt=json\" } }\n");
    }

    #[test]
    fn feed_urls_are_https_except_on_this_machine() {
        let p = problem_at(
            "stock: { source: { url: \"http://feeds.example.com/s.json\" } }\n",
            "stock.source.url",
        );
        assert!(p.message.contains("must be https://"), "{}", p.message);
        let p = problem_at(
            "stock: { source: { url: \"https://user:pw@feeds.example.com/s.json\" } }\n",
            "stock.source.url",
        );
        assert!(p.message.contains("user name or password"), "{}", p.message);
        problem_at(
            "stock: { source: { url: \"ftp://feeds.example.com/s.json\" } }\n",
            "stock.source.url",
        );
        accepted("stock: { source: { url: \"http://127.0.0.1:8080/s.json\" } }\n");
        accepted("stock: { source: { url: \"http://localhost/s.json\" } }\n");
    }

    #[test]
    fn auth_names_a_header_and_an_environment_variable() {
        let src = |header: &str, env: &str| {
            format!("stock: {{ source: {{ url: \"https://a.example/s\", auth: {{ header: \"{header}\", env: \"{env}\" }} }} }}\n")
        };
        accepted(&src("Authorization", "BMG_FEED_TOKEN"));
        accepted(&src("X-Api-Key", "_KEY2"));
        let p = problem_at(&src("Bearer abc", "TOKEN"), "stock.source.auth.header");
        assert!(p.message.contains("not an HTTP header name"));
        let p = problem_at(
            &src("Authorization", "Bearer abc123"),
            "stock.source.auth.env",
        );
        assert!(p.message.contains("not an environment variable name"));
        problem_at(&src("Authorization", "2TOKEN"), "stock.source.auth.env");
        let p = problem_at(
            "stock: { source: { file: x.json, auth: { header: A, env: B } } }\n",
            "stock.source.auth",
        );
        assert!(p.message.contains("only sent to a `url`"));
    }

    #[test]
    fn guard_and_timeouts_are_bounded() {
        let all = problems("stock: { source: { file: x.json, max_drop_percent: 101, timeout_secs: 0, retries: 11 } }\n");
        let keys: Vec<&str> = all.iter().map(|p| p.key.as_str()).collect();
        assert!(keys.contains(&"stock.source.max_drop_percent"), "{all:#?}");
        assert!(keys.contains(&"stock.source.timeout_secs"), "{all:#?}");
        assert!(keys.contains(&"stock.source.retries"), "{all:#?}");
        accepted("stock: { source: { file: x.json, max_drop_percent: 100, timeout_secs: 600, retries: 0 } }\n");
    }
}
