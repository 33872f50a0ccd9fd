//! The preview server on 127.0.0.1: the dealer's pages, either live from
//! `astro dev` (the default: rendered when asked for, the site's
//! `_redirects` and the CDN's slash rule applied in front, Vite's
//! WebSocket passed through) or the last good build with the CDN's URL
//! rules (`dealergen dev --built`: `/a/` → `/a/index.html`, `/a` → 307
//! `/a/`, else `404.html`; `_redirects` and `_headers` applied); `/api/*`
//! passed to the local worker, the reload event stream, and the dev script
//! added to every HTML answer on its way out (never to the built files).
//!
//! HTTP/1.1 over std's sockets, one thread per connection (httparse reads
//! the request head): a browser keeps six connections open per site and an
//! event stream per tab, and a fixed pool of workers owning whole
//! connections stalls the seventh until one closes.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, SystemTime};

use anyhow::{anyhow, Result};

use super::cdn_rules::CdnRules;
use super::events::{self, Hub};
use super::http::{json, read_request, respond, text, ReadError};
use super::locate::{inside, Published};
use super::proxy;

/// The script every HTML answer gets (reload and overlay).
pub const CLIENT_PATH: &str = "/__dealergen/dev.js";
/// The event stream the script listens to.
pub const EVENTS_PATH: &str = "/__dealergen/events";
const CLIENT_JS: &str = include_str!("client.js");
/// What is added before `</head>`: an external script, so the site's own
/// Content-Security-Policy (`script-src 'self'`) lets it run unchanged.
pub const CLIENT_TAG: &str = "<script type=\"module\" src=\"/__dealergen/dev.js\"></script>";

/// Connections served at once; more get 503 (each tab's event stream holds one).
const MAX_CONNECTIONS: usize = 512;
/// An idle kept-alive connection is closed after this long.
const IDLE: Duration = Duration::from_secs(60);

/// Where `/api/*` goes.
#[derive(Debug, Clone)]
pub enum Api {
    /// No worker; the reason is the answer's message.
    Off(String),
    /// The worker listens here.
    Worker(SocketAddr),
}

/// Where the pages come from.
pub enum Pages {
    /// The last published build (`dealergen dev --built`).
    Built(Published),
    /// Rendered on request by `astro dev` (the default).
    Live(LivePages),
}

/// The live pages: `astro dev` on the preview project.
pub struct LivePages {
    /// The preview project; its `generated/_redirects` is the site's.
    pub dir: PathBuf,
    /// Where `astro dev` listens, once it does.
    pub astro: RwLock<Option<SocketAddr>>,
}

impl LivePages {
    pub fn new(dir: PathBuf) -> Self {
        LivePages {
            dir,
            astro: RwLock::new(None),
        }
    }
}

/// What the request handlers share.
pub struct Site {
    pub pages: Pages,
    pub hub: Arc<Hub>,
    pub api: RwLock<Api>,
    /// The CDN rules of the build last served, keyed by its folder and the
    /// files' modification times (re-read when a new build is swapped in).
    rules: Mutex<Option<(RulesKey, Arc<CdnRules>)>>,
    /// The client live requests go to `astro dev` with.
    agent: ureq::Agent,
}

type RulesKey = (PathBuf, Option<SystemTime>, Option<SystemTime>);

impl Site {
    pub fn new(pages: Pages, hub: Arc<Hub>, api: Api) -> Self {
        Site {
            pages,
            hub,
            api: RwLock::new(api),
            rules: Mutex::new(None),
            agent: ureq::Agent::config_builder()
                .http_status_as_error(false)
                .max_redirects(0)
                .timeout_global(Some(Duration::from_secs(120)))
                .build()
                .into(),
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
pub fn bind(port: u16) -> Result<TcpListener> {
    TcpListener::bind(("127.0.0.1", port)).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AddrInUse {
            anyhow!(
                "port {port} on 127.0.0.1 is already in use (another `dealergen dev`?): pick another with --port N, or --port 0 for any free port"
            )
        } else {
            anyhow!("cannot listen on 127.0.0.1:{port}: {e}")
        }
    })
}

/// Answers connections until the process ends; one thread each.
pub fn run(listener: TcpListener, site: Arc<Site>) {
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        if open.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
            let _ = respond(
                &mut stream,
                503,
                &[],
                b"too many connections\n",
                false,
                false,
            );
            continue;
        }
        open.fetch_add(1, Ordering::SeqCst);
        let (site, open) = (site.clone(), open.clone());
        std::thread::spawn(move || {
            serve_connection(&site, stream);
            open.fetch_sub(1, Ordering::SeqCst);
        });
    }
}

fn serve_connection(site: &Site, mut stream: TcpStream) {
    let _ = stream.set_read_timeout(Some(IDLE));
    let _ = stream.set_nodelay(true);
    let mut buf = Vec::new();
    loop {
        let request = match read_request(&mut stream, &mut buf) {
            Ok(r) => r,
            Err(ReadError::Closed) => return,
            Err(ReadError::Bad(status, why)) => {
                let (status, headers, body) = text(status, why);
                let _ = respond(&mut stream, status, &headers, &body, false, false);
                return;
            }
        };
        let port = stream.local_addr().map(|a| a.port()).unwrap_or(0);
        if !local_host(request.header("host"), port) {
            let (s, h, b) = text(
                403,
                &format!("this preview answers http://127.0.0.1:{port}/ and http://localhost:{port}/ only"),
            );
            let _ = respond(&mut stream, s, &h, &b, false, false);
            return;
        }
        let (path, query) = match request.target.split_once('?') {
            Some((p, q)) => (p.to_string(), format!("?{q}")),
            None => (request.target.clone(), String::new()),
        };
        if path == EVENTS_PATH {
            return events::stream(&site.hub, stream);
        }
        if path == "/api" || path.starts_with("/api/") {
            let api = site.api.read().expect("api lock").clone();
            match api {
                // The worker's answer goes back as it comes, then the
                // connection closes (so its framing never matters here).
                Api::Worker(addr) => return proxy::pass(&request, stream, addr),
                Api::Off(why) => {
                    let (s, h, b) = json(503, serde_json::json!({ "error": why }));
                    if respond(&mut stream, s, &h, &b, false, request.keep_alive).is_err() {
                        return;
                    }
                }
            }
        } else if let Some(astro) = site.websocket(&request) {
            // Vite's own channel (its client in every live page): passed
            // through both ways until either side closes.
            return proxy::tunnel(&request, &buf, stream, astro);
        } else {
            let head_only = request.method == "HEAD";
            let (status, headers, body) = answer(site, &path, &query, &request);
            if respond(
                &mut stream,
                status,
                &headers,
                &body,
                head_only,
                request.keep_alive,
            )
            .is_err()
            {
                return;
            }
        }
        if !request.keep_alive {
            return;
        }
    }
}

/// Whether the request names this server by a loopback name. Any other
/// Host is a page of another site that had its domain resolve to 127.0.0.1
/// (DNS rebinding) trying to read the preview or call the worker through it.
pub fn local_host(host: Option<&str>, port: u16) -> bool {
    let Some(host) = host else { return false };
    let host = host.trim().to_ascii_lowercase();
    ["127.0.0.1", "localhost", "[::1]"]
        .iter()
        .any(|name| host == format!("{name}:{port}"))
}

impl Site {
    /// Where a WebSocket upgrade goes: `astro dev`, for live pages.
    fn websocket(&self, request: &super::http::Request) -> Option<SocketAddr> {
        let upgrade = request
            .header("upgrade")
            .is_some_and(|u| u.eq_ignore_ascii_case("websocket"));
        match &self.pages {
            Pages::Live(live) if upgrade => *live.astro.read().expect("astro lock"),
            _ => None,
        }
    }
}

/// A page, file or the dev script: (status, headers, body).
fn answer(
    site: &Site,
    path: &str,
    query: &str,
    request: &super::http::Request,
) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let method = request.method.as_str();
    if path == CLIENT_PATH {
        return (
            200,
            vec![
                (
                    "content-type".into(),
                    "text/javascript; charset=utf-8".into(),
                ),
                ("cache-control".into(), "no-store".into()),
            ],
            CLIENT_JS.as_bytes().to_vec(),
        );
    }
    match resolve(site, path, query, method) {
        Answer::Status(code, msg) => text(code, msg),
        Answer::Redirect(code, location) => (code, vec![("location".into(), location)], Vec::new()),
        Answer::File {
            status,
            file,
            headers,
        } => file_answer(status, &file, headers),
        Answer::Live(addr) => live_answer(&site.agent, addr, request),
        Answer::NoBuildYet => (
            503,
            vec![
                ("content-type".into(), "text/html; charset=utf-8".into()),
                ("cache-control".into(), "no-store".into()),
            ],
            format!(
                "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Building…</title>{CLIENT_TAG}</head><body><h1>No build yet</h1><p>dealergen dev shows the site here as soon as a build succeeds; the problems are listed over this page and in the terminal.</p></body></html>"
            )
            .into_bytes(),
        ),
    }
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
    /// Rendered by `astro dev`, listening here.
    Live(SocketAddr),
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

/// Decides what a request for `raw_path` gets: the site's redirects, the
/// CDN's own files refused and GET/HEAD only, whichever the pages' source;
/// then a file of the published build, or `astro dev`.
pub fn resolve(site: &Site, raw_path: &str, query: &str, method: &str) -> Answer {
    let Some(path) = decode_path(raw_path) else {
        return Answer::Status(400, "bad path");
    };
    // The folder whose `_redirects` (and `_headers`) apply, and for live
    // pages where `astro dev` listens.
    let (rules_dir, astro) = match &site.pages {
        Pages::Built(published) => match published.dist() {
            Some(root) => (root, None),
            None => return Answer::NoBuildYet,
        },
        Pages::Live(live) => match *live.astro.read().expect("astro lock") {
            Some(addr) => (live.dir.join(crate::run::build::GENERATED_DIR), Some(addr)),
            None => return Answer::NoBuildYet,
        },
    };
    let rules = site.rules(&rules_dir);
    if let Some((status, to)) = rules.redirect(raw_path, query) {
        return Answer::Redirect(status, to);
    }
    // The CDN's own files are instructions, never content.
    if path == "/_headers" || path == "/_redirects" {
        return Answer::Status(404, "not found");
    }
    if method != "GET" && method != "HEAD" {
        return Answer::Status(405, "method not allowed");
    }
    match astro {
        Some(addr) => live_page(&path, raw_path, query, addr),
        None => built_file(&rules_dir, &rules, &path, raw_path, query),
    }
}

/// A file of the published build in `root`, with the CDN's URL rules.
fn built_file(root: &Path, rules: &CdnRules, path: &str, raw_path: &str, query: &str) -> Answer {
    let file = root.join(path.trim_start_matches('/'));
    let found = |p: PathBuf| inside(root, &p).filter(|p| p.is_file());
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
        // 307, as workerd's `html_handling = "auto-trailing-slash"` answers
        // (checked against wrangler dev on the deployed settings).
        return Answer::Redirect(307, format!("{raw_path}/{query}"));
    }
    match found(root.join("404.html")) {
        Some(f) => page(404, f),
        None => Answer::Status(404, "not found"),
    }
}

/// A live request: a page's address without its slash gets 307, as
/// workerd answers for a folder with an index.html; the rest goes to
/// `astro dev` (Vite's own paths, `/@vite/client`, `/@id/...`, and files,
/// a dot in the last segment, pass as they are).
fn live_page(path: &str, raw_path: &str, query: &str, addr: SocketAddr) -> Answer {
    let last = path.rsplit('/').next().unwrap_or("");
    if !path.ends_with('/') && !last.contains('.') && !path.starts_with("/@") {
        return Answer::Redirect(307, format!("{raw_path}/{query}"));
    }
    Answer::Live(addr)
}

/// Request headers a live page or module request passes on to `astro dev`
/// (Vite answers modules by what is asked for, and revalidates with tags).
const LIVE_REQUEST_HEADERS: [&str; 6] = [
    "accept",
    "if-none-match",
    "if-modified-since",
    "sec-fetch-dest",
    "sec-fetch-mode",
    "referer",
];

/// Answer headers that describe the connection or the encoding of the
/// body as `astro dev` sent it, not the body passed on.
const LIVE_DROPPED_HEADERS: [&str; 6] = [
    "connection",
    "keep-alive",
    "transfer-encoding",
    "content-length",
    "content-encoding",
    "date",
];

/// The largest answer taken from `astro dev` (React's development build is
/// about 1 MB).
const MAX_LIVE_BODY: u64 = 64 * 1024 * 1024;

/// Asks `astro dev` for the page or module; an HTML answer gets the dev script.
fn live_answer(
    agent: &ureq::Agent,
    addr: SocketAddr,
    request: &super::http::Request,
) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let url = format!("http://{addr}{}", request.target);
    let mut ask = if request.method == "HEAD" {
        agent.head(&url)
    } else {
        agent.get(&url)
    };
    for name in LIVE_REQUEST_HEADERS {
        if let Some(value) = request.header(name) {
            ask = ask.header(name, value);
        }
    }
    let mut got = match ask.call() {
        Ok(got) => got,
        Err(e) => {
            return text(
                502,
                &format!("the live pages (astro dev) did not answer: {e}; if it is restarting, reload in a moment"),
            )
        }
    };
    let status = got.status().as_u16();
    let mut headers: Vec<(String, String)> = got
        .headers()
        .iter()
        .filter(|(name, _)| !LIVE_DROPPED_HEADERS.contains(&name.as_str()))
        .filter_map(|(name, value)| Some((name.to_string(), value.to_str().ok()?.to_string())))
        .collect();
    let body = if request.method == "HEAD" {
        Vec::new()
    } else {
        match got
            .body_mut()
            .with_config()
            .limit(MAX_LIVE_BODY)
            .read_to_vec()
        {
            Ok(body) => body,
            Err(e) => {
                return text(
                    502,
                    &format!("the live pages (astro dev) answered {url} badly: {e}"),
                )
            }
        }
    };
    let html = headers
        .iter()
        .any(|(n, v)| n == "content-type" && v.starts_with("text/html"));
    if !html {
        return (status, headers, body);
    }
    headers.retain(|(n, _)| n != "cache-control" && n != "etag");
    headers.push(("cache-control".into(), "no-store".into()));
    (
        status,
        headers,
        inject(&String::from_utf8_lossy(&body)).into_bytes(),
    )
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

fn file_answer(
    status: u16,
    file: &Path,
    rules: Vec<(String, String)>,
) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let kind = content_type(file);
    let Ok(bytes) = std::fs::read(file) else {
        return text(404, "not found");
    };
    let mut headers = vec![("content-type".to_string(), kind.to_string())];
    headers.extend(rules);
    if kind.starts_with("text/html") {
        // Pages change with every build: never let the browser keep one.
        headers.retain(|(n, _)| n != "cache-control");
        headers.push(("cache-control".into(), "no-store".into()));
        let html = String::from_utf8_lossy(&bytes);
        return (status, headers, inject(&html).into_bytes());
    }
    if !headers.iter().any(|(n, _)| n == "cache-control") {
        headers.push(("cache-control".into(), "no-cache".into()));
    }
    (status, headers, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

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
            Pages::Built(Published::new(dir.path())),
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
        let get = |p: &str, q: &str| resolve(&site, p, q, "GET");
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
            Answer::Redirect(307, "/search/?make=kia".into())
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
            resolve(&site, "/", "", "POST"),
            Answer::Status(405, "method not allowed")
        );
    }

    #[test]
    fn before_the_first_build_there_is_a_placeholder() {
        let dir = tempfile::tempdir().unwrap();
        let site = Site::new(
            Pages::Built(Published::new(dir.path())),
            Arc::new(Hub::default()),
            Api::Off("off".into()),
        );
        assert_eq!(resolve(&site, "/", "", "GET"), Answer::NoBuildYet);
    }

    /// A served site on a free port, for the socket-level tests.
    fn serving(site: Site) -> SocketAddr {
        let listener = bind(0).unwrap();
        let addr = listener.local_addr().unwrap();
        let site = Arc::new(site);
        std::thread::spawn(move || run(listener, site));
        addr
    }

    /// Sends `request` (its `host: x` naming the server) and reads the answer.
    fn exchange(addr: SocketAddr, request: &str) -> String {
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let request = request.replace("host: x", &format!("host: {addr}"));
        s.write_all(request.as_bytes()).unwrap();
        let mut out = String::new();
        let _ = s.read_to_string(&mut out);
        out
    }

    /// A browser keeps several connections open and idle, plus an event
    /// stream per tab: none of them holds up a new one.
    #[test]
    fn idle_connections_and_event_streams_do_not_hold_up_a_new_request() {
        let (_dir, site) =
            site_with(&[("index.html", "<html><head></head><body>home</body></html>")]);
        let addr = serving(site);
        let mut idle: Vec<TcpStream> = (0..12).map(|_| TcpStream::connect(addr).unwrap()).collect();
        for s in idle.iter_mut().take(4) {
            s.write_all(
                format!("GET /__dealergen/events HTTP/1.1\r\nhost: {addr}\r\n\r\n").as_bytes(),
            )
            .unwrap();
        }
        let started = std::time::Instant::now();
        let answer = exchange(
            addr,
            "GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
        );
        assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
        assert!(answer.contains(CLIENT_TAG));
        assert!(started.elapsed() < Duration::from_secs(3));
        // Two requests on one kept-alive connection.
        let answer = exchange(
            addr,
            "GET /nope HTTP/1.1\r\nhost: x\r\n\r\nHEAD / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
        );
        assert_eq!(answer.matches("HTTP/1.1 ").count(), 2, "{answer}");
        assert!(
            answer.ends_with("connection: close\r\n\r\n"),
            "HEAD has no body: {answer}"
        );
    }

    /// /api/* reaches the worker with method, path, headers and body, and
    /// its answer (status, cookies, body) comes back unchanged.
    #[test]
    fn api_calls_are_passed_to_the_worker_and_back() {
        let worker = TcpListener::bind("127.0.0.1:0").unwrap();
        let worker_addr = worker.local_addr().unwrap();
        let seen = Arc::new(Mutex::new(String::new()));
        let got = seen.clone();
        std::thread::spawn(move || {
            let (mut s, _) = worker.accept().unwrap();
            let mut buf = vec![0u8; 4096];
            let mut req = Vec::new();
            while !String::from_utf8_lossy(&req).contains("{\"car_id\":1}") {
                let n = s.read(&mut buf).unwrap();
                req.extend_from_slice(&buf[..n]);
            }
            *got.lock().unwrap() = String::from_utf8_lossy(&req).into_owned();
            s.write_all(b"HTTP/1.1 201 Created\r\nset-cookie: a=1\r\nset-cookie: b=2\r\ntransfer-encoding: chunked\r\nconnection: keep-alive\r\n\r\n5\r\nhello\r\n0\r\n\r\n").unwrap();
        });
        let (_dir, site) = site_with(&[("index.html", "home")]);
        *site.api.write().unwrap() = Api::Worker(worker_addr);
        let addr = serving(site);
        let body = "{\"car_id\":1}";
        let answer = exchange(
            addr,
            &format!("POST /api/phone-reveal?x=1 HTTP/1.1\r\nhost: x\r\norigin: http://127.0.0.1:9\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}", body.len()),
        );
        let sent = seen.lock().unwrap().clone();
        assert!(
            sent.starts_with("POST /api/phone-reveal?x=1 HTTP/1.1\r\n"),
            "{sent}"
        );
        let host = format!("host: {addr}");
        for h in [
            host.as_str(),
            "origin: http://127.0.0.1:9",
            "content-length: 12",
            "connection: close",
        ] {
            assert!(sent.contains(h), "{h} missing in {sent}");
        }
        assert!(answer.starts_with("HTTP/1.1 201 Created\r\n"), "{answer}");
        assert!(answer.contains("set-cookie: a=1\r\nset-cookie: b=2"));
        assert!(answer.ends_with("5\r\nhello\r\n0\r\n\r\n"), "{answer}");
        assert!(!answer.contains("keep-alive"));

        // The worker gone: a clear 502.
        drop(TcpListener::bind(worker_addr));
        let answer = exchange(addr, "GET /api/health HTTP/1.1\r\nhost: x\r\n\r\n");
        assert!(answer.starts_with("HTTP/1.1 502"), "{answer}");
        assert!(answer.contains("the edge worker did not answer"));
    }

    /// DNS rebinding: another site's name resolving to 127.0.0.1 is refused.
    #[test]
    fn only_loopback_host_names_are_answered() {
        assert!(local_host(Some("127.0.0.1:4321"), 4321));
        assert!(local_host(Some("LOCALHOST:4321"), 4321));
        assert!(local_host(Some("[::1]:4321"), 4321));
        assert!(!local_host(Some("evil.example:4321"), 4321));
        assert!(!local_host(Some("127.0.0.1:80"), 4321));
        assert!(!local_host(None, 4321));
        let (_dir, site) = site_with(&[("index.html", "home")]);
        let addr = serving(site);
        let answer = exchange(addr, "GET / HTTP/1.1\r\nhost: evil.example\r\n\r\n");
        assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
        assert!(!answer.contains("home"));
    }

    #[test]
    fn oversized_and_streamed_bodies_are_refused() {
        let (_dir, site) = site_with(&[("index.html", "home")]);
        let addr = serving(site);
        let answer = exchange(
            addr,
            "POST /api/x HTTP/1.1\r\ncontent-length: 999999999\r\n\r\n",
        );
        assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
        let answer = exchange(
            addr,
            "POST /api/x HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n",
        );
        assert!(answer.starts_with("HTTP/1.1 411"), "{answer}");
        let answer = exchange(addr, "NOT HTTP\r\n\r\n");
        assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    }

    /// Live pages with the preview's `_redirects`; `astro dev` at `astro`.
    fn live_site(astro: Option<SocketAddr>) -> (tempfile::TempDir, Site) {
        let dir = tempfile::tempdir().unwrap();
        let generated = dir.path().join(crate::run::build::GENERATED_DIR);
        std::fs::create_dir_all(&generated).unwrap();
        std::fs::write(generated.join("_redirects"), "/contact /contact-us/ 301\n").unwrap();
        let live = LivePages::new(dir.path().to_path_buf());
        *live.astro.write().unwrap() = astro;
        let site = Site::new(
            Pages::Live(live),
            Arc::new(Hub::default()),
            Api::Off("off".into()),
        );
        (dir, site)
    }

    #[test]
    fn live_requests_get_the_sites_redirects_and_slash_rule_before_astro_dev() {
        let (_dir, waiting) = live_site(None);
        assert_eq!(resolve(&waiting, "/", "", "GET"), Answer::NoBuildYet);
        let astro = SocketAddr::from(([127, 0, 0, 1], 4391));
        let (_dir, site) = live_site(Some(astro));
        let get = |p: &str, q: &str| resolve(&site, p, q, "GET");
        assert_eq!(
            get("/contact", "?x=1"),
            Answer::Redirect(301, "/contact-us/?x=1".into())
        );
        assert_eq!(
            get("/search", "?make=kia"),
            Answer::Redirect(307, "/search/?make=kia".into())
        );
        for passed in [
            "/",
            "/search/",
            "/cars/a.json",
            "/@vite/client",
            "/@id/astro:scripts/page.js",
        ] {
            assert_eq!(get(passed, ""), Answer::Live(astro), "{passed}");
        }
        assert_eq!(get("/_redirects", ""), Answer::Status(404, "not found"));
        assert_eq!(get("/%2e%2e/x", ""), Answer::Status(400, "bad path"));
        assert_eq!(
            resolve(&site, "/", "", "POST"),
            Answer::Status(405, "method not allowed")
        );
    }

    /// What a peer sent up to the end of its head (or until it closed).
    fn read_head(s: &mut TcpStream) -> Vec<u8> {
        let mut head = Vec::new();
        let mut buf = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            match s.read(&mut buf).unwrap() {
                0 => break,
                n => head.extend_from_slice(&buf[..n]),
            }
        }
        head
    }

    /// A stand-in for `astro dev`: answers each connection with `answer`
    /// and hands back the request it read.
    fn stand_in(answer: &'static str) -> (SocketAddr, std::sync::mpsc::Receiver<String>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let mut s = stream.unwrap();
                let req = read_head(&mut s);
                let _ = tx.send(String::from_utf8_lossy(&req).into_owned());
                let _ = s.write_all(answer.as_bytes());
            }
        });
        (addr, rx)
    }

    #[test]
    fn a_live_page_comes_from_astro_dev_with_the_dev_script_and_no_caching() {
        let (astro, requests) = stand_in(
            "HTTP/1.1 404 Not Found\r\ncontent-type: text/html\r\netag: \"abc\"\r\ncache-control: max-age=60\r\ntransfer-encoding: chunked\r\n\r\n18\r\n<head></head><p>gone</p>\r\n0\r\n\r\n",
        );
        let (_dir, site) = live_site(Some(astro));
        let addr = serving(site);
        let answer = exchange(
            addr,
            "GET /nowhere/?q=1 HTTP/1.1\r\nhost: x\r\naccept: text/html\r\ncookie: secret=1\r\nconnection: close\r\n\r\n",
        );
        let sent = requests.recv_timeout(Duration::from_secs(5)).unwrap();
        assert!(sent.starts_with("GET /nowhere/?q=1 HTTP/1.1\r\n"), "{sent}");
        assert!(sent.contains("accept: text/html"), "{sent}");
        assert!(
            !sent.contains("secret"),
            "only the listed headers go: {sent}"
        );
        assert!(answer.starts_with("HTTP/1.1 404"), "{answer}");
        assert!(
            answer.contains(&format!("<head>{CLIENT_TAG}</head><p>gone</p>")),
            "{answer}"
        );
        assert!(answer.contains("cache-control: no-store"), "{answer}");
        assert!(
            !answer.contains("etag") && !answer.contains("max-age"),
            "{answer}"
        );
        assert!(!answer.contains("transfer-encoding"), "{answer}");

        // A module passes unchanged, with its tag.
        let (astro, _) = stand_in(
            "HTTP/1.1 200 OK\r\ncontent-type: text/javascript\r\netag: \"m1\"\r\ncontent-length: 9\r\n\r\nexport {}",
        );
        let (_dir, site) = live_site(Some(astro));
        let answer = exchange(
            serving(site),
            "GET /@vite/client HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
        );
        assert!(
            answer.contains("etag: \"m1\"") && answer.ends_with("export {}"),
            "{answer}"
        );
        assert!(!answer.contains("__dealergen"), "{answer}");

        // astro dev gone: a clear 502.
        let gone = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap();
        let (_dir, site) = live_site(Some(gone));
        let answer = exchange(
            serving(site),
            "GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
        );
        assert!(answer.starts_with("HTTP/1.1 502"), "{answer}");
        assert!(answer.contains("astro dev"), "{answer}");
    }

    #[test]
    fn vites_websocket_is_tunnelled_both_ways() {
        // A stand-in that answers the upgrade and echoes what follows.
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let astro = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let req = read_head(&mut s);
            let mut buf = [0u8; 1024];
            assert!(String::from_utf8_lossy(&req).contains("?token=t HTTP/1.1"));
            s.write_all(b"HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\n\r\n").unwrap();
            let n = s.read(&mut buf).unwrap();
            s.write_all(&buf[..n]).unwrap();
        });
        let (_dir, site) = live_site(Some(astro));
        let addr = serving(site);
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        write!(
            s,
            "GET /?token=t HTTP/1.1\r\nhost: {addr}\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-key: a\r\n\r\n"
        )
        .unwrap();
        let head = read_head(&mut s);
        assert!(
            head.starts_with(b"HTTP/1.1 101"),
            "{}",
            String::from_utf8_lossy(&head)
        );
        s.write_all(b"frame").unwrap();
        let mut echoed = [0u8; 5];
        s.read_exact(&mut echoed).unwrap();
        assert_eq!(&echoed, b"frame");
    }
}
