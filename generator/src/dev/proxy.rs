//! `/api/*` under `dealergen dev`: each request passed to the local edge
//! worker unchanged, and its answer back byte for byte; and the live
//! pages' WebSocket (Vite's channel) tunnelled to `astro dev`.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use super::http::{find, json, respond, Request, MAX_HEAD};

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
pub fn pass(request: &Request, mut client: TcpStream, worker: SocketAddr) {
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

/// A WebSocket upgrade passed to `upstream` as it came (with `early`, any
/// bytes the client sent after it), then the bytes of both directions
/// copied until either side closes.
pub fn tunnel(request: &Request, early: &[u8], client: TcpStream, upstream: SocketAddr) {
    let mut head = format!("{} {} HTTP/1.1\r\n", request.method, request.target);
    for (name, value) in &request.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let Ok(mut up) = TcpStream::connect_timeout(&upstream, Duration::from_secs(3)) else {
        let mut client = client;
        let (s, h, b) = super::http::text(502, "the live pages (astro dev) are not running");
        let _ = respond(&mut client, s, &h, &b, false, false);
        return;
    };
    if up.write_all(head.as_bytes()).is_err() || up.write_all(early).is_err() {
        return;
    }
    let (Ok(mut up_read), Ok(mut client_write)) = (up.try_clone(), client.try_clone()) else {
        return;
    };
    let _ = client.set_read_timeout(None);
    let mut client_read = client;
    let back = std::thread::spawn(move || {
        let _ = std::io::copy(&mut up_read, &mut client_write);
        let _ = client_write.shutdown(std::net::Shutdown::Both);
    });
    let _ = std::io::copy(&mut client_read, &mut up);
    let _ = up.shutdown(std::net::Shutdown::Both);
    let _ = back.join();
}
