//! HTTP rules of the API that need no JavaScript: error bodies, CORS header
//! values, content-type and body-size checks. Plain Rust, unit-tested on the
//! host; the handlers only apply what these functions decide.

use crate::input::FieldErrors;
use serde_json::{json, Value};

/// Largest request body accepted. A lead with a full 5,000-character message
/// and every optional field is well under 16 KB.
pub const BODY_LIMIT: usize = 32 * 1024;

/// Methods any `/api/` route answers; sent in preflight responses.
pub const ALLOWED_METHODS: &str = "GET, POST, OPTIONS";
/// Request headers a dealer site may send cross-origin.
pub const ALLOWED_HEADERS: &str = "Content-Type";
/// How long a browser may cache a preflight answer (seconds).
pub const PREFLIGHT_MAX_AGE: &str = "86400";

/// An error answer: status, a message for people, and optionally one message
/// per bad field. Serialised as `{"error": "...", "fields": {...}}`.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub status: u16,
    pub error: String,
    pub fields: Option<FieldErrors>,
    /// Also answer the watchlist's shape, `success: false` + `message`.
    pub success_flag: bool,
    /// Seconds until a retry can succeed, sent as `Retry-After` (429).
    pub retry_after: Option<u64>,
    /// The captcha widget a retry needs (a step-up under attack,
    /// [`crate::turnstile::step_up_refusal`]): its site key, public.
    pub captcha_site_key: Option<String>,
}

impl ApiError {
    pub fn new(status: u16, error: impl Into<String>) -> Self {
        Self {
            status,
            error: error.into(),
            fields: None,
            success_flag: false,
            retry_after: None,
            captcha_site_key: None,
        }
    }

    pub fn with_fields(status: u16, error: impl Into<String>, fields: FieldErrors) -> Self {
        Self {
            status,
            error: error.into(),
            fields: Some(fields),
            success_flag: false,
            retry_after: None,
            captcha_site_key: None,
        }
    }

    pub fn forbidden_origin() -> Self {
        Self::new(403, "This API only answers requests from a dealer's own website (unknown or missing Origin).")
    }

    pub fn not_found() -> Self {
        Self::new(404, "No such API endpoint.")
    }

    pub fn method_not_allowed() -> Self {
        Self::new(405, "This endpoint does not accept that HTTP method.")
    }

    /// 429: over a rate limit; a retry can succeed after `retry_after`
    /// seconds (the real remaining time, at least 1).
    pub fn too_many(message: impl Into<String>, retry_after: u64) -> Self {
        Self {
            retry_after: Some(retry_after.max(1)),
            ..Self::new(429, message)
        }
    }

    /// For failures that are ours, not the caller's (storage down). The
    /// detail goes to the log, never to the client.
    pub fn internal() -> Self {
        Self::new(500, "Something went wrong on our side; please try again.")
    }

    /// 503: the dealer's configuration cannot be read (a broken deploy).
    /// Only that dealer is affected; the detail goes to the log.
    pub fn dealer_unavailable() -> Self {
        Self::new(
            503,
            "This website's online services are unavailable just now; please try again later.",
        )
    }

    /// For the watchlist calls, whose callers read `{success, message}`.
    pub fn with_success_flag(mut self) -> Self {
        self.success_flag = true;
        self
    }

    pub fn body(&self) -> Value {
        let mut body = match &self.fields {
            Some(fields) => json!({ "error": self.error, "fields": fields }),
            None => json!({ "error": self.error }),
        };
        if self.success_flag {
            body["success"] = json!(false);
            body["message"] = json!(self.error);
        }
        if let Some(key) = &self.captcha_site_key {
            body["captcha_site_key"] = json!(key);
        }
        body
    }
}

/// Headers on every answer of the API, errors included: the answers are
/// JSON for scripts, never documents to render, frame or sniff.
pub const SECURITY_HEADERS: [(&str, &str); 4] = [
    ("X-Content-Type-Options", "nosniff"),
    // No includeSubDomains: the API may be served on a dealer's own domain,
    // whose other subdomains are not ours to pin to HTTPS.
    ("Strict-Transport-Security", "max-age=31536000"),
    ("Referrer-Policy", "no-referrer"),
    (
        "Content-Security-Policy",
        "default-src 'none'; frame-ancestors 'none'",
    ),
];

/// Longest `Origin` looked up in KV. KV keys are limited to 512 bytes, so a
/// longer header would make the lookup itself fail (a 5xx); no real site
/// origin comes anywhere near this.
pub const ORIGIN_MAX: usize = 255;

/// Whether an `Origin` header can be a dealer site at all: `http(s)://host`
/// with an optional port, short, printable, no path. Anything else is refused
/// before any lookup.
pub fn plausible_origin(origin: &str) -> bool {
    let host = origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"));
    origin.len() <= ORIGIN_MAX
        && host.is_some_and(|h| {
            !h.is_empty()
                && h.bytes().all(|b| {
                    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']')
                })
        })
}

/// The origin (`scheme://host[:port]`, ASCII) of a request's URL, as the
/// platform serialises it, for `http`/`https`; `None` for anything else (an
/// opaque origin, which no dealer site has). Equal to parsing the URL with
/// the `url` crate and taking `origin().ascii_serialization()`, without
/// linking that parser and its IDNA tables into the worker (checked against
/// it in the tests).
pub fn origin_of_url(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let default_port = match scheme {
        "http" => ":80",
        "https" => ":443",
        _ => return None,
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    // user:password@ is part of the URL, not of its origin.
    let host = authority.rsplit('@').next().unwrap_or("");
    let host = host.strip_suffix(default_port).unwrap_or(host);
    if host.is_empty() {
        return None;
    }
    Some(format!("{scheme}://{host}"))
}

/// The origin a request acts for: its `Origin` header, or, for a GET
/// without one when `same_origin_get` allows it, the origin of the URL it
/// was sent to (browsers send no `Origin` on same-origin GETs, and the API
/// may be served on the dealer's own domain). Writes always need the header.
/// `None` unless the result is a [`plausible_origin`].
pub fn request_origin(
    header: Option<String>,
    is_get: bool,
    same_origin_get: bool,
    url: &str,
) -> Option<String> {
    let origin = match header {
        Some(o) => Some(o),
        None if same_origin_get && is_get => origin_of_url(url),
        None => None,
    };
    origin.filter(|o| plausible_origin(o))
}

/// The JSON error to answer instead of a router's own plain-text 404/405
/// (unknown path or method); `None` for any other answer, or one that is
/// already JSON. The API promises JSON for every error.
pub fn router_fallback(status: u16, is_json: bool) -> Option<ApiError> {
    match status {
        _ if is_json => None,
        404 => Some(ApiError::not_found()),
        405 => Some(ApiError::method_not_allowed()),
        _ => None,
    }
}

/// The network a client address is counted as, for rate limits: an IPv4
/// address itself, an IPv6 address's /64 (one customer's allocation, whose
/// addresses cost nothing to rotate through). Anything else as given.
pub fn client_network(address: &str) -> String {
    match address.trim().parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
        Ok(ip) => ip.to_string(),
        Err(_) => address.trim().to_string(),
    }
}

/// A wider IPv6 network whose /64s share some clients' limits, so that
/// rotating through them does not multiply one client's limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregate {
    /// The /56: one home connection's usual allocation (256 /64s).
    Site,
    /// The /48: one site or small provider block (65,536 /64s, 256 /56s).
    Block,
}

impl Aggregate {
    /// How many clients' limits the network's /64s share: a household or
    /// an office has a few devices, a block a few households' worth.
    pub fn clients(self) -> u32 {
        match self {
            Aggregate::Site => 8,
            Aggregate::Block => 32,
        }
    }

    /// Its tag in a counter's key.
    pub fn tag(self) -> &'static str {
        match self {
            Aggregate::Site => "s",
            Aggregate::Block => "b",
        }
    }
}

/// The wider networks an IPv6 client address belongs to, narrowest first:
/// its /56 and its /48. None for IPv4 (an address is already one
/// connection, or a carrier's shared one) and for anything that is not an
/// address.
pub fn client_aggregates(address: &str) -> Vec<(Aggregate, String)> {
    match address.trim().parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V6(v6)) if v6.to_ipv4_mapped().is_none() => {
            let s = v6.segments();
            vec![
                (
                    Aggregate::Site,
                    format!("{:x}:{:x}:{:x}:{:x}::/56", s[0], s[1], s[2], s[3] & 0xff00),
                ),
                (
                    Aggregate::Block,
                    format!("{:x}:{:x}:{:x}::/48", s[0], s[1], s[2]),
                ),
            ]
        }
        _ => Vec::new(),
    }
}

/// `application/json`, with or without parameters, in any letter case.
/// Anything else gets 415: requiring JSON also forces browsers to preflight
/// cross-origin posts, so a foreign page cannot fire a "simple" form post.
pub fn check_json_content_type(content_type: Option<&str>) -> Result<(), ApiError> {
    let essence = content_type
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim();
    if essence.eq_ignore_ascii_case("application/json") {
        Ok(())
    } else {
        Err(ApiError::new(
            415,
            "Send the body as JSON with Content-Type: application/json.",
        ))
    }
}

/// Rejects a body by its declared `Content-Length` before reading it.
pub fn check_declared_length(content_length: Option<&str>) -> Result<(), ApiError> {
    check_declared_length_within(content_length, BODY_LIMIT)
}

/// [`check_declared_length`] with another limit (the payment webhook's).
pub fn check_declared_length_within(
    content_length: Option<&str>,
    limit: usize,
) -> Result<(), ApiError> {
    match content_length.map(|v| v.trim().parse::<u64>()) {
        None => Ok(()),
        Some(Ok(n)) if n <= limit as u64 => Ok(()),
        Some(Ok(_)) => Err(too_large(limit)),
        Some(Err(_)) => Err(ApiError::new(400, "Invalid Content-Length header.")),
    }
}

/// Rejects a body by its actual size (a chunked upload declares none).
pub fn check_body_length(len: usize) -> Result<(), ApiError> {
    check_body_length_within(len, BODY_LIMIT)
}

/// [`check_body_length`] with another limit.
pub fn check_body_length_within(len: usize, limit: usize) -> Result<(), ApiError> {
    if len > limit {
        Err(too_large(limit))
    } else {
        Ok(())
    }
}

fn too_large(limit: usize) -> ApiError {
    ApiError::new(
        413,
        format!("The request body is larger than {} KB.", limit / 1024),
    )
}

/// Parses a request body as JSON; malformed input is the caller's error.
pub fn parse_json(body: &[u8]) -> Result<Value, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::new(400, format!("Malformed JSON: {e}.")))
}

/// Headers that let the dealer's own `origin` read a response. Only ever
/// called with an origin the dealer's config allows; never `*`, because the
/// answer differs per tenant.
pub fn cors_headers(origin: &str, preflight: bool) -> Vec<(&'static str, &str)> {
    // Credentials: the watchlist session cookie must travel with the site's
    // fetches; safe because the origin is always one specific dealer origin.
    let mut headers = vec![
        ("Access-Control-Allow-Origin", origin),
        ("Access-Control-Allow-Credentials", "true"),
        // Not a CORS-safelisted response header: without this a site on
        // another origin than the API could not read how long to wait.
        ("Access-Control-Expose-Headers", "Retry-After"),
        ("Vary", "Origin"),
    ];
    if preflight {
        headers.extend([
            ("Access-Control-Allow-Methods", ALLOWED_METHODS),
            ("Access-Control-Allow-Headers", ALLOWED_HEADERS),
            ("Access-Control-Max-Age", PREFLIGHT_MAX_AGE),
        ]);
    }
    headers
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn error_body_shape() {
        assert_eq!(ApiError::new(403, "no").body(), json!({"error": "no"}));
        let fields = FieldErrors(BTreeMap::from([("phone".to_string(), "bad".to_string())]));
        assert_eq!(
            ApiError::with_fields(400, "fix", fields).body(),
            json!({"error": "fix", "fields": {"phone": "bad"}})
        );
        assert_eq!(
            ApiError::new(401, "sign in").with_success_flag().body(),
            json!({"error": "sign in", "success": false, "message": "sign in"})
        );
        for e in [
            ApiError::forbidden_origin(),
            ApiError::not_found(),
            ApiError::method_not_allowed(),
            ApiError::internal(),
            ApiError::dealer_unavailable(),
        ] {
            assert!(!e.error.is_empty());
            assert_eq!(e.retry_after, None);
        }
        let busy = ApiError::too_many("slow down", 0);
        assert_eq!(
            (busy.status, busy.retry_after),
            (429, Some(1)),
            "at least a second"
        );
        assert_eq!(busy.body(), json!({"error": "slow down"}));
        assert_eq!(ApiError::dealer_unavailable().status, 503);
    }

    #[test]
    fn origin_of_a_serialised_url_matches_the_url_crate() {
        for url in [
            "https://alpha-motors.example/api/watchlist",
            "http://127.0.0.1:8787/api/auth/me?x=1",
            "https://dealer.example:8443/api/cars/a/view.json#frag",
            "https://dealer.example:443/api/x",
            "http://dealer.example:80/",
            "http://dealer.example:8080",
            "https://user:pw@dealer.example/api/x",
            "http://[::1]:8787/api/health",
            "http://[::1]/api/health",
            "https://xn--bcher-kva.example/api/x",
            "https://dealer.example?q=/a",
        ] {
            let expected = url::Url::parse(url).unwrap().origin().ascii_serialization();
            assert_eq!(origin_of_url(url), Some(expected), "{url}");
        }
        for opaque in [
            "file:///etc/passwd",
            "data:text/plain,x",
            "blob:x",
            "/api/x",
            "",
        ] {
            assert_eq!(origin_of_url(opaque), None, "{opaque}");
        }
    }

    #[test]
    fn origin_from_header_or_same_origin_get() {
        let url = "https://alpha.example/api/watchlist";
        let header = || Some("https://alpha.example".to_string());
        assert_eq!(
            request_origin(header(), false, false, url).as_deref(),
            Some("https://alpha.example")
        );
        assert_eq!(
            request_origin(None, true, true, url).as_deref(),
            Some("https://alpha.example"),
            "a same-origin GET"
        );
        assert_eq!(
            request_origin(None, false, true, url),
            None,
            "writes need the header"
        );
        assert_eq!(
            request_origin(None, true, false, url),
            None,
            "route does not allow it"
        );
        assert_eq!(
            request_origin(Some("null".into()), true, true, url),
            None,
            "an implausible header is not replaced by the URL's origin"
        );
        assert_eq!(request_origin(None, true, true, "file:///x"), None);
    }

    #[test]
    fn router_answers_become_json_errors() {
        assert_eq!(router_fallback(404, false), Some(ApiError::not_found()));
        assert_eq!(
            router_fallback(405, false),
            Some(ApiError::method_not_allowed())
        );
        assert_eq!(router_fallback(404, true), None, "a handler's own JSON 404");
        assert_eq!(router_fallback(200, false), None);
        assert_eq!(router_fallback(500, false), None);
    }

    #[test]
    fn clients_are_counted_per_address_or_ipv6_64() {
        assert_eq!(client_network("203.0.113.9"), "203.0.113.9");
        assert_eq!(client_network(" 203.0.113.9 "), "203.0.113.9");
        assert_eq!(
            client_network("2001:db8:1:2:aaaa::1"),
            client_network("2001:0db8:0001:0002:ffff:ffff:ffff:ffff"),
            "one /64"
        );
        assert_eq!(client_network("2001:db8:1:2::1"), "2001:db8:1:2::/64");
        assert_ne!(
            client_network("2001:db8:1:3::1"),
            client_network("2001:db8:1:2::1")
        );
        assert_eq!(client_network("::ffff:203.0.113.9"), "203.0.113.9");
        assert_eq!(client_network("unknown"), "unknown");
        // The /56: 256 /64s of one home connection; the /48: 256 /56s.
        let site = |a: &str| client_aggregates(a).first().map(|(_, n)| n.clone());
        let block = |a: &str| client_aggregates(a).get(1).map(|(_, n)| n.clone());
        assert_eq!(
            client_aggregates("2001:db8:1:2a7::1"),
            [
                (Aggregate::Site, "2001:db8:1:200::/56".to_string()),
                (Aggregate::Block, "2001:db8:1::/48".to_string())
            ]
        );
        assert_eq!(site("2001:db8:1:2ff::9"), site("2001:db8:1:200::1"));
        assert_ne!(site("2001:db8:1:300::1"), site("2001:db8:1:200::1"));
        assert_eq!(block("2001:db8:1:ff00::1"), block("2001:db8:1:200::1"));
        assert_ne!(block("2001:db8:2:200::1"), block("2001:db8:1:200::1"));
        for v4 in ["203.0.113.9", "::ffff:203.0.113.9", "unknown"] {
            assert!(client_aggregates(v4).is_empty(), "{v4}");
        }
        assert!(Aggregate::Block.clients() > Aggregate::Site.clients());
    }

    #[test]
    fn content_type_must_be_json() {
        for ok in [
            "application/json",
            "application/json; charset=utf-8",
            "Application/JSON;charset=UTF-8",
        ] {
            assert_eq!(check_json_content_type(Some(ok)), Ok(()), "{ok}");
        }
        for bad in [
            None,
            Some(""),
            Some("text/plain"),
            Some("application/x-www-form-urlencoded"),
            Some("application/jsonp"),
        ] {
            assert_eq!(
                check_json_content_type(bad).unwrap_err().status,
                415,
                "{bad:?}"
            );
        }
    }

    #[test]
    fn body_size_limit() {
        assert_eq!(check_declared_length(None), Ok(()));
        assert_eq!(check_declared_length(Some("32768")), Ok(()));
        assert_eq!(
            check_declared_length(Some("32769")).unwrap_err().status,
            413
        );
        assert_eq!(
            check_declared_length(Some("99999999999999999999999"))
                .unwrap_err()
                .status,
            400
        );
        assert_eq!(check_declared_length(Some("-1")).unwrap_err().status, 400);
        assert_eq!(check_body_length(BODY_LIMIT), Ok(()));
        assert_eq!(check_body_length(BODY_LIMIT + 1).unwrap_err().status, 413);
    }

    #[test]
    fn malformed_json_is_a_400() {
        assert_eq!(parse_json(br#"{"a":1}"#).unwrap(), json!({"a": 1}));
        for bad in [&b""[..], b"{", b"{'a':1}", b"\xff\xfe", b"[1,]"] {
            let e = parse_json(bad).unwrap_err();
            assert_eq!(e.status, 400);
            assert!(e.error.starts_with("Malformed JSON"), "{}", e.error);
        }
        let deep = "[".repeat(10_000);
        assert_eq!(
            parse_json(deep.as_bytes()).unwrap_err().status,
            400,
            "recursion limit, not a stack overflow"
        );
    }

    #[test]
    fn origins_worth_looking_up() {
        for ok in [
            "https://demo.example",
            "http://127.0.0.1:4321",
            "https://sub.demo-motors.com.au",
            "http://[::1]:8787",
        ] {
            assert!(plausible_origin(ok), "{ok}");
        }
        let long = format!("https://{}.example", "a".repeat(ORIGIN_MAX));
        for bad in [
            "",
            "null",
            "https://",
            "ftp://demo.example",
            "https://demo.example/path",
            "https://a b",
            "https://demo.example\n",
            &long,
        ] {
            assert!(!plausible_origin(bad), "{bad:?}");
        }
    }

    #[test]
    fn security_headers() {
        let names: Vec<&str> = SECURITY_HEADERS.iter().map(|(n, _)| *n).collect();
        assert_eq!(
            names,
            [
                "X-Content-Type-Options",
                "Strict-Transport-Security",
                "Referrer-Policy",
                "Content-Security-Policy"
            ]
        );
        assert!(SECURITY_HEADERS.contains(&(
            "Content-Security-Policy",
            "default-src 'none'; frame-ancestors 'none'"
        )));
    }

    #[test]
    fn cors_only_echoes_the_given_origin() {
        let simple = cors_headers("https://demo.example", false);
        assert_eq!(
            simple,
            [
                ("Access-Control-Allow-Origin", "https://demo.example"),
                ("Access-Control-Allow-Credentials", "true"),
                ("Access-Control-Expose-Headers", "Retry-After"),
                ("Vary", "Origin")
            ]
        );
        let preflight = cors_headers("https://demo.example", true);
        assert!(preflight.contains(&("Access-Control-Allow-Methods", "GET, POST, OPTIONS")));
        assert!(preflight.contains(&("Access-Control-Allow-Headers", "Content-Type")));
        assert!(!preflight.iter().any(|(_, v)| *v == "*"));
    }
}
