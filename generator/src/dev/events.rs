//! The pages' event stream (server-sent events on `/__dealergen/events`):
//! `hello` on connect (the build the server has, so a page opened on an
//! older build reloads after a reconnect, and whether an overlay follows,
//! so a page or a test knows at once that none will), `building`, `reload` after a
//! good build, and `overlay` with the problems of a failed one. The last
//! overlay is repeated to every page that connects until a build succeeds,
//! so a reload never hides it.

use std::io::Write;
use std::net::TcpStream;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Mutex;
use std::time::Duration;

use serde::Serialize;

/// What the overlay shows: a title, the problems as the terminal prints
/// them, and each problem's place for a link-free list.
#[derive(Debug, Clone, Serialize)]
pub struct Overlay {
    pub title: String,
    /// What the page under the overlay is (the last good build or preview,
    /// or the change that would not publish).
    pub note: String,
    /// The text `dealergen check` prints (or the build error).
    pub text: String,
    pub problems: Vec<Problem>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Problem {
    /// `file:line:column`.
    pub at: String,
    pub message: String,
}

#[derive(Default)]
pub struct Hub {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    clients: Vec<Sender<String>>,
    /// Counts good builds since the server started.
    build: u64,
    overlay: Option<String>,
}

/// One event as the stream carries it (the data is one JSON line).
fn frame(event: &str, data: &impl Serialize) -> String {
    let json = serde_json::to_string(data).expect("event data serialises");
    format!("event: {event}\ndata: {json}\n\n")
}

impl Hub {
    /// A hub whose build numbers start at this moment's milliseconds, so a
    /// page still open from an earlier `dealergen dev` reloads when it
    /// reconnects to this one.
    pub fn new() -> Self {
        let start = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0);
        Hub {
            inner: Mutex::new(Inner {
                build: start,
                ..Inner::default()
            }),
        }
    }

    /// A new page: the frames to send it first, and its feed of events.
    pub fn subscribe(&self) -> (Vec<String>, Receiver<String>) {
        let (tx, rx) = channel();
        let mut inner = self.inner.lock().expect("hub lock");
        let mut first = vec![frame(
            "hello",
            &serde_json::json!({ "build": inner.build, "overlay": inner.overlay.is_some() }),
        )];
        first.extend(inner.overlay.clone());
        inner.clients.push(tx);
        (first, rx)
    }

    /// Pages connected now.
    pub fn clients(&self) -> usize {
        let mut inner = self.inner.lock().expect("hub lock");
        // A page that left is noticed at the next send; count the living.
        inner.clients.retain(|c| c.send(String::new()).is_ok());
        inner.clients.len()
    }

    pub fn building(&self) {
        self.broadcast(
            &mut self.inner.lock().expect("hub lock"),
            frame("building", &serde_json::json!({})),
        );
    }

    /// A good build: the overlay goes, every page reloads. Returns the
    /// number of pages told.
    pub fn reload(&self) -> usize {
        let mut inner = self.inner.lock().expect("hub lock");
        inner.build += 1;
        inner.overlay = None;
        let msg = frame("reload", &serde_json::json!({ "build": inner.build }));
        self.broadcast(&mut inner, msg)
    }

    /// A failed build: every page shows `overlay` over the last good build.
    pub fn overlay(&self, overlay: &Overlay) -> usize {
        let msg = frame("overlay", overlay);
        let mut inner = self.inner.lock().expect("hub lock");
        inner.overlay = Some(msg.clone());
        self.broadcast(&mut inner, msg)
    }

    /// Whether an overlay is up (the last build failed).
    pub fn failing(&self) -> bool {
        self.inner.lock().expect("hub lock").overlay.is_some()
    }

    fn broadcast(&self, inner: &mut Inner, msg: String) -> usize {
        inner.clients.retain(|c| c.send(msg.clone()).is_ok());
        inner.clients.len()
    }
}

/// The event stream: the first frames, then each event as it comes, and a
/// comment every 15 s so a closed page is noticed.
pub fn stream(hub: &Hub, mut out: TcpStream) {
    let (first, feed) = hub.subscribe();
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

#[cfg(test)]
mod tests {
    use super::*;

    fn overlay() -> Overlay {
        Overlay {
            note: "The page below is the last good build.".into(),
            title: "dealers/x.yaml has 1 problem".into(),
            text: "error: bad\n  --> dealers/x.yaml:3:7\n".into(),
            problems: vec![Problem {
                at: "dealers/x.yaml:3:7".into(),
                message: "bad".into(),
            }],
        }
    }

    #[test]
    fn an_overlay_stays_for_new_pages_until_a_good_build() {
        let hub = Hub::default();
        let (first, rx) = hub.subscribe();
        assert_eq!(
            first,
            ["event: hello\ndata: {\"build\":0,\"overlay\":false}\n\n"]
        );
        assert_eq!(hub.overlay(&overlay()), 1);
        let got = rx.try_recv().unwrap();
        assert!(got.starts_with("event: overlay\ndata: {"), "{got}");
        assert!(
            !got.trim_end().contains("\n\n"),
            "one data line per event: {got}"
        );
        assert!(got.contains("dealers/x.yaml:3:7"));

        // A page opened now gets the overlay at once.
        let (first, _rx2) = hub.subscribe();
        assert_eq!(first.len(), 2);
        assert_eq!(
            first[0],
            "event: hello\ndata: {\"build\":0,\"overlay\":true}\n\n"
        );
        assert!(first[1].starts_with("event: overlay"));
        assert!(hub.failing());

        assert_eq!(hub.reload(), 2);
        assert_eq!(
            rx.try_recv().unwrap(),
            "event: reload\ndata: {\"build\":1}\n\n"
        );
        assert!(!hub.failing());
        let (first, _rx3) = hub.subscribe();
        assert_eq!(
            first,
            ["event: hello\ndata: {\"build\":1,\"overlay\":false}\n\n"]
        );
    }

    #[test]
    fn pages_that_left_are_dropped() {
        let hub = Hub::default();
        let (_, rx) = hub.subscribe();
        let (_, _kept) = hub.subscribe();
        drop(rx);
        assert_eq!(hub.clients(), 1);
    }
}
