//! Keeps `edge/openapi.yaml` and the Router in `lib.rs` in step: a host test
//! reads both files and compares the (method, path) pairs, so a route added
//! without documentation (or documented but gone) fails `cargo test`.

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    const LIB: &str = include_str!("lib.rs");
    const OPENAPI: &str = include_str!("../openapi.yaml");

    /// `(METHOD, /path/{param})` of every `.get_async("...")`-style
    /// registration in the fetch handler, `:param` written as `{param}`.
    /// The OPTIONS wildcard (CORS preflight) is described in the document's
    /// text rather than as a path.
    fn router_routes() -> BTreeSet<(String, String)> {
        let mut out = BTreeSet::new();
        for line in LIB.lines().map(str::trim) {
            for (call, method) in [
                (".get(", "get"),
                (".get_async(", "get"),
                (".post(", "post"),
                (".post_async(", "post"),
            ] {
                // Only registrations: a string literal path straight after the call.
                if let Some(rest) = line
                    .strip_prefix(call)
                    .and_then(|r| r.strip_prefix("\"/api/"))
                {
                    let path = format!("/api/{}", rest.split('"').next().unwrap_or_default());
                    let path: Vec<String> = path
                        .split('/')
                        .map(|seg| match seg.strip_prefix(':') {
                            Some(name) => format!("{{{name}}}"),
                            None => seg.to_string(),
                        })
                        .collect();
                    out.insert((method.to_string(), path.join("/")));
                }
            }
        }
        out
    }

    /// `(method, path)` pairs under `paths:` (2-space path keys, 4-space methods).
    fn documented() -> BTreeSet<(String, String)> {
        let mut out = BTreeSet::new();
        let mut in_paths = false;
        let mut path = String::new();
        for line in OPENAPI.lines() {
            if line == "paths:" {
                in_paths = true;
                continue;
            }
            if !in_paths || line.trim().is_empty() {
                continue;
            }
            if !line.starts_with(' ') {
                in_paths = false;
            } else if let Some(p) = line.strip_prefix("  /") {
                path = format!("/{}", p.trim_end_matches(':'));
            } else if let Some(m) = line.strip_prefix("    ") {
                if !m.starts_with(' ') {
                    let method = m.trim_end_matches(':');
                    if ["get", "post", "put", "delete", "patch"].contains(&method) {
                        out.insert((method.to_string(), path.clone()));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn openapi_states_both_content_security_policies() {
        let (_, json) = dealer_edge_core::http::SECURITY_HEADERS
            .into_iter()
            .find(|(name, _)| *name == "Content-Security-Policy")
            .unwrap();
        assert!(
            OPENAPI.contains(&format!("Content-Security-Policy: {json}.")),
            "the JSON answers' policy"
        );
        let form = dealer_edge_core::html::content_security_policy();
        let start = form.find("'sha256-").unwrap() + "'sha256-".len();
        let end = start + form[start..].find('\'').unwrap();
        let documented = format!("{}HASH{}", &form[..start], &form[end..]);
        assert!(
            OPENAPI.contains(&format!("Content-Security-Policy: {documented}\n")),
            "the form error page's policy, as sent: {documented}"
        );
    }

    #[test]
    fn openapi_documents_every_route_and_nothing_else() {
        let routes = router_routes();
        let docs = documented();
        assert!(routes.len() >= 15, "parsed too few routes: {routes:?}");
        let undocumented: Vec<_> = routes.difference(&docs).collect();
        let stale: Vec<_> = docs.difference(&routes).collect();
        assert!(
            undocumented.is_empty(),
            "routes missing from edge/openapi.yaml: {undocumented:?}"
        );
        assert!(
            stale.is_empty(),
            "edge/openapi.yaml documents routes the Router lacks: {stale:?}"
        );
    }

    /// `(method, path)` → the response codes documented for it.
    fn documented_codes() -> Vec<((String, String), Vec<String>)> {
        let mut out: Vec<((String, String), Vec<String>)> = Vec::new();
        let mut path = String::new();
        for line in OPENAPI.lines() {
            if let Some(code) = line
                .strip_prefix("        \"")
                .and_then(|r| r.split('"').next())
            {
                if let Some((_, codes)) = out.last_mut() {
                    codes.push(code.to_string());
                }
            } else if let Some(p) = line.strip_prefix("  /") {
                path = format!("/{}", p.trim_end_matches(':'));
            } else if let Some(m) = line.strip_prefix("    ") {
                let method = m.trim_end_matches(':');
                if !m.starts_with(' ') && ["get", "post"].contains(&method) {
                    out.push(((method.to_string(), path.clone()), Vec::new()));
                }
            }
        }
        out
    }

    #[test]
    fn every_route_but_health_documents_its_rate_limit_and_503() {
        let all = documented_codes();
        assert_eq!(all.len(), router_routes().len());
        for ((method, path), codes) in all {
            if path == "/api/health" {
                assert!(!codes.contains(&"429".to_string()));
                continue;
            }
            for code in ["429", "503"] {
                assert!(
                    codes.iter().any(|c| c == code),
                    "{method} {path} does not document {code}: {codes:?}"
                );
            }
        }
        assert!(OPENAPI.contains("Retry-After: { $ref: \"#/components/headers/RetryAfter\" }"));
    }

    #[test]
    fn spec_paths_stay_as_written() {
        // Dealer sites already call these paths: they must not change.
        let routes = router_routes();
        for path in [
            "/api/watchlist/save-car",
            "/api/watchlist/remove-car",
            "/api/youx/quote",
            "/api/miscellaneous",
            "/api/cars/{slug}/view.json",
        ] {
            assert!(routes.iter().any(|(_, p)| p == path), "{path}");
        }
    }
}
