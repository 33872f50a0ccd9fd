//! `dealergen stock pull`: fetch a dealer's feed from `stock.source`, check
//! it with the build's own decoder, and only then put it in place of
//! `stock.feed` (a rename: a reader never sees half a feed).
//!
//! A feed that does not parse, holds no car, or would shrink the site by
//! more than `stock.source.max_drop_percent` is refused and the previous
//! feed kept: a broken export must never empty a dealer's site.

pub mod fetch;
pub mod pull_state;

use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};
use dealer_config::model::{SourceLocation, StockSource};
use dealer_config::{DealerConfig, Loader, Rejected};
use serde::Serialize;

use crate::pipeline::stock::{self, feed};
use crate::project::Project;
use fetch::{Fetch, Fetched, HttpSettings};
use pull_state::PullState;

/// How a pull behaves beyond the dealer's settings.
#[derive(Debug, Clone)]
pub struct PullOptions {
    /// Take a feed even when the drop guard would refuse it.
    pub accept_drop: bool,
    /// Cars are counted as the site would show them at this moment.
    pub now: DateTime<Utc>,
    /// Pause before the first retry (doubled for each one after).
    pub backoff: Duration,
}

impl Default for PullOptions {
    fn default() -> Self {
        PullOptions {
            accept_drop: false,
            now: Utc::now(),
            backoff: Duration::from_secs(1),
        }
    }
}

/// Cars in a feed: records that are cars, and those the site would show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Records decoded as cars (before the visibility rules).
    pub cars: usize,
    /// Cars the site shows (after them, at the pull's moment).
    pub shown: usize,
}

/// What a successful pull did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Pulled {
    /// A new feed is in place.
    Updated {
        before: Option<Counts>,
        after: Counts,
        bytes: u64,
        /// Records of the new feed skipped for lack of a car's essentials.
        skipped: usize,
        /// Fields of kept cars left out.
        warnings: usize,
        /// The drop guard would have refused it; `--accept-drop` took it.
        drop_accepted: bool,
    },
    /// The server said 304, or sent the same bytes as the feed in place.
    Unchanged { reason: String },
}

/// Why a pull did not replace the feed. The previous feed is always kept.
#[derive(Debug)]
pub enum PullFailure {
    /// The dealer file has problems.
    Invalid(Box<Rejected>),
    /// The dealer has no `stock.source`.
    NoSource,
    /// The feed could not be fetched (network, server, file).
    Fetch(anyhow::Error),
    /// What was fetched is not a usable feed.
    Malformed(String),
    /// The new feed would shrink the site by more than the guard allows.
    Drop {
        before: Counts,
        after: Counts,
        drop_percent: u32,
        max_percent: u32,
    },
    /// Writing the feed or its state failed.
    Write(anyhow::Error),
}

impl std::fmt::Display for PullFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PullFailure::Invalid(r) => write!(
                f,
                "the dealer file has problems; run `dealergen check --dealer {}`",
                r.slug
            ),
            PullFailure::NoSource => write!(
                f,
                "no stock.source in the dealer file: nothing to pull (add `stock.source.url` or `stock.source.file`)"
            ),
            PullFailure::Fetch(e) => write!(f, "{e:#}; the previous feed was kept"),
            PullFailure::Malformed(m) => write!(f, "{m}; the previous feed was kept"),
            PullFailure::Drop {
                before,
                after,
                drop_percent,
                max_percent,
            } => write!(
                f,
                "the new feed would show {} cars instead of {} ({drop_percent}% fewer; stock.source.max_drop_percent allows {max_percent}%); \
                 the previous feed was kept. Check the feed at its source, or take it anyway with --accept-drop",
                after.shown, before.shown
            ),
            PullFailure::Write(e) => write!(f, "{e:#}"),
        }
    }
}

/// One dealer's pull, for the command's summary.
#[derive(Debug)]
pub struct PullReport {
    pub slug: String,
    /// The feed file written (or kept).
    pub feed: PathBuf,
    pub result: Result<Pulled, PullFailure>,
    /// The feed in place has stopped updating (`stock.max_age_hours`;
    /// pipeline::stock::freshness): what to tell the team. Empty when fresh
    /// or when the pull failed.
    pub stale: Vec<String>,
}

/// Reads an environment variable; tests pass their own.
pub type EnvLookup<'a> = &'a (dyn Fn(&str) -> Option<String> + Sync);

/// Pulls one dealer's feed. `log` hears about retries.
pub fn pull_dealer(
    project: &Project,
    dealer_file: &Path,
    opts: &PullOptions,
    env: EnvLookup,
    log: &dyn Fn(&str),
) -> PullReport {
    let slug = dealer_file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string();
    let loader = Loader::new(project.presets_dir());
    let dealer = match loader.load(dealer_file) {
        Ok(d) => d,
        Err(r) => {
            return PullReport {
                slug,
                feed: PathBuf::new(),
                result: Err(PullFailure::Invalid(Box::new(r))),
                stale: Vec::new(),
            }
        }
    };
    let feed_path = dealer.dir().join(&dealer.config.stock.feed);
    let result = match &dealer.config.stock.source {
        None => Err(PullFailure::NoSource),
        Some(source) => pull(
            &dealer.config,
            source,
            dealer.dir(),
            &feed_path,
            opts,
            env,
            log,
        ),
    };
    // After a pull (new or unchanged), the feed in place: has it stopped updating?
    let stale = if result.is_ok() {
        let newest = crate::pipeline::stock::feed::load(&feed_path)
            .ok()
            .and_then(|f| crate::pipeline::stock::freshness::newest_record(&f.cars));
        crate::pipeline::stock::freshness::warnings(
            crate::pipeline::stock::freshness::file_changed(&feed_path),
            newest,
            opts.now,
            dealer.config.stock.max_age_hours,
        )
    } else {
        Vec::new()
    };
    PullReport {
        slug,
        feed: feed_path,
        result,
        stale,
    }
}

fn pull(
    cfg: &DealerConfig,
    source: &StockSource,
    dealer_dir: &Path,
    feed_path: &Path,
    opts: &PullOptions,
    env: EnvLookup,
    log: &dyn Fn(&str),
) -> Result<Pulled, PullFailure> {
    let feed_dir = feed_path.parent().unwrap_or(Path::new("."));
    let (fetched, url) = match source.location() {
        Some(SourceLocation::Url(url)) => {
            let auth = match &source.auth {
                None => None,
                Some(a) => match env(&a.env) {
                    Some(v) if !v.is_empty() => Some((a.header.clone(), v)),
                    // Named, never printed: the value is a secret.
                    _ => {
                        return Err(PullFailure::Fetch(anyhow::anyhow!(
                            "the environment variable {} (stock.source.auth.env) is not set; it holds the {} header for the feed",
                            a.env,
                            a.header
                        )))
                    }
                },
            };
            let settings = HttpSettings {
                timeout: Duration::from_secs(u64::from(source.timeout_secs)),
                retries: source.retries,
                backoff: opts.backoff,
                auth,
            };
            let known = pull_state::load(feed_path, url);
            match fetch::fetch_url(url, known.as_ref(), &settings, feed_dir, log) {
                Ok(Fetch::NotModified) => {
                    return Ok(Pulled::Unchanged {
                        reason:
                            "the server says the feed has not changed since the last pull (304)"
                                .into(),
                    })
                }
                Ok(Fetch::Body(f)) => (f, Some(url)),
                Err(e) => return Err(PullFailure::Fetch(e)),
            }
        }
        Some(SourceLocation::File(file)) => {
            let path = dealer_dir.join(file);
            match fetch::fetch_file(&path, feed_dir) {
                Ok(f) => (f, None),
                Err(e) => return Err(PullFailure::Fetch(e)),
            }
        }
        None => return Err(PullFailure::NoSource),
    };
    // The validators are recorded only once the feed they describe is in
    // place: a refused feed must not be taken for the current one next time.
    let remember = |etag: Option<String>, last_modified: Option<String>| {
        let Some(url) = url else { return Ok(()) };
        pull_state::save(
            feed_path,
            &PullState {
                url: url.to_string(),
                etag,
                last_modified,
                fetched_at: opts.now.to_rfc3339(),
            },
        )
        .map_err(PullFailure::Write)
    };

    if same_bytes(fetched.file.path(), feed_path) {
        remember(fetched.etag.clone(), fetched.last_modified.clone())?;
        return Ok(Pulled::Unchanged {
            reason: "the feed is the same as the one in place".into(),
        });
    }

    let text = std::fs::read(fetched.file.path())
        .map_err(|e| PullFailure::Write(anyhow::anyhow!("cannot read back the download: {e}")))?;
    let text = String::from_utf8(text).map_err(|e| {
        PullFailure::Malformed(format!(
            "the new feed is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    if text.trim().is_empty() {
        // `[]` says "no stock"; an empty answer says nothing.
        return Err(PullFailure::Malformed(
            "the new feed is empty (a feed with no cars is written `[]`)".into(),
        ));
    }
    let new_feed = feed::parse(&text, &feed_path.display().to_string())
        .map_err(|e| PullFailure::Malformed(format!("the new feed cannot be used: {e}")))?;
    if new_feed.cars.is_empty() && !new_feed.skipped.is_empty() {
        let first = &new_feed.skipped[0];
        return Err(PullFailure::Malformed(format!(
            "none of the {} record(s) of the new feed is a car (first: {first})",
            new_feed.skipped.len()
        )));
    }
    let (skipped, warnings) = (new_feed.skipped.len(), new_feed.warnings.len());
    let after = counts(new_feed, cfg, opts.now);
    let before = feed::load(feed_path)
        .ok()
        .map(|old| counts(old, cfg, opts.now));

    let mut drop_accepted = false;
    if let Some(before) = before {
        let drop = drop_percent(before.shown, after.shown);
        if drop > source.max_drop_percent {
            if !opts.accept_drop {
                return Err(PullFailure::Drop {
                    before,
                    after,
                    drop_percent: drop,
                    max_percent: source.max_drop_percent,
                });
            }
            drop_accepted = true;
        }
    }

    let Fetched {
        file,
        bytes,
        etag,
        last_modified,
    } = fetched;
    file.persist(feed_path).map_err(|e| {
        PullFailure::Write(anyhow::anyhow!(
            "cannot put the new feed in place at {}: {}",
            feed_path.display(),
            e.error
        ))
    })?;
    remember(etag, last_modified)?;
    Ok(Pulled::Updated {
        before,
        after,
        bytes,
        skipped,
        warnings,
        drop_accepted,
    })
}

/// Counts the cars of a feed as the build would.
fn counts(feed: feed::Feed, cfg: &DealerConfig, now: DateTime<Utc>) -> Counts {
    let cars = feed.cars.len();
    let shown = stock::select(feed, cfg, now).visible.len();
    Counts { cars, shown }
}

/// How many percent fewer cars `after` shows than `before`, rounded up
/// (so 30.2% counts as more than 30%); 0 when it does not shrink.
pub fn drop_percent(before: usize, after: usize) -> u32 {
    if before == 0 || after >= before {
        return 0;
    }
    let lost = (before - after) as u64 * 100;
    lost.div_ceil(before as u64) as u32
}

/// Whether two files hold the same bytes (a missing file differs).
fn same_bytes(a: &Path, b: &Path) -> bool {
    use std::io::Read;
    let (Ok(fa), Ok(fb)) = (std::fs::File::open(a), std::fs::File::open(b)) else {
        return false;
    };
    match (fa.metadata(), fb.metadata()) {
        (Ok(ma), Ok(mb)) if ma.len() == mb.len() => {}
        _ => return false,
    }
    let (mut ra, mut rb) = (std::io::BufReader::new(fa), std::io::BufReader::new(fb));
    let (mut ba, mut bb) = ([0u8; 64 * 1024], [0u8; 64 * 1024]);
    loop {
        let na = match ra.read(&mut ba) {
            Ok(n) => n,
            Err(_) => return false,
        };
        if na == 0 {
            return true;
        }
        if rb.read_exact(&mut bb[..na]).is_err() || ba[..na] != bb[..na] {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_round_up_and_growth_is_no_drop() {
        assert_eq!(drop_percent(100, 70), 30);
        assert_eq!(drop_percent(1000, 698), 31, "30.2% is more than 30%");
        assert_eq!(drop_percent(10, 0), 100);
        assert_eq!(drop_percent(10, 12), 0);
        assert_eq!(drop_percent(0, 0), 0);
    }

    #[test]
    fn same_bytes_compares_content() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b, c) = (
            dir.path().join("a"),
            dir.path().join("b"),
            dir.path().join("c"),
        );
        std::fs::write(&a, "[1,2]").unwrap();
        std::fs::write(&b, "[1,2]").unwrap();
        std::fs::write(&c, "[1,3]").unwrap();
        assert!(same_bytes(&a, &b));
        assert!(!same_bytes(&a, &c));
        assert!(!same_bytes(&a, &dir.path().join("missing")));
    }
}
