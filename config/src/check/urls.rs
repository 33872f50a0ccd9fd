//! Addresses in a dealer file, read by the `url` crate (the WHATWG URL
//! parser, as browsers read them) rather than by prefix: a site origin, an
//! https link to another site, or a link on a page (site path or https).

use url::Url;

use super::{Ctx, KeyPath};

/// Characters no hand-written address should contain. The URL parser would
/// quietly drop tabs and newlines, trim spaces and percent-encode the rest,
/// so a pasted `"https://x"` with its quotes would become a link to a path
/// named `%22https://x%22`.
fn unsafe_char(raw: &str) -> Option<char> {
    raw.chars().find(|c| {
        c.is_whitespace() || c.is_control() || matches!(c, '"' | '\'' | '<' | '>' | '\\' | '`')
    })
}

/// Why text is not an absolute http(s) URL a browser or the worker can use.
enum Fault {
    Char(char),
    Invalid(String),
    Scheme(String),
    UserInfo,
}

fn parse_web(raw: &str) -> Result<Url, Fault> {
    if let Some(c) = unsafe_char(raw) {
        return Err(Fault::Char(c));
    }
    let url = Url::parse(raw).map_err(|e| Fault::Invalid(e.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(Fault::Scheme(url.scheme().to_string()));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(Fault::UserInfo);
    }
    Ok(url)
}

fn report(fault: Fault, raw: &str, path: &KeyPath, cx: &mut Ctx) {
    match fault {
        Fault::Char(c) => {
            let what = match c {
                '"' | '\'' | '`' => "a quote".to_string(),
                c if c.is_whitespace() => "a space".to_string(),
                c => format!("`{}`", c.escape_default()),
            };
            cx.err(path, format!("`{raw}` contains {what}")).hint =
                Some("write the address alone, without quotes or spaces inside (a space in a path is %20)".into());
        }
        Fault::Invalid(reason) => {
            cx.err(path, format!("`{raw}` is not a valid URL ({reason})"))
                .expected = Some("a full address like https://www.example.com.au/page".into());
        }
        Fault::Scheme(scheme) => {
            cx.err(
                path,
                format!("`{raw}` is a {scheme}: address, not a web address"),
            )
            .expected = Some("an https:// address".into());
        }
        Fault::UserInfo => {
            cx.err(path, format!("`{raw}` contains a user name or password")).hint = Some(
                "everything in a dealer file is public; remove the part before @ (secrets go in the worker's secrets)"
                    .into(),
            );
        }
    }
}

/// A site's origin: `https://host[:port]`, nothing after it (http only for
/// localhost, for development). The edge API compares the browser's
/// `Origin` header with it.
pub(super) fn check_origin(raw: &str, path: &KeyPath, cx: &mut Ctx) {
    let url = match parse_web(raw) {
        Ok(u) => u,
        Err(Fault::Invalid(_) | Fault::Scheme(_)) => {
            cx.err(path, format!("`{raw}` is not a site address"))
                .expected = Some("an origin like https://www.example.com.au (no path)".into());
            return;
        }
        Err(f) => return report(f, raw, path, cx),
    };
    let local = matches!(url.host_str(), Some("localhost" | "127.0.0.1" | "[::1]"));
    let bare = url.path() == "/" && url.query().is_none() && url.fragment().is_none();
    if (url.scheme() != "https" && !local) || !bare {
        cx.err(path, format!("`{raw}` is not a site address"))
            .expected = Some("an origin like https://www.example.com.au (no path)".into());
    } else if raw.ends_with('/') {
        cx.err(path, format!("`{raw}` ends with a slash")).hint =
            Some(format!("write `{}`", raw.trim_end_matches('/')));
    } else {
        // What a browser sends as `Origin`: default port dropped, a
        // non-ASCII host in its xn-- form. Case is compared loosely.
        let origin = url.origin().ascii_serialization();
        if !origin.eq_ignore_ascii_case(raw) {
            cx.err(
                path,
                format!("`{raw}` is not written the way browsers send it"),
            )
            .hint = Some(format!("write `{origin}`"));
        }
    }
}

/// An https link to another site (webhook, booking page, social profile,
/// quote service). Returns whether it is a usable http(s) URL; when it is
/// one but not https, `not_https` is the problem reported.
pub(super) fn check_https(raw: &str, path: &KeyPath, not_https: &str, cx: &mut Ctx) -> bool {
    match parse_web(raw) {
        Ok(url) if url.scheme() == "https" => true,
        Ok(_) => {
            cx.err(path, not_https);
            false
        }
        Err(f) => {
            report(f, raw, path, cx);
            false
        }
    }
}

/// A site path with nothing a browser would rewrite in it.
fn is_site_path(s: &str) -> bool {
    s.starts_with('/') && !s.starts_with("//")
}

/// A link on a page: a site path (/about-us), an https URL, `#anchor`,
/// `tel:` or `mailto:`.
pub(super) fn check_href(href: &str, path: &KeyPath, cx: &mut Ctx) {
    if href.starts_with("tel:") || href.starts_with("mailto:") {
        return;
    }
    if is_site_path(href) || href.starts_with('#') {
        if let Some(c) = unsafe_char(href) {
            report(Fault::Char(c), href, path, cx);
        }
        return;
    }
    let hint = match parse_web(href) {
        Ok(url) if url.scheme() == "https" => return,
        Err(f @ (Fault::Char(_) | Fault::UserInfo)) => return report(f, href, path, cx),
        Ok(_) => "use https:// so the link is not blocked as insecure".to_string(),
        Err(Fault::Scheme(_)) => {
            "a link is a site path (/...), an https:// address, #anchor, tel: or mailto:"
                .to_string()
        }
        Err(_) if href.starts_with("//") => {
            "write the full address with https://, or a site path with one /".to_string()
        }
        Err(_) => format!(
            "a site path starts with /, e.g. /{}",
            href.trim_start_matches("./")
        ),
    };
    cx.err(path, format!("link `{href}` goes nowhere")).hint = Some(hint);
}

/// An image: a path in the site's public files or an https URL.
pub(super) fn check_image(src: &str, path: &KeyPath, cx: &mut Ctx) {
    if is_site_path(src) {
        if let Some(c) = unsafe_char(src) {
            report(Fault::Char(c), src, path, cx);
        }
        return;
    }
    let hint = match parse_web(src) {
        Ok(url) if url.scheme() == "https" => return,
        Err(f @ (Fault::Char(_) | Fault::UserInfo)) => return report(f, src, path, cx),
        Ok(_) => "use https:// (browsers block http images on https pages)".to_string(),
        Err(Fault::Scheme(_)) => {
            "an image is a site path (/images/...) or an https:// address".to_string()
        }
        Err(_) => format!(
            "a site image path starts with /, e.g. /{}",
            src.trim_start_matches("./")
        ),
    };
    cx.err(path, format!("image `{src}` would not load on the site"))
        .hint = Some(hint);
}

/// A host name alone, e.g. `abc123-dsn.algolia.net` (no scheme, no path).
pub(super) fn check_host(host: &str, path: &KeyPath, cx: &mut Ctx) {
    let ok = unsafe_char(host).is_none()
        && Url::parse(&format!("https://{host}"))
            .is_ok_and(|u| u.host_str() == Some(host) && u.path() == "/" && u.port().is_none());
    if !ok {
        cx.err(path, format!("`{host}` is not a host name"))
            .expected =
            Some("a host name alone, e.g. abc123-dsn.algolia.net (no https://, no path)".into());
    }
}

#[cfg(test)]
mod tests {
    use crate::check::testing::{accepted, problem_at};

    #[test]
    fn origins_are_scheme_and_host_only() {
        for (url, message) in [
            ("https://www.test.com.au/shop", "not a site address"),
            ("http://www.test.com.au", "not a site address"),
            ("www.test.com.au", "not a site address"),
            ("https://", "not a site address"),
            ("https://www.test.com.au?x=1", "not a site address"),
            ("\"https://www.test.com.au\"", "contains a quote"),
            ("https://www.test .com.au", "contains a space"),
            ("https://admin:pw@www.test.com.au", "user name or password"),
            ("https://www.test.com.au:443", "the way browsers send it"),
        ] {
            let over = format!("site_url: '{}'\n", url.replace('\'', "''"));
            let p = problem_at(&over, "site_url");
            assert!(p.message.contains(message), "{url}: {}", p.message);
        }
        let p = problem_at("site_url: https://www.test.com.au:443\n", "site_url");
        assert_eq!(p.hint.as_deref(), Some("write `https://www.test.com.au`"));
        accepted("site_url: https://WWW.Test.com.au\n");
        accepted("site_url: http://localhost:4321\n");
        accepted("site_url: https://shop.test.com.au:8443\n");
    }

    #[test]
    fn https_links_are_checked_by_the_url_parser() {
        for (url, message) in [
            ("http://book.example.com.au", "is not an https:// link"),
            ("https://book example.com.au", "contains a space"),
            (
                "https://user:pw@book.example.com.au",
                "user name or password",
            ),
            ("https://", "is not a valid URL"),
            ("javascript:alert(1)", "not a web address"),
            ("book.example.com.au", "is not a valid URL"),
        ] {
            let over = format!("service: {{ booking_url: '{url}' }}\n");
            let p = problem_at(&over, "service.booking_url");
            assert!(p.message.contains(message), "{url}: {}", p.message);
        }
        accepted(
            "service: { booking_url: \"https://book.example.com.au/service?dealer=7#top\" }\n",
        );
    }

    #[test]
    fn page_links_are_site_paths_or_https() {
        for (href, message) in [
            ("about-us", "goes nowhere"),
            ("http://www.example.com", "goes nowhere"),
            ("//evil.example", "goes nowhere"),
            ("/about us", "contains a space"),
            ("https://exa mple.com", "contains a space"),
            ("javascript:alert(1)", "goes nowhere"),
        ] {
            let over = format!("home: {{ cta_href: '{href}' }}\n");
            let p = problem_at(&over, "home.cta_href");
            assert!(p.message.contains(message), "{href}: {}", p.message);
        }
        for href in [
            "/search/used-cars?make=Kia",
            "#stock",
            "tel:1300555010",
            "mailto:a@b.com.au",
            "https://www.example.com/x",
        ] {
            accepted(&format!("home: {{ cta_href: '{href}' }}\n"));
        }
    }

    #[test]
    fn images_are_site_paths_or_https() {
        let p = problem_at(
            "theme: { logo: \"http://cdn.example.com/logo.svg\" }\n",
            "theme.logo",
        );
        assert_eq!(
            p.message,
            "image `http://cdn.example.com/logo.svg` would not load on the site"
        );
        assert!(p.hint.unwrap().contains("https://"));
        let p = problem_at("theme: { logo: images/logo.svg }\n", "theme.logo");
        assert_eq!(
            p.hint.as_deref(),
            Some("a site image path starts with /, e.g. /images/logo.svg")
        );
        accepted("theme: { logo: /images/brand/x.svg }\n");
        accepted("theme: { logo: \"https://cdn.example.com/logo.svg\" }\n");
    }

    #[test]
    fn hosted_search_needs_a_bare_host() {
        let over = |host: &str| {
            format!("search: {{ engine: {{ hosted: {{ host: '{host}', app_id: A, index: Car_production, public_key: k }} }} }}\n")
        };
        for host in [
            "https://abc-dsn.algolia.net",
            "abc-dsn.algolia.net/1",
            "abc dsn.algolia.net",
            "",
        ] {
            let p = problem_at(&over(host), "search.engine.hosted.host");
            assert!(
                p.message.contains("is not a host name"),
                "{host}: {}",
                p.message
            );
        }
        accepted(&over("abc123-dsn.algolia.net"));
    }
}
