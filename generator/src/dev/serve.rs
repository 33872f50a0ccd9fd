//! The preview server on 127.0.0.1: the dealer's last good build with the
//! CDN's URL rules (`/a/` → `/a/index.html`, `/a` → 307 `/a/`, else
//! `404.html`; `_redirects` and `_headers` applied), `/api/*` passed to the
//! local worker, the reload event stream, and the dev script added to every
//! HTML answer on its way out (never to the built files).
//!
//! HTTP/1.1 over std's sockets, one thread per connection (httparse reads
//! the request head): a browser keeps six connections open per site and an
//! event stream per tab, and a fixed pool of workers owning whole
//! connections stalls the seventh until one closes.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, SystemTime};

use anyhow::{anyhow, Result};

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

/// Connections served at once; more get 503 (each tab's event stream holds one).
const MAX_CONNECTIONS: usize = 512;
/// The largest request body taken (the worker's own limits are lower).
const MAX_BODY: usize = 8 * 1024 * 1024;
/// The largest request or answer head.
const MAX_HEAD: usize = 64 * 1024;
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

/// One request as read from the socket.
#[derive(Debug)]
pub struct Request {
    pub method: String,
    /// Path and query, as sent.
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// HTTP/1.1 without `Connection: close`.
    pub keep_alive: bool,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Why no request could be read.
enum ReadError {
    /// The client closed the connection (or went idle): nothing to answer.
    Closed,
    /// A malformed or oversized request: answer this status and close.
    Bad(u16, &'static str),
}

/// Reads one request; `buf` keeps bytes read past it (a pipelined next one).
fn read_request(stream: &mut TcpStream, buf: &mut Vec<u8>) -> Result<Request, ReadError> {
    let mut chunk = [0u8; 8192];
    let (head_len, method, target, headers, version) = loop {
        let mut slots = [httparse::EMPTY_HEADER; 96];
        let mut req = httparse::Request::new(&mut slots);
        match req.parse(buf) {
            Ok(httparse::Status::Complete(n)) => {
                let headers = req
                    .headers
                    .iter()
                    .map(|h| {
                        (
                            h.name.to_string(),
                            String::from_utf8_lossy(h.value).into_owned(),
                        )
                    })
                    .collect::<Vec<_>>();
                break (
                    n,
                    req.method.unwrap_or("GET").to_string(),
                    req.path.unwrap_or("/").to_string(),
                    headers,
                    req.version.unwrap_or(1),
                );
            }
            Ok(httparse::Status::Partial) => {}
            Err(httparse::Error::TooManyHeaders) => {
                return Err(ReadError::Bad(431, "too many headers"))
            }
            Err(_) => return Err(ReadError::Bad(400, "malformed request")),
        }
        if buf.len() > MAX_HEAD {
            return Err(ReadError::Bad(431, "request head too large"));
        }
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return Err(ReadError::Closed),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    };
    let mut request = Request {
        keep_alive: false,
        method,
        target,
        headers,
        body: Vec::new(),
    };
    let connection = request
        .header("connection")
        .unwrap_or("")
        .to_ascii_lowercase();
    request.keep_alive = version == 1 && !connection.contains("close");
    if request
        .header("transfer-encoding")
        .is_some_and(|te| !te.eq_ignore_ascii_case("identity"))
    {
        // Browsers send bodies with a length; a streamed one is refused.
        return Err(ReadError::Bad(411, "send the body with a Content-Length"));
    }
    let length = match request.header("content-length") {
        None => 0,
        Some(v) => match v.trim().parse::<usize>() {
            Ok(n) if n <= MAX_BODY => n,
            Ok(_) => return Err(ReadError::Bad(413, "request body too large")),
            Err(_) => return Err(ReadError::Bad(400, "bad Content-Length")),
        },
    };
    buf.drain(..head_len);
    if length > buf.len()
        && request
            .header("expect")
            .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
    {
        let _ = stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    while buf.len() < length {
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return Err(ReadError::Closed),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
    request.body = buf.drain(..length).collect();
    Ok(request)
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        411 => "Length Required",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "",
    }
}

/// Writes a whole answer with its length.
fn respond(
    stream: &mut TcpStream,
    status: u16,
    headers: &[(String, String)],
    body: &[u8],
    head_only: bool,
    keep_alive: bool,
) -> std::io::Result<()> {
    let mut head = format!("HTTP/1.1 {status} {}\r\n", reason(status));
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!(
        "content-length: {}\r\nconnection: {}\r\n\r\n",
        body.len(),
        if keep_alive { "keep-alive" } else { "close" }
    ));
    let mut out = head.into_bytes();
    if !head_only {
        out.extend_from_slice(body);
    }
    stream.write_all(&out)?;
    stream.flush()
}

fn text(status: u16, body: &str) -> (u16, Vec<(String, String)>, Vec<u8>) {
    (
        status,
        vec![("content-type".into(), "text/plain; charset=utf-8".into())],
        format!("{body}\n").into_bytes(),
    )
}

fn json(status: u16, value: serde_json::Value) -> (u16, Vec<(String, String)>, Vec<u8>) {
    (
        status,
        vec![("content-type".into(), "application/json".into())],
        value.to_string().into_bytes(),
    )
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
            return events(site, stream);
        }
        if path == "/api" || path.starts_with("/api/") {
            let api = site.api.read().expect("api lock").clone();
            match api {
                // The worker's answer goes back as it comes, then the
                // connection closes (so its framing never matters here).
                Api::Worker(addr) => return proxy(&request, stream, addr),
                Api::Off(why) => {
                    let (s, h, b) = json(503, serde_json::json!({ "error": why }));
                    if respond(&mut stream, s, &h, &b, false, request.keep_alive).is_err() {
                        return;
                    }
                }
            }
        } else {
            let head_only = request.method == "HEAD";
            let (status, headers, body) = answer(site, &path, &query, &request.method);
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

/// A page, file or the dev script: (status, headers, body).
fn answer(
    site: &Site,
    path: &str,
    query: &str,
    method: &str,
) -> (u16, Vec<(String, String)>, Vec<u8>) {
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
pub fn resolve(site: &Site, raw_path: &str, query: &str, method: &str) -> Answer {
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
    if method != "GET" && method != "HEAD" {
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
        // 307, as workerd's `html_handling = "auto-trailing-slash"` answers
        // (checked against wrangler dev on the deployed settings).
        return Answer::Redirect(307, format!("{raw_path}/{query}"));
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

/// The event stream: the first frames, then each event as it comes, and a
/// comment every 15 s so a closed page is noticed.
fn events(site: &Site, mut out: TcpStream) {
    let (first, feed) = site.hub.subscribe();
    let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-store\r\nconnection: close\r\n\r\nretry: 1000\n\n";
    if out.write_all(head.as_bytes()).is_err() {
        return;
    }
    for f in first {
        if out.write_all(f.as_bytes()).is_err() {
            return;
        }
    }
    loop {
        let msg = match feed.recv_timeout(Duration::from_secs(15)) {
            Ok(m) if m.is_empty() => continue,
            Ok(m) => m,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => ": keep-alive\n\n".to_string(),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return,
        };
        if out.write_all(msg.as_bytes()).is_err() {
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
/// its answer back byte for byte; the browser's connection then closes.
fn proxy(request: &Request, mut client: TcpStream, worker: SocketAddr) {
    let mut head = format!("{} {} HTTP/1.1\r\n", request.method, request.target);
    for (name, value) in &request.headers {
        if !HOP_BY_HOP.contains(&name.to_ascii_lowercase().as_str()) {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
    }
    head.push_str(&format!(
        "content-length: {}\r\nconnection: close\r\n\r\n",
        request.body.len()
    ));
    let upstream = (|| -> std::io::Result<(Vec<u8>, Vec<u8>, TcpStream)> {
        let mut up = TcpStream::connect_timeout(&worker, Duration::from_secs(3))?;
        up.set_read_timeout(Some(Duration::from_secs(120)))?;
        up.write_all(head.as_bytes())?;
        up.write_all(&request.body)?;
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
    let (head, rest, mut up) = match upstream {
        Ok(a) => a,
        Err(e) => {
            let (s, h, b) = json(
                502,
                serde_json::json!({ "error": format!("the edge worker did not answer: {e}") }),
            );
            let _ = respond(&mut client, s, &h, &b, false, false);
            return;
        }
    };
    // The worker's head without its connection headers, and ours instead:
    // the body is passed on as framed (length, chunks, or to the close).
    let head = String::from_utf8_lossy(&head).into_owned();
    let mut out = String::new();
    for (i, line) in head.split("\r\n").filter(|l| !l.is_empty()).enumerate() {
        let name = line
            .split(':')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if i > 0 && (name == "connection" || name == "keep-alive") {
            continue;
        }
        out.push_str(line);
        out.push_str("\r\n");
    }
    out.push_str("connection: close\r\n\r\n");
    if client.write_all(out.as_bytes()).is_err() || client.write_all(&rest).is_err() {
        return;
    }
    let _ = std::io::copy(&mut up, &mut client);
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
            resolve(&site, "/", "", "POST"),
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
}
