//! Runs the worker's outbound calls within their deadlines
//! ([`dealer_edge_core::outbound::Call`] says which deadline each kind of
//! call has and why). When the deadline passes the fetch is aborted through
//! its `AbortSignal`, so the connection is closed rather than left running.

use std::future::Future;
use std::pin::pin;
use std::task::Poll;
use std::time::Duration;

pub use dealer_edge_core::outbound::{Call, TimedOut};
use worker::{AbortController, AbortSignal, Delay, Fetch, Request};

/// Runs `work` with the deadline of `call`. `work` gets the `AbortSignal` to
/// hand to `Fetch::send_with_signal`; when the deadline passes first the
/// signal is aborted and `Err(TimedOut)` is answered.
pub async fn within<T, F, Fut>(call: Call, work: F) -> Result<T, TimedOut>
where
    F: FnOnce(AbortSignal) -> Fut,
    Fut: Future<Output = T>,
{
    let controller = AbortController::default();
    let mut work = pin!(work(controller.signal()));
    let mut timer = pin!(Delay::from(Duration::from_secs(call.deadline_secs())));
    let finished = std::future::poll_fn(|cx| {
        if let Poll::Ready(out) = work.as_mut().poll(cx) {
            Poll::Ready(Some(out))
        } else if timer.as_mut().poll(cx).is_ready() {
            Poll::Ready(None)
        } else {
            Poll::Pending
        }
    })
    .await;
    match finished {
        Some(out) => Ok(out),
        None => {
            controller.abort();
            Err(TimedOut(call))
        }
    }
}

/// Sends `request` within the deadline of `call` and reads the body of a
/// 2xx answer as text. Any other status, an unreachable service, a passed
/// deadline or an unreadable body is an error saying which (for the log).
pub async fn send_for_text(call: Call, request: Request) -> Result<String, String> {
    within(call, |signal| async move {
        let mut res = Fetch::Request(request)
            .send_with_signal(&signal)
            .await
            .map_err(|e| format!("unreachable: {e}"))?;
        if !(200..300).contains(&res.status_code()) {
            return Err(format!("answered {}", res.status_code()));
        }
        res.text()
            .await
            .map_err(|e| format!("unreadable answer: {e}"))
    })
    .await
    .map_err(|e| e.to_string())?
}

/// [`send_for_text`], the answer read as JSON.
pub async fn send_for_json(call: Call, request: Request) -> Result<serde_json::Value, String> {
    let text = send_for_text(call, request).await?;
    serde_json::from_str(&text).map_err(|e| format!("unreadable answer: {e}"))
}
