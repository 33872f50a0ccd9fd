//! `dealergen stock pull` against a local feed server: a good feed, 304s,
//! malformed and truncated feeds, a slow server, 500s, the drop guard,
//! the secret header, redirects, file sources, and the command's exit
//! codes and output.

use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::support::feed_server::{FeedServer, Reply};
use dealergen::project::Project;
use dealergen::pull::{self, PullFailure, PullOptions, PullReport, Pulled};
use serde_json::Value;

const SLUG: &str = "tiny-dealer";

use crate::support::repo_root;

fn fixture_feed() -> Vec<Value> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dealers/stock/tiny.json"),
    )
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The fixture feed as text, its first `n` records only.
fn feed_text(n: usize) -> String {
    let cars: Vec<Value> = fixture_feed().into_iter().take(n).collect();
    serde_json::to_string_pretty(&cars).unwrap()
}

/// A copy of the tiny dealer in a temporary folder with `source` (YAML,
/// indented under `stock:`) and, when given, a feed already in place.
struct Dealer {
    dir: tempfile::TempDir,
}

impl Dealer {
    fn new(source: &str, feed: Option<&str>) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let yaml = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dealers/tiny-dealer.yaml"),
        )
        .unwrap();
        let yaml = yaml.replace(
            "  feed: stock/tiny.json\n",
            &format!("  feed: stock/tiny.json\n  source:\n{source}"),
        );
        assert!(
            yaml.contains("source:"),
            "the fixture's stock section moved"
        );
        std::fs::write(dir.path().join(format!("{SLUG}.yaml")), yaml).unwrap();
        std::fs::create_dir_all(dir.path().join("stock")).unwrap();
        if let Some(f) = feed {
            std::fs::write(dir.path().join("stock/tiny.json"), f).unwrap();
        }
        Dealer { dir }
    }

    fn project(&self) -> Project {
        let mut p = Project::new(repo_root());
        p.dealers_dir = self.dir.path().to_path_buf();
        p
    }

    fn feed(&self) -> Option<String> {
        std::fs::read_to_string(self.dir.path().join("stock/tiny.json")).ok()
    }

    fn state(&self) -> Option<Value> {
        std::fs::read_to_string(self.dir.path().join("stock/tiny.json.pull-state.json"))
            .ok()
            .map(|t| serde_json::from_str(&t).unwrap())
    }

    /// Files in the stock folder: no temporary file may be left behind.
    fn stock_files(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.dir.path().join("stock"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn pull_with(&self, opts: &PullOptions, env: &[(&str, &str)]) -> PullReport {
        let env: Vec<(String, String)> = env
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let lookup = move |name: &str| env.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        pull::pull_dealer(
            &self.project(),
            &self.dir.path().join(format!("{SLUG}.yaml")),
            opts,
            &lookup,
            &|_| {},
        )
    }

    fn pull(&self) -> PullReport {
        self.pull_with(&opts(), &[])
    }

    fn cli(&self, args: &[&str]) -> (i32, String, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_dealergen"))
            .arg("--root")
            .arg(repo_root())
            .arg("--dealers-dir")
            .arg(self.dir.path())
            .args(args)
            .current_dir(self.dir.path())
            .env_remove("TINY_FEED_TOKEN")
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

/// The tests' moment (the fixture's sold dates are relative to it) and a
/// short backoff, so retries take milliseconds.
fn opts() -> PullOptions {
    PullOptions {
        accept_drop: false,
        now: chrono::DateTime::parse_from_rfc3339("2026-11-20T00:00:00Z")
            .unwrap()
            .to_utc(),
        backoff: Duration::from_millis(10),
    }
}

fn url_source(server: &FeedServer, extra: &str) -> String {
    format!(
        "    url: {}\n    retries: 2\n    timeout_secs: 2\n{extra}",
        server.url("/stock.json")
    )
}

fn updated(r: &PullReport) -> &Pulled {
    match &r.result {
        Ok(p @ Pulled::Updated { .. }) => p,
        other => panic!("expected an update, got {other:?}"),
    }
}

fn failure(r: &PullReport) -> String {
    match &r.result {
        Err(e) => e.to_string(),
        Ok(p) => panic!("expected a failure, got {p:?}"),
    }
}

#[test]
fn a_good_feed_is_written_with_its_validators_and_a_304_changes_nothing() {
    let body = feed_text(16);
    let server = {
        let body = body.clone();
        FeedServer::start(move |req, _| {
            if req.header("if-none-match") == Some("\"v1\"") {
                return Reply::status(304);
            }
            Reply::ok_with(
                body.clone(),
                vec![
                    ("ETag", "\"v1\"".into()),
                    ("Last-Modified", "Wed, 18 Nov 2026 08:00:00 GMT".into()),
                ],
            )
        })
    };
    let dealer = Dealer::new(&url_source(&server, ""), None);
    let r = dealer.pull();
    let Pulled::Updated {
        before,
        after,
        bytes,
        skipped,
        ..
    } = updated(&r)
    else {
        unreachable!()
    };
    assert_eq!(*before, None, "no feed before the first pull");
    // 16 records: two skipped (no status; a slug used twice), 14 cars, 9 of
    // them shown (the build's rules: sold window, hidden, photos, Lada, other dealership).
    assert_eq!((after.cars, after.shown, *skipped), (14, 9, 2));
    assert_eq!(*bytes as usize, body.len());
    assert_eq!(dealer.feed().as_deref(), Some(body.as_str()));
    let state = dealer.state().expect("state written next to the feed");
    assert_eq!(state["etag"], "\"v1\"");
    assert_eq!(state["last_modified"], "Wed, 18 Nov 2026 08:00:00 GMT");
    assert_eq!(state["url"], server.url("/stock.json"));

    // The second pull asks with the validators and gets a 304.
    let r = dealer.pull();
    assert!(
        matches!(&r.result, Ok(Pulled::Unchanged { reason }) if reason.contains("304")),
        "{:?}",
        r.result
    );
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2);
    assert_eq!(reqs[0].header("if-none-match"), None);
    assert_eq!(reqs[1].header("if-none-match"), Some("\"v1\""));
    assert_eq!(
        reqs[1].header("if-modified-since"),
        Some("Wed, 18 Nov 2026 08:00:00 GMT")
    );
    assert!(reqs[0]
        .header("user-agent")
        .is_some_and(|ua| ua.starts_with("dealergen/")));
    assert_eq!(dealer.feed().as_deref(), Some(body.as_str()));
    assert_eq!(
        dealer.stock_files(),
        ["tiny.json", "tiny.json.pull-state.json"]
    );
}

#[test]
fn the_same_bytes_again_leave_the_feed_alone() {
    let body = feed_text(16);
    let server = {
        let body = body.clone();
        FeedServer::start(move |_, _| Reply::ok(body.clone()))
    };
    let dealer = Dealer::new(&url_source(&server, ""), Some(&body));
    let r = dealer.pull();
    assert!(
        matches!(&r.result, Ok(Pulled::Unchanged { reason }) if reason.contains("same")),
        "{:?}",
        r.result
    );
    assert_eq!(
        dealer.stock_files(),
        ["tiny.json", "tiny.json.pull-state.json"]
    );
}

#[test]
fn a_malformed_feed_keeps_the_previous_one() {
    let old = feed_text(16);
    let server =
        FeedServer::start(|_, _| Reply::ok("<html>Service temporarily unavailable</html>"));
    let dealer = Dealer::new(&url_source(&server, ""), Some(&old));
    let r = dealer.pull();
    let message = failure(&r);
    assert!(
        matches!(r.result, Err(PullFailure::Malformed(_))),
        "{message}"
    );
    assert!(message.contains("none of the"), "{message}");
    assert!(message.ends_with("the previous feed was kept"), "{message}");
    assert_eq!(dealer.feed().as_deref(), Some(old.as_str()));
    assert_eq!(dealer.state(), None, "a refused feed records no validators");
    assert_eq!(
        dealer.stock_files(),
        ["tiny.json"],
        "no temporary file left"
    );
}

#[test]
fn an_empty_answer_is_not_an_empty_stock() {
    let server = FeedServer::start(|_, _| Reply::ok(""));
    let dealer = Dealer::new(&url_source(&server, ""), None);
    let message = failure(&dealer.pull());
    assert!(message.contains("the new feed is empty"), "{message}");
    assert_eq!(dealer.feed(), None);
    assert!(
        dealer.stock_files().is_empty(),
        "{:?}",
        dealer.stock_files()
    );
}

#[test]
fn a_feed_cut_off_mid_array_is_refused() {
    let old = feed_text(16);
    let cut = old[..old.len() / 2].to_string();
    let server = FeedServer::start(move |_, _| Reply::ok(cut.clone()));
    let dealer = Dealer::new(&url_source(&server, ""), Some(&old));
    let message = failure(&dealer.pull());
    assert!(message.contains("was the file cut off?"), "{message}");
    assert_eq!(dealer.feed().as_deref(), Some(old.as_str()));
    assert_eq!(dealer.stock_files(), ["tiny.json"]);
}

#[test]
fn a_download_that_breaks_off_is_retried_then_refused() {
    let old = feed_text(16);
    let full = feed_text(16).replace("19990", "18990");
    let server = FeedServer::start(move |_, _| Reply::Truncated {
        body: full.as_bytes()[..200].to_vec(),
        claimed: full.len(),
    });
    let dealer = Dealer::new(&url_source(&server, ""), Some(&old));
    let message = failure(&dealer.pull());
    assert!(
        message.contains("broke off before the feed was complete"),
        "{message}"
    );
    assert!(message.contains("after 3 attempts"), "{message}");
    assert_eq!(server.requests().len(), 3, "the first try and 2 retries");
    assert_eq!(dealer.feed().as_deref(), Some(old.as_str()));
    assert_eq!(dealer.stock_files(), ["tiny.json"]);
}

#[test]
fn a_slow_server_times_out_quickly() {
    let old = feed_text(16);
    let body = feed_text(16);
    let server = FeedServer::start(move |_, _| {
        Reply::Late(Duration::from_secs(4), Box::new(Reply::ok(body.clone())))
    });
    let source = format!(
        "    url: {}\n    retries: 0\n    timeout_secs: 1\n",
        server.url("/stock.json")
    );
    let dealer = Dealer::new(&source, Some(&old));
    let started = Instant::now();
    let message = failure(&dealer.pull());
    let took = started.elapsed();
    assert!(message.contains("did not answer in time"), "{message}");
    assert!(took < Duration::from_secs(3), "took {took:?}");
    assert_eq!(dealer.feed().as_deref(), Some(old.as_str()));
}

#[test]
fn server_errors_are_retried_with_backoff() {
    let body = feed_text(16);
    let server = {
        let body = body.clone();
        FeedServer::start(move |_, n| {
            if n < 2 {
                Reply::status(500)
            } else {
                Reply::ok(body.clone())
            }
        })
    };
    let dealer = Dealer::new(&url_source(&server, ""), None);
    let r = dealer.pull();
    updated(&r);
    assert_eq!(server.requests().len(), 3);
    assert_eq!(dealer.feed().as_deref(), Some(body.as_str()));
}

#[test]
fn a_server_that_keeps_failing_keeps_the_previous_feed() {
    let old = feed_text(16);
    let server = FeedServer::start(|_, _| Reply::status(503));
    let dealer = Dealer::new(&url_source(&server, ""), Some(&old));
    let message = failure(&dealer.pull());
    assert!(
        message.contains("answered 503 (after 3 attempts); the previous feed was kept"),
        "{message}"
    );
    assert_eq!(dealer.feed().as_deref(), Some(old.as_str()));
}

#[test]
fn refused_credentials_are_not_retried() {
    let server = FeedServer::start(|_, _| Reply::status(401));
    let dealer = Dealer::new(&url_source(&server, ""), Some(&feed_text(16)));
    let message = failure(&dealer.pull());
    assert!(message.contains("refused access (401)"), "{message}");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn the_drop_guard_refuses_a_shrunken_feed_unless_accepted() {
    let old = feed_text(16); // 9 shown
    let small = feed_text(4); // 3 shown: in stock, coming soon, sold within the window
    let server = {
        let small = small.clone();
        FeedServer::start(move |_, _| Reply::ok(small.clone()))
    };
    let dealer = Dealer::new(&url_source(&server, ""), Some(&old));
    let r = dealer.pull();
    match &r.result {
        Err(PullFailure::Drop {
            before,
            after,
            drop_percent,
            max_percent,
        }) => {
            assert_eq!((before.shown, after.shown), (9, 3));
            assert_eq!((*drop_percent, *max_percent), (67, 30));
        }
        other => panic!("expected the drop guard, got {other:?}"),
    }
    let message = failure(&r);
    assert!(message.contains("--accept-drop"), "{message}");
    assert_eq!(dealer.feed().as_deref(), Some(old.as_str()));
    assert_eq!(dealer.stock_files(), ["tiny.json"]);

    let r = dealer.pull_with(
        &PullOptions {
            accept_drop: true,
            ..opts()
        },
        &[],
    );
    assert!(
        matches!(
            updated(&r),
            Pulled::Updated {
                drop_accepted: true,
                ..
            }
        ),
        "{:?}",
        r.result
    );
    assert_eq!(dealer.feed().as_deref(), Some(small.as_str()));
}

#[test]
fn the_drop_guard_follows_max_drop_percent() {
    let old = feed_text(16);
    let small = feed_text(4);
    let server = FeedServer::start(move |_, _| Reply::ok(small.clone()));
    let dealer = Dealer::new(
        &url_source(&server, "    max_drop_percent: 70\n"),
        Some(&old),
    );
    updated(&dealer.pull());
}

#[test]
fn the_secret_header_comes_from_the_environment_and_stays_on_its_origin() {
    let other = FeedServer::start(|_, _| Reply::ok(feed_text(16)));
    let target = other.url("/signed/stock.json");
    let server = FeedServer::start(move |_, _| Reply::redirect(&target));
    let auth = "    auth: { header: X-Api-Key, env: TINY_FEED_TOKEN }\n";
    let dealer = Dealer::new(&url_source(&server, auth), None);

    let r = dealer.pull_with(&opts(), &[]);
    let message = failure(&r);
    assert!(
        message.contains("environment variable TINY_FEED_TOKEN (stock.source.auth.env) is not set"),
        "{message}"
    );
    assert!(
        server.requests().is_empty(),
        "no request without the secret"
    );

    let r = dealer.pull_with(&opts(), &[("TINY_FEED_TOKEN", "s3cret-value")]);
    updated(&r);
    assert_eq!(
        server.requests()[0].header("x-api-key"),
        Some("s3cret-value")
    );
    let followed = other.requests();
    assert_eq!(followed[0].path, "/signed/stock.json");
    assert_eq!(
        followed[0].header("x-api-key"),
        None,
        "the secret is not sent to another origin"
    );
}

#[test]
fn a_file_source_is_copied_after_the_same_checks() {
    let dealer = Dealer::new("    file: exports/tiny-export.json\n", None);
    std::fs::create_dir_all(dealer.dir.path().join("exports")).unwrap();
    let export = dealer.dir.path().join("exports/tiny-export.json");
    let message = failure(&dealer.pull());
    assert!(message.contains("cannot read the source feed"), "{message}");

    std::fs::write(&export, feed_text(16)).unwrap();
    updated(&dealer.pull());
    assert_eq!(dealer.feed(), Some(feed_text(16)));
    assert_eq!(dealer.state(), None, "validators are for URL sources");
    assert!(matches!(dealer.pull().result, Ok(Pulled::Unchanged { .. })));
    std::fs::write(&export, "[{\"id\": 1,").unwrap();
    let message = failure(&dealer.pull());
    assert!(message.contains("cut off"), "{message}");
    assert_eq!(dealer.feed(), Some(feed_text(16)));
}

#[test]
fn the_command_reports_each_dealer_and_exits_1_on_a_refused_feed() {
    let calls = Arc::new(AtomicUsize::new(0));
    let server = {
        let calls = calls.clone();
        FeedServer::start(move |_, _| {
            if calls.fetch_add(1, Ordering::SeqCst) == 0 {
                Reply::ok(feed_text(16))
            } else {
                Reply::ok("{\"error\": \"maintenance\"}")
            }
        })
    };
    let dealer = Dealer::new(&url_source(&server, ""), None);
    // A second dealer with no source: skipped with --all, a failure when named.
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dealers/tiny-dealer.yaml"),
        dealer.dir.path().join("plain-dealer.yaml"),
    )
    .unwrap();

    let (code, out, err) =
        dealer.cli(&["stock", "pull", "--dealer", SLUG, "--as-of", "2026-11-20"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("updated   tiny-dealer: 9 cars shown (no feed before), 14 in the feed; 2 record(s) skipped"), "{out}");
    assert!(out.contains("1 updated, 0 unchanged, 0 failed"), "{out}");

    let (code, out, err) = dealer.cli(&["stock", "pull", "--all"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("FAILED    tiny-dealer: "), "{out}");
    assert!(out.contains("the previous feed was kept"), "{out}");
    assert!(
        out.contains("skipped   plain-dealer: no stock.source"),
        "{out}"
    );
    assert_eq!(dealer.feed(), Some(feed_text(16)));

    let (code, out, _) = dealer.cli(&["stock", "pull", "--dealer", "plain-dealer"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("FAILED    plain-dealer: no stock.source"),
        "{out}"
    );

    let (code, out, _) = dealer.cli(&["stock", "pull", "--all", "--format", "json"]);
    assert_eq!(code, 1);
    let json: Value = serde_json::from_str(&out).unwrap();
    let statuses: Vec<(&str, &str)> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["dealer"].as_str().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        statuses,
        [("plain-dealer", "no_source"), ("tiny-dealer", "failed")]
    );

    let (code, _, err) = dealer.cli(&["stock", "pull"]);
    assert_eq!(code, 2, "a selection is required: {err}");
}

#[test]
fn the_command_never_prints_the_secret() {
    let server = FeedServer::start(|_, _| Reply::status(403));
    let auth = "    auth: { header: Authorization, env: TINY_FEED_TOKEN }\n";
    let dealer = Dealer::new(&url_source(&server, auth), Some(&feed_text(16)));
    let out = Command::new(env!("CARGO_BIN_EXE_dealergen"))
        .arg("--root")
        .arg(repo_root())
        .arg("--dealers-dir")
        .arg(dealer.dir.path())
        .args(["stock", "pull", "--dealer", SLUG])
        .env("TINY_FEED_TOKEN", "Bearer top-secret-42")
        .output()
        .unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(all.contains("refused access (403)"), "{all}");
    assert!(!all.contains("top-secret-42"), "{all}");
    assert_eq!(
        server.requests()[0].header("authorization"),
        Some("Bearer top-secret-42")
    );
}

#[test]
fn a_dealer_whose_feed_was_never_pulled_says_so() {
    let server = FeedServer::start(|_, _| Reply::ok(feed_text(16)));
    let dealer = Dealer::new(&url_source(&server, ""), None);
    let (code, out, _) = dealer.cli(&["check", "--dealer", SLUG]);
    assert_eq!(code, 0, "a warning, not an error: {out}");
    assert!(out.contains("does not exist yet"), "{out}");
    let sites = tempfile::tempdir().unwrap();
    let sites_arg = sites.path().to_string_lossy().into_owned();
    let (code, out, err) = dealer.cli(&[
        "--sites-dir",
        &sites_arg,
        "build",
        "--dealer",
        SLUG,
        "--no-astro",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("run `dealergen stock pull --dealer tiny-dealer` first"),
        "{out}{err}"
    );
}

/// After a pull, a feed that has stopped updating is said
/// (`stock.max_age_hours`): its newest record older than the limit at the
/// pull's instant, in the report, the human line and the JSON; a fresh one
/// says nothing.
#[test]
fn a_pulled_feed_that_stopped_updating_is_said() {
    let feed = feed_text(16);
    let server = FeedServer::start(move |_, _| Reply::ok(feed.clone()));
    let dealer = Dealer::new(&url_source(&server, ""), None);
    // At the fixture's instant the newest record (2026-11-19 18:00 UTC) is 6 hours old.
    let r = dealer.pull();
    updated(&r);
    assert!(r.stale.is_empty(), "{:?}", r.stale);
    // Four days on, the same feed (unchanged) is 102 hours old.
    let later = PullOptions {
        now: chrono::DateTime::parse_from_rfc3339("2026-11-24T00:00:00Z")
            .unwrap()
            .to_utc(),
        ..opts()
    };
    let r = dealer.pull_with(&later, &[]);
    assert!(
        matches!(r.result, Ok(Pulled::Unchanged { .. })),
        "{:?}",
        r.result
    );
    assert_eq!(
        r.stale,
        ["the stock feed's newest record changed 102 hours ago (2026-11-19 18:00 UTC; stock.max_age_hours is 48): no car was added, sold or edited since; is the feed still updating?"]
    );
    let (code, out, _) = dealer.cli(&[
        "stock",
        "pull",
        "--dealer",
        SLUG,
        "--as-of",
        "2026-11-24T00:00:00Z",
    ]);
    assert_eq!(code, 0, "a warning, not a failure: {out}");
    assert!(
        out.contains("stale     tiny-dealer: the stock feed's newest record changed 102 hours ago"),
        "{out}"
    );
    let (_, json, _) = dealer.cli(&[
        "stock",
        "pull",
        "--dealer",
        SLUG,
        "--as-of",
        "2026-11-24T00:00:00Z",
        "--format",
        "json",
    ]);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v[0]["stale"].as_array().map(Vec::len), Some(1), "{json}");
}
