//! The preview server on 127.0.0.1: the dealer's last good build with the
//! CDN's URL rules (`/a/` → `/a/index.html`, `/a` → 301 `/a/`, else
//! `404.html`; `_redirects` and `_headers` applied), `/api/*` passed to the
//! local worker, the reload event stream, and the dev script added to every
//! HTML answer on its way out (never to the built files).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, SystemTime};

use anyhow::{anyhow, Result};
use tiny_http::{Header, Method, Request, Response, StatusCode};

use super::cdn_rules::CdnRules;
use super::events::Hub;
use super::locate::{inside, Published};

/// The script every HTML answer gets (reload and overlay).
pub const CLIENT_PATH: &str = "/__dealergen/dev.js";
/// The event stream the script listens to.
pub const EVENTS_PATH: &str = "/__dealergen/events";
const CLIENT_JS: &str = include_str!("client.js");
/// What is added before `</head>`: an external script, so the site's own
/// Content-Security-Policy (`script-src 'self'`) lets it run unchanged.
pub const CLIENT_TAG: &str = "<script type=\"module\" src=\"/__dealergen/dev.js\"></script>";

/// Requests answered at once; more wait (each event stream holds one).
const MAX_IN_FLIGHT: usize = 256;
/// The largest request body passed to the worker (its own limits are lower).
const MAX_BODY: u64 = 8 * 1024 * 1024;
/// The largest response head the worker may send.
const MAX_HEAD: usize = 64 * 1024;

/// Where `/api/*` goes.
#[derive(Debug, Clone)]
pub enum Api {
    /// No worker; the reason is the answer's message.
    Off(String),
    /// The worker listens here.
    Worker(SocketAddr),
}

/// What the request handlers share.
pub struct Site {
    pub published: Published,
    pub hub: Arc<Hub>,
    pub api: RwLock<Api>,
    /// The CDN rules of the build last served, keyed by its folder and the
    /// files' modification times (re-read when a new build is swapped in).
    rules: Mutex<Option<(RulesKey, Arc<CdnRules>)>>,
}

type RulesKey = (PathBuf, Option<SystemTime>, Option<SystemTime>);

impl Site {
    pub fn new(published: Published, hub: Arc<Hub>, api: Api) -> Self {
        Site {
            published,
            hub,
            api: RwLock::new(api),
            rules: Mutex::new(None),
        }
    }

    fn rules(&self, dist: &Path) -> Arc<CdnRules> {
        let mtime = |n| {
            std::fs::metadata(dist.join(n))
                .and_then(|m| m.modified())
                .ok()
        };
        let key = (dist.to_path_buf(), mtime("_redirects"), mtime("_headers"));
        let mut cache = self.rules.lock().expect("rules lock");
        if let Some((k, rules)) = cache.as_ref() {
            if *k == key {
                return rules.clone();
            }
        }
        let rules = Arc::new(CdnRules::read(dist));
        *cache = Some((key, rules.clone()));
        rules
    }
}

/// Binds 127.0.0.1:`port` (0: any free port), with a clear message when
/// the port is taken.
pub fn bind(port: u16) -> Result<tiny_http::Server> {
    tiny_http::Server::http(("127.0.0.1", port)).map_err(|e| {
        let in_use = e
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::AddrInUse);
        if in_use {
            anyhow!(
                "port {port} on 127.0.0.1 is already in use (another `dealergen dev`?): pick another with --port N, or --port 0 for any free port"
            )
        } else {
            anyhow!("cannot listen on 127.0.0.1:{port}: {e}")
        }
    })
}

/// Answers requests until the server is unblocked; one thread per request.
pub fn run(server: Arc<tiny_http::Server>, site: Arc<Site>) {
    let in_flight = Arc::new(AtomicUsize::new(0));
    for request in server.incoming_requests() {
        if in_flight.load(Ordering::SeqCst) >= MAX_IN_FLIGHT {
            let _ = request.respond(text(503, "too many requests at once"));
            continue;
        }
        in_flight.fetch_add(1, Ordering::SeqCst);
        let (site, in_flight) = (site.clone(), in_flight.clone());
        std::thread::spawn(move || {
            handle(&site, request);
            in_flight.fetch_sub(1, Ordering::SeqCst);
        });
    }
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("valid header")
}

fn text(status: u16, body: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    Response::from_string(format!("{body}\n"))
        .with_status_code(StatusCode(status))
        .with_header(header("content-type", "text/plain; charset=utf-8"))
}

fn handle(site: &Site, request: Request) {
    let url = request.url().to_string();
    let (raw_path, query) = match url.split_once('?') {
        Some((p, q)) => (p.to_string(), format!("?{q}")),
        None => (url.clone(), String::new()),
    };
    if raw_path == CLIENT_PATH {
        let _ = request.respond(
            Response::from_string(CLIENT_JS)
                .with_header(header("content-type", "text/javascript; charset=utf-8"))
                .with_header(header("cache-control", "no-store")),
        );
        return;
    }
    if raw_path == EVENTS_PATH {
        return events(site, request);
    }
    if raw_path == "/api" || raw_path.starts_with("/api/") {
        let api = site.api.read().expect("api lock").clone();
        return match api {
            Api::Worker(addr) => proxy(request, addr),
            Api::Off(why) => {
                let body = serde_json::json!({ "error": why }).to_string();
                let _ = request.respond(
                    Response::from_string(body)
                        .with_status_code(StatusCode(503))
                        .with_header(header("content-type", "application/json")),
                );
            }
        };
    }
    let _ = match resolve(site, &raw_path, &query, request.method()) {
        Answer::Status(code, msg) => request.respond(text(code, msg)),
        Answer::Redirect(code, location) => request
            .respond(Response::empty(StatusCode(code)).with_header(header("location", &location))),
        Answer::File {
            status,
            file,
            headers,
        } => {
            send_file(request, status, &file, &headers);
            Ok(())
        }
        Answer::NoBuildYet => {
            let page = format!(
                "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Building…</title>{CLIENT_TAG}</head><body><h1>No build yet</h1><p>dealergen dev shows the site here as soon as a build succeeds; the problems are listed over this page and in the terminal.</p></body></html>"
            );
            request.respond(
                Response::from_string(page)
                    .with_status_code(StatusCode(503))
                    .with_header(header("content-type", "text/html; charset=utf-8"))
                    .with_header(header("cache-control", "no-store")),
            )
        }
    };
}

/// What a request for a page or file gets.
#[derive(Debug, PartialEq)]
pub enum Answer {
    Status(u16, &'static str),
    Redirect(u16, String),
    File {
        status: u16,
        file: PathBuf,
        headers: Vec<(String, String)>,
    },
    NoBuildYet,
}

/// The URL path, percent-decoded; `None` when it is not a plain path
/// inside the site (`..` or `.` segments, a backslash, a NUL, bad UTF-8).
pub fn decode_path(raw: &str) -> Option<String> {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    let path = String::from_utf8(out).ok()?;
    let plain = path.starts_with('/')
        && !path.contains(['\\', '\0'])
        && path.split('/').all(|seg| seg != ".." && seg != ".");
    plain.then_some(path)
}

/// Decides what a GET or HEAD of `raw_path` gets from the published build.
pub fn resolve(site: &Site, raw_path: &str, query: &str, method: &Method) -> Answer {
    let Some(path) = decode_path(raw_path) else {
        return Answer::Status(400, "bad path");
    };
    let Some(root) = site.published.dist() else {
        return Answer::NoBuildYet;
    };
    let rules = site.rules(&root);
    if let Some((status, to)) = rules.redirect(raw_path) {
        return Answer::Redirect(status, format!("{to}{query}"));
    }
    // The CDN's own files are instructions, never content.
    if path == "/_headers" || path == "/_redirects" {
        return Answer::Status(404, "not found");
    }
    if *method != Method::Get && *method != Method::Head {
        return Answer::Status(405, "method not allowed");
    }
    let file = root.join(path.trim_start_matches('/'));
    let found = |p: PathBuf| inside(&root, &p).filter(|p| p.is_file());
    let page = |status, file: PathBuf| Answer::File {
        status,
        headers: rules.headers_for(raw_path),
        file,
    };
    if path.ends_with('/') {
        if let Some(f) = found(file.join("index.html")) {
            return page(200, f);
        }
    } else if let Some(f) = found(file.clone()) {
        return page(200, f);
    } else if found(file.join("index.html")).is_some() {
        return Answer::Redirect(301, format!("{raw_path}/{query}"));
    }
    match found(root.join("404.html")) {
        Some(f) => page(404, f),
        None => Answer::Status(404, "not found"),
    }
}

fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "avif" => "image/avif",
        "gif" => "image/gif",
        "ico" => "image/x-icon",
        "txt" => "text/plain; charset=utf-8",
        "xml" => "application/xml",
        "woff2" => "font/woff2",
        "webmanifest" => "application/manifest+json",
        _ => "application/octet-stream",
    }
}

/// Adds the dev script to an HTML page (before `</head>`, else at the end).
pub fn inject(html: &str) -> String {
    match html.find("</head>") {
        Some(at) => format!("{}{CLIENT_TAG}{}", &html[..at], &html[at..]),
        None => format!("{html}{CLIENT_TAG}"),
    }
}

fn send_file(request: Request, status: u16, file: &Path, headers: &[(String, String)]) {
    let kind = content_type(file);
    let mut response_headers = vec![header("content-type", kind)];
    for (name, value) in headers {
        if let Ok(h) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            response_headers.push(h);
        }
    }
    if kind.starts_with("text/html") {
        let Ok(html) = std::fs::read_to_string(file) else {
            let _ = request.respond(text(404, "not found"));
            return;
        };
        // Pages change with every build: never let the browser keep one.
        response_headers.retain(|h| !h.field.equiv("cache-control"));
        response_headers.push(header("cache-control", "no-store"));
        // (tiny_http leaves the body out of an answer to HEAD.)
        let mut response =
            Response::from_string(inject(&html)).with_status_code(StatusCode(status));
        for h in response_headers {
            response.add_header(h);
        }
        let _ = request.respond(response);
        return;
    }
    let Ok(f) = std::fs::File::open(file) else {
        let _ = request.respond(text(404, "not found"));
        return;
    };
    let len = f.metadata().map(|m| m.len() as usize).ok();
    if !response_headers
        .iter()
        .any(|h| h.field.equiv("cache-control"))
    {
        response_headers.push(header("cache-control", "no-cache"));
    }
    let _ = request.respond(Response::new(
        StatusCode(status),
        response_headers,
        f,
        len,
        None,
    ));
}

/// The event stream: the first frames, then each event as it comes, and a
/// comment every 15 s so a closed page is noticed.
fn events(site: &Site, request: Request) {
    let (first, feed) = site.hub.subscribe();
    let mut out = request.into_writer();
    let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-store\r\nconnection: close\r\n\r\nretry: 1000\n\n";
    if out.write_all(head.as_bytes()).is_err() {
        return;
    }
    for f in first {
        if out.write_all(f.as_bytes()).is_err() {
            return;
        }
    }
    if out.flush().is_err() {
        return;
    }
    loop {
        let msg = match feed.recv_timeout(Duration::from_secs(15)) {
            Ok(m) if m.is_empty() => continue,
            Ok(m) => m,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => ": keep-alive\n\n".to_string(),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return,
        };
        if out.write_all(msg.as_bytes()).is_err() || out.flush().is_err() {
            return;
        }
    }
}

/// Headers that belong to one connection, not to the request or answer.
const HOP_BY_HOP: [&str; 8] = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "transfer-encoding",
    "te",
    "upgrade",
    "expect",
    "content-length",
];

/// Passes one request to the worker unchanged (method, path, body and
/// every header, Host included, so the worker sees the site's own URL as
/// it does in production where /api is routed on the site's domain), and
/// its answer back as it came.
fn proxy(mut request: Request, worker: SocketAddr) {
    let mut body = Vec::new();
    if request
        .as_reader()
        .take(MAX_BODY + 1)
        .read_to_end(&mut body)
        .is_err()
    {
        let _ = request.respond(text(400, "cannot read the request body"));
        return;
    }
    if body.len() as u64 > MAX_BODY {
        let _ = request.respond(text(413, "request body too large"));
        return;
    }
    let mut head = format!("{} {} HTTP/1.1\r\n", request.method(), request.url());
    for h in request.headers() {
        let name = h.field.as_str().as_str().to_ascii_lowercase();
        if !HOP_BY_HOP.contains(&name.as_str()) {
            head.push_str(&format!("{}: {}\r\n", h.field, h.value));
        }
    }
    head.push_str(&format!(
        "content-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    ));
    let answer = (|| -> std::io::Result<(Vec<u8>, Vec<u8>, TcpStream)> {
        let mut up = TcpStream::connect_timeout(&worker, Duration::from_secs(3))?;
        up.set_read_timeout(Some(Duration::from_secs(120)))?;
        up.write_all(head.as_bytes())?;
        up.write_all(&body)?;
        // The answer's head, and whatever of the body came with it.
        let mut got = Vec::new();
        let mut buf = [0u8; 8192];
        loop {
            if let Some(end) = find(&got, b"\r\n\r\n") {
                let rest = got.split_off(end + 4);
                return Ok((got, rest, up));
            }
            if got.len() > MAX_HEAD {
                return Err(std::io::Error::other(
                    "the worker's answer head is too large",
                ));
            }
            let n = up.read(&mut buf)?;
            if n == 0 {
                return Err(std::io::Error::other("the worker closed the connection"));
            }
            got.extend_from_slice(&buf[..n]);
        }
    })();
    let (head, rest, mut up) = match answer {
        Ok(a) => a,
        Err(e) => {
            let body =
                serde_json::json!({ "error": format!("the edge worker did not answer: {e}") });
            let _ = request.respond(
                Response::from_string(body.to_string())
                    .with_status_code(StatusCode(502))
                    .with_header(header("content-type", "application/json")),
            );
            return;
        }
    };
    let head = String::from_utf8_lossy(&head).into_owned();
    let mut lines = head.split("\r\n").filter(|l| !l.is_empty());
    let status_line = lines
        .next()
        .unwrap_or("HTTP/1.1 502 Bad Gateway")
        .to_string();
    let headers: Vec<&str> = lines.collect();
    let has = |name: &str, value: Option<&str>| {
        headers.iter().any(|l| {
            l.split_once(':').is_some_and(|(n, v)| {
                n.trim().eq_ignore_ascii_case(name)
                    && value.is_none_or(|want| v.to_ascii_lowercase().contains(want))
            })
        })
    };
    let framed = has("content-length", None) || has("transfer-encoding", Some("chunked"));
    let kept: Vec<&str> = headers
        .iter()
        .copied()
        .filter(|l| {
            let name = l
                .split(':')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            name != "connection" && name != "keep-alive"
        })
        .collect();
    let mut out = request.into_writer();
    let _ = (|| -> std::io::Result<()> {
        let mut head = format!("{status_line}\r\n");
        for l in &kept {
            head.push_str(l);
            head.push_str("\r\n");
        }
        if framed {
            // The worker framed its answer: pass the bytes through as they come.
            out.write_all(head.as_bytes())?;
            out.write_all(b"\r\n")?;
            out.write_all(&rest)?;
            out.flush()?;
            let mut buf = [0u8; 16 * 1024];
            loop {
                let n = up.read(&mut buf)?;
                if n == 0 {
                    break;
                }
                out.write_all(&buf[..n])?;
                out.flush()?;
            }
        } else {
            // Ended by closing: read it all and give it a length, so the
            // browser's connection to us stays usable.
            let mut body = rest;
            up.read_to_end(&mut body)?;
            head.push_str(&format!("content-length: {}\r\n\r\n", body.len()));
            out.write_all(head.as_bytes())?;
            out.write_all(&body)?;
        }
        out.flush()
    })();
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_out_of_the_site_are_refused() {
        assert_eq!(decode_path("/cars/a%20b/").as_deref(), Some("/cars/a b/"));
        for bad in [
            "/../etc/passwd",
            "/%2e%2e/%2e%2e/etc/passwd",
            "/a/..%2f..%2fetc/passwd",
            "/a/%2E%2E/b",
            "/a\\..\\b",
            "/a%5c..%5cb",
            "/a%00.html",
            "/%ff",
            "/%zz",
            "/./index.html",
            "relative",
        ] {
            assert_eq!(decode_path(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_dev_script_goes_before_the_head_ends() {
        assert_eq!(
            inject("<html><head><title>x</title></head><body></body></html>"),
            format!("<html><head><title>x</title>{CLIENT_TAG}</head><body></body></html>")
        );
        assert_eq!(inject("<p>bare</p>"), format!("<p>bare</p>{CLIENT_TAG}"));
    }

    fn site_with(files: &[(&str, &str)]) -> (tempfile::TempDir, Site) {
        let dir = tempfile::tempdir().unwrap();
        for (name, body) in files {
            let p = dir.path().join("dist").join(name);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, body).unwrap();
        }
        let site = Site::new(
            Published::new(dir.path()),
            Arc::new(Hub::default()),
            Api::Off("off".into()),
        );
        (dir, site)
    }

    #[test]
    fn urls_follow_the_cdn_rules() {
        let (_dir, site) = site_with(&[
            ("index.html", "home"),
            ("search/index.html", "search"),
            ("404.html", "missing"),
            ("_astro/a.js", "js"),
            ("_redirects", "/cars/sold-1/ /search/ 301\n"),
            ("_headers", "/*\n  X-Frame-Options: DENY\n"),
        ]);
        let get = |p: &str, q: &str| resolve(&site, p, q, &Method::Get);
        match get("/search/", "") {
            Answer::File {
                status: 200,
                file,
                headers,
            } => {
                assert!(file.ends_with("search/index.html"));
                assert_eq!(headers, [("x-frame-options".into(), "DENY".into())]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            get("/search", "?make=kia"),
            Answer::Redirect(301, "/search/?make=kia".into())
        );
        assert_eq!(
            get("/cars/sold-1/", "?x=1"),
            Answer::Redirect(301, "/search/?x=1".into())
        );
        assert!(matches!(
            get("/nope/", ""),
            Answer::File { status: 404, .. }
        ));
        assert_eq!(get("/_headers", ""), Answer::Status(404, "not found"));
        assert_eq!(get("/%2e%2e/x", ""), Answer::Status(400, "bad path"));
        assert_eq!(
            resolve(&site, "/", "", &Method::Post),
            Answer::Status(405, "method not allowed")
        );
    }

    #[test]
    fn before_the_first_build_there_is_a_placeholder() {
        let dir = tempfile::tempdir().unwrap();
        let site = Site::new(
            Published::new(dir.path()),
            Arc::new(Hub::default()),
            Api::Off("off".into()),
        );
        assert_eq!(resolve(&site, "/", "", &Method::Get), Answer::NoBuildYet);
    }
}
