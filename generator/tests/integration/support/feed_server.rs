//! A scripted HTTP/1.1 server on 127.0.0.1 (an OS-chosen port) for the
//! stock pull tests: each request is answered by a closure that sees the
//! request and how many came before it, and can answer well, badly, late,
//! or with half a body. Every request is recorded for the assertions.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// A request as the server saw it.
#[derive(Debug, Clone)]
pub struct Request {
    pub path: String,
    /// Header names lower-cased.
    pub headers: Vec<(String, String)>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// How to answer one request.
pub enum Reply {
    /// A status with headers and a body (Content-Length set from it).
    Full {
        status: u16,
        headers: Vec<(&'static str, String)>,
        body: Vec<u8>,
    },
    /// Claims `claimed` bytes but sends `body` and closes: a download cut off.
    Truncated { body: Vec<u8>, claimed: usize },
    /// Waits, then answers.
    Late(Duration, Box<Reply>),
}

impl Reply {
    pub fn ok(body: impl Into<Vec<u8>>) -> Reply {
        Reply::Full {
            status: 200,
            headers: vec![("Content-Type", "application/json".into())],
            body: body.into(),
        }
    }
    pub fn ok_with(body: impl Into<Vec<u8>>, headers: Vec<(&'static str, String)>) -> Reply {
        Reply::Full {
            status: 200,
            headers,
            body: body.into(),
        }
    }
    pub fn status(status: u16) -> Reply {
        Reply::Full {
            status,
            headers: vec![],
            body: format!("status {status}").into_bytes(),
        }
    }
    pub fn redirect(location: &str) -> Reply {
        Reply::Full {
            status: 302,
            headers: vec![("Location", location.to_string())],
            body: vec![],
        }
    }
}

type Handler = dyn Fn(&Request, usize) -> Reply + Send + Sync;

pub struct FeedServer {
    pub port: u16,
    requests: Arc<Mutex<Vec<Request>>>,
    stop: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
}

impl FeedServer {
    pub fn start(handler: impl Fn(&Request, usize) -> Reply + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let port = listener.local_addr().unwrap().port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let handler: Arc<Handler> = Arc::new(handler);
        let accept = {
            let (requests, stop) = (requests.clone(), stop.clone());
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    let (requests, handler) = (requests.clone(), handler.clone());
                    std::thread::spawn(move || serve(stream, &requests, &*handler));
                }
            })
        };
        FeedServer {
            port,
            requests,
            stop,
            accept: Some(accept),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }
}

impl Drop for FeedServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(h) = self.accept.take() {
            let _ = h.join();
        }
    }
}

fn serve(stream: TcpStream, requests: &Mutex<Vec<Request>>, handler: &Handler) {
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 || h.trim().is_empty() {
            break;
        }
        if let Some((n, v)) = h.split_once(':') {
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let request = Request { path, headers };
    let n = {
        let mut all = requests.lock().unwrap();
        all.push(request.clone());
        all.len() - 1
    };
    let reply = handler(&request, n);
    let mut out = stream;
    write_reply(&mut out, reply);
}

fn write_reply(out: &mut TcpStream, reply: Reply) {
    match reply {
        Reply::Late(wait, then) => {
            std::thread::sleep(wait);
            write_reply(out, *then);
        }
        Reply::Full {
            status,
            headers,
            body,
        } => {
            let mut head = format!(
                "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n",
                body.len()
            );
            for (n, v) in headers {
                head.push_str(&format!("{n}: {v}\r\n"));
            }
            head.push_str("\r\n");
            let _ = out.write_all(head.as_bytes());
            let _ = out.write_all(&body);
        }
        Reply::Truncated { body, claimed } => {
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Length: {claimed}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"
            );
            let _ = out.write_all(head.as_bytes());
            let _ = out.write_all(&body);
        }
    }
    let _ = out.flush();
    let _ = out.shutdown(std::net::Shutdown::Both);
}
