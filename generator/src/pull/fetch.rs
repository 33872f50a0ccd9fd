//! Getting a feed's bytes into a temporary file next to the feed: over
//! HTTP (conditional request, timeout per attempt, retries with backoff,
//! redirects followed by hand so a secret header never leaves the feed's
//! origin) or from an exported file. Nothing here looks inside the feed.

use std::io::{Read, Write};
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use tempfile::NamedTempFile;
use url::Url;

use super::pull_state::PullState;

/// The largest feed accepted: ~100,000 cars of rich records. A larger
/// answer is a broken export or a hostile server, not stock.
pub const MAX_FEED_BYTES: u64 = 512 * 1024 * 1024;

/// Redirects followed (feed services often hand out signed storage URLs).
const MAX_REDIRECTS: u32 = 5;

/// Longest wait honoured from a `Retry-After` header.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);

/// A downloaded or copied feed, not yet checked.
#[derive(Debug)]
pub struct Fetched {
    /// In the feed's folder, so it can be renamed into place atomically.
    pub file: NamedTempFile,
    pub bytes: u64,
    /// The server's validators, for the next conditional request.
    pub etag: Option<String>,
    pub last_modified: Option<String>,
}

#[derive(Debug)]
pub enum Fetch {
    /// 304: the feed in place is current.
    NotModified,
    Body(Fetched),
}

/// How to ask a feed server.
#[derive(Debug, Clone)]
pub struct HttpSettings {
    /// Whole-attempt budget: connecting, waiting and reading the body.
    pub timeout: Duration,
    /// Attempts after the first.
    pub retries: u32,
    /// Pause before the first retry; doubled for each one after.
    pub backoff: Duration,
    /// A secret header (name, value), sent to the feed's origin only.
    pub auth: Option<(String, String)>,
}

/// Why one attempt failed, and whether another may do better.
#[derive(Debug)]
struct Failure {
    message: String,
    retry: bool,
    retry_after: Option<Duration>,
}

impl Failure {
    fn fatal(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            retry: false,
            retry_after: None,
        }
    }
    fn transient(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            retry: true,
            retry_after: None,
        }
    }
}

/// Fetches `url` into a temporary file in `dir`. `known` is the state of
/// the feed in place (its validators are sent, so an unchanged feed costs
/// a 304). `log` hears about each failed attempt.
pub fn fetch_url(
    url: &str,
    known: Option<&PullState>,
    settings: &HttpSettings,
    dir: &Path,
    log: &dyn Fn(&str),
) -> Result<Fetch> {
    let start = Url::parse(url).with_context(|| format!("`{url}` is not a URL"))?;
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(settings.timeout))
        .http_status_as_error(false)
        .max_redirects(0)
        .user_agent(concat!(
            "dealergen/",
            env!("CARGO_PKG_VERSION"),
            " (stock pull)"
        ))
        .build()
        .into();
    let attempts = settings.retries + 1;
    let mut pause = settings.backoff;
    for attempt in 1..=attempts {
        match attempt_once(&agent, &start, known, settings, dir) {
            Ok(done) => return Ok(done),
            Err(f) if f.retry && attempt < attempts => {
                let wait = f.retry_after.unwrap_or(pause).min(MAX_RETRY_AFTER);
                log(&format!(
                    "attempt {attempt} of {attempts} failed: {}; trying again in {:.1}s",
                    f.message,
                    wait.as_secs_f64()
                ));
                std::thread::sleep(wait);
                pause = pause.saturating_mul(2);
            }
            Err(f) => {
                let tries = if attempt > 1 {
                    format!(" (after {attempt} attempts)")
                } else {
                    String::new()
                };
                anyhow::bail!("{}{tries}", f.message);
            }
        }
    }
    unreachable!("the last attempt returns")
}

fn attempt_once(
    agent: &ureq::Agent,
    start: &Url,
    known: Option<&PullState>,
    settings: &HttpSettings,
    dir: &Path,
) -> Result<Fetch, Failure> {
    let mut current = start.clone();
    for _ in 0..=MAX_REDIRECTS {
        let mut req = agent.get(current.as_str());
        if current.origin() == start.origin() {
            if let Some((name, value)) = &settings.auth {
                req = req.header(name.as_str(), value.as_str());
            }
        }
        let conditional = known.is_some();
        if let Some(state) = known {
            if let Some(etag) = &state.etag {
                req = req.header("If-None-Match", etag.as_str());
            }
            if let Some(lm) = &state.last_modified {
                req = req.header("If-Modified-Since", lm.as_str());
            }
        }
        let resp = req.call().map_err(|e| request_failure(&current, e))?;
        let status = resp.status().as_u16();
        let header = |name: &str| {
            resp.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        match status {
            200 => {
                let etag = header("etag");
                let last_modified = header("last-modified");
                let (file, bytes) = save_body(resp.into_body(), dir)?;
                return Ok(Fetch::Body(Fetched {
                    file,
                    bytes,
                    etag,
                    last_modified,
                }));
            }
            304 if conditional => return Ok(Fetch::NotModified),
            301 | 302 | 303 | 307 | 308 => {
                let location = header("location").ok_or_else(|| {
                    Failure::fatal(format!("{current} answered {status} without a Location"))
                })?;
                let next = current.join(&location).map_err(|_| {
                    Failure::fatal(format!(
                        "{current} redirects to `{location}`, which is not a URL"
                    ))
                })?;
                if next.scheme() != "https" && !is_loopback(&next) {
                    return Err(Failure::fatal(format!(
                        "{current} redirects to {next}, which is not https; refused"
                    )));
                }
                current = next;
            }
            429 | 500..=599 => {
                return Err(Failure {
                    message: format!("{current} answered {status}"),
                    retry: true,
                    retry_after: header("retry-after")
                        .and_then(|s| s.trim().parse::<u64>().ok())
                        .map(Duration::from_secs),
                });
            }
            401 | 403 => {
                let hint = match &settings.auth {
                    Some((name, _)) => format!(
                        "check the value of the environment variable behind stock.source.auth ({name} header)"
                    ),
                    None => "the feed needs credentials: set stock.source.auth".into(),
                };
                return Err(Failure::fatal(format!(
                    "{current} refused access ({status}); {hint}"
                )));
            }
            _ => {
                return Err(Failure::fatal(format!(
                    "{current} answered {status}; expected 200 with the feed"
                )))
            }
        }
    }
    Err(Failure::fatal(format!(
        "{start} redirects more than {MAX_REDIRECTS} times"
    )))
}

fn is_loopback(url: &Url) -> bool {
    matches!(url.host_str(), Some("localhost" | "127.0.0.1" | "[::1]"))
}

/// A failed request, worded for the marketer; network trouble is worth
/// another attempt, a malformed address is not.
fn request_failure(url: &Url, e: ureq::Error) -> Failure {
    use ureq::Error as E;
    match e {
        E::Timeout(_) => Failure::transient(format!("{url} did not answer in time")),
        E::HostNotFound => Failure::transient(format!("the host of {url} was not found (DNS)")),
        E::Io(io) => Failure::transient(format!("cannot reach {url}: {io}")),
        E::ConnectionFailed => Failure::transient(format!("cannot connect to {url}")),
        E::Protocol(p) => Failure::transient(format!("{url} sent a broken HTTP answer: {p}")),
        E::Tls(t) => Failure::fatal(format!("TLS with {url} failed: {t}")),
        other => Failure::fatal(format!("cannot fetch {url}: {other}")),
    }
}

/// Streams a response body into a temporary file in `dir`.
fn save_body(body: ureq::Body, dir: &Path) -> Result<(NamedTempFile, u64), Failure> {
    let mut reader = body.into_with_config().limit(MAX_FEED_BYTES).reader();
    let mut file = temp_in(dir).map_err(|e| Failure::fatal(format!("{e:#}")))?;
    match std::io::copy(&mut reader, &mut file) {
        Ok(n) => {
            file.flush()
                .map_err(|e| Failure::fatal(format!("cannot write the feed: {e}")))?;
            Ok((file, n))
        }
        Err(e) => {
            let inner = ureq::Error::from(e);
            Err(match inner {
                ureq::Error::BodyExceedsLimit(_) => Failure::fatal(format!(
                    "the feed is larger than {} MB; refused",
                    MAX_FEED_BYTES / 1024 / 1024
                )),
                ureq::Error::Timeout(_) => Failure::transient(
                    "the feed server stopped sending before the feed was complete (timeout)",
                ),
                other => Failure::transient(format!(
                    "the download broke off before the feed was complete ({other})"
                )),
            })
        }
    }
}

/// Copies an exported feed file into a temporary file in `dir`.
pub fn fetch_file(source: &Path, dir: &Path) -> Result<Fetched> {
    let input = std::fs::File::open(source)
        .with_context(|| format!("cannot read the source feed {}", source.display()))?;
    let mut file = temp_in(dir)?;
    let bytes = std::io::copy(&mut input.take(MAX_FEED_BYTES + 1), &mut file)
        .with_context(|| format!("cannot copy {}", source.display()))?;
    anyhow::ensure!(
        bytes <= MAX_FEED_BYTES,
        "the source feed {} is larger than {} MB; refused",
        source.display(),
        MAX_FEED_BYTES / 1024 / 1024
    );
    file.flush()?;
    Ok(Fetched {
        file,
        bytes,
        etag: None,
        last_modified: None,
    })
}

fn temp_in(dir: &Path) -> Result<NamedTempFile> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    tempfile::Builder::new()
        .prefix(".pull-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .with_context(|| format!("cannot write in {}", dir.display()))
}
