//! HTTP/1.1 on std's sockets, as much as the preview server needs: one
//! request read (httparse reads the head; bounded head and body), and a
//! whole answer written with its length.

use std::io::{Read, Write};
use std::net::TcpStream;

/// The largest request body taken (the worker's own limits are lower).
const MAX_BODY: usize = 8 * 1024 * 1024;
/// The largest request or answer head.
pub const MAX_HEAD: usize = 64 * 1024;

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
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Why no request could be read.
pub enum ReadError {
    /// The client closed the connection (or went idle): nothing to answer.
    Closed,
    /// A malformed or oversized request: answer this status and close.
    Bad(u16, &'static str),
}

/// Reads one request; `buf` keeps bytes read past it (a pipelined next one).
pub fn read_request(stream: &mut TcpStream, buf: &mut Vec<u8>) -> Result<Request, ReadError> {
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

pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        307 => "Temporary Redirect",
        304 => "Not Modified",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        411 => "Length Required",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "",
    }
}

/// Writes a whole answer with its length.
pub fn respond(
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

pub fn text(status: u16, body: &str) -> (u16, Vec<(String, String)>, Vec<u8>) {
    (
        status,
        vec![("content-type".into(), "text/plain; charset=utf-8".into())],
        format!("{body}\n").into_bytes(),
    )
}

pub fn json(status: u16, value: serde_json::Value) -> (u16, Vec<(String, String)>, Vec<u8>) {
    (
        status,
        vec![("content-type".into(), "application/json".into())],
        value.to_string().into_bytes(),
    )
}

pub fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
