//! Whether a dealer's stock feed is still being updated
//! (`stock.max_age_hours`): a feed whose export has stopped keeps showing
//! cars that were sold, and nothing else would say so. Two signs, either
//! one enough: the feed file has not changed for longer than the limit
//! (`stock pull` leaves an unchanged feed in place, so its modification
//! time is its last change; in a git checkout, where every file carries
//! the checkout's time, the last commit that changed it: `file_changed`),
//! or its newest record (`updated_at`, else `created_at`) is older than
//! that. `build` and `stock pull` print the
//! warning; the judgement is made at the build's instant (`--as-of`).

use chrono::{DateTime, Utc};

use super::feed::FeedCar;

/// When the newest record of the feed last changed, if any record says.
pub fn newest_record(cars: &[FeedCar]) -> Option<DateTime<Utc>> {
    cars.iter()
        .filter_map(|c| c.updated_at.or(c.created_at))
        .max()
}

/// What the feed's freshness says at `now`: a warning a sign, none while
/// both are within `max_age_hours`. `file_changed` is the feed file's
/// modification time (None: not known).
pub fn warnings(
    file_changed: Option<DateTime<Utc>>,
    newest: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
    max_age_hours: u32,
) -> Vec<String> {
    let hours = |t: DateTime<Utc>| (now - t).num_hours();
    let limit = i64::from(max_age_hours);
    let when = |t: DateTime<Utc>| t.format("%Y-%m-%d %H:%M UTC").to_string();
    let mut out = Vec::new();
    if let Some(t) = file_changed.filter(|t| hours(*t) > limit) {
        out.push(format!(
            "the stock feed has not changed for {} hours (since {}; stock.max_age_hours is {max_age_hours}): is the stock system's export still running? Cars sold since then still show",
            hours(t),
            when(t)
        ));
    }
    if let Some(t) = newest.filter(|t| hours(*t) > limit) {
        out.push(format!(
            "the stock feed's newest record changed {} hours ago ({}; stock.max_age_hours is {max_age_hours}): no car was added, sold or edited since; is the feed still updating?",
            hours(t),
            when(t)
        ));
    }
    out
}

/// When the feed file last changed: the time of the last commit that
/// changed it where git tracks it and it has not changed since (a CI
/// runner's fresh checkout gives every file the checkout's time, so a feed
/// that stopped a week ago looked new on every hourly run); else its
/// modification time. None: no file.
pub fn file_changed(path: &std::path::Path) -> Option<DateTime<Utc>> {
    let modified = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .map(DateTime::<Utc>::from)?;
    Some(committed_at(path).unwrap_or(modified))
}

/// The committer time of the last commit that changed `path`, if git
/// tracks it and the file is as committed (not modified, not untracked).
fn committed_at(path: &std::path::Path) -> Option<DateTime<Utc>> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty())?;
    let name = path.file_name()?;
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .arg("--")
            .arg(name)
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    // "" for a tracked file as committed; " M", "??" (untracked) otherwise.
    if !git(&["status", "--porcelain"])?.is_empty() {
        return None;
    }
    let at = git(&["log", "-1", "--format=%cI"])?;
    DateTime::parse_from_rfc3339(&at)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(h: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 20, 0, 0, 0).unwrap() + chrono::Duration::hours(h)
    }

    /// In a checkout the feed's last change is its last commit, whatever
    /// time the checkout gave the file; a change not yet committed (a pull
    /// on this machine) and a file git does not track keep their own time.
    #[test]
    fn a_committed_feed_changed_when_it_was_committed_not_when_it_was_checked_out() {
        let repo = tempfile::tempdir().unwrap();
        let git = |args: &[&str], date: &str| {
            let out = std::process::Command::new("git")
                .current_dir(repo.path())
                .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
                .args(args)
                .env("GIT_COMMITTER_DATE", date)
                .env("GIT_AUTHOR_DATE", date)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "git {args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        };
        git(&["init", "-q"], "2026-11-01T00:00:00Z");
        let stock = repo.path().join("stock");
        std::fs::create_dir_all(&stock).unwrap();
        let feed = stock.join("x.json");
        std::fs::write(&feed, "[]").unwrap();
        // Untracked: the file's own time (now).
        let now = Utc::now();
        assert!(file_changed(&feed).unwrap() > now - chrono::Duration::minutes(5));
        git(&["add", "."], "2026-11-01T00:00:00Z");
        git(&["commit", "-q", "-m", "feed"], "2026-11-10T06:00:00+10:00");
        // Committed: the commit's time, though the file was written just now.
        assert_eq!(
            file_changed(&feed),
            Some(Utc.with_ymd_and_hms(2026, 11, 9, 20, 0, 0).unwrap())
        );
        let w = warnings(
            file_changed(&feed),
            None,
            Utc.with_ymd_and_hms(2026, 11, 13, 20, 0, 0).unwrap(),
            48,
        );
        assert!(w[0].contains("has not changed for 96 hours"), "{w:?}");
        // Changed since (a pull here, not yet committed): its own time again.
        std::fs::write(&feed, "[{}]").unwrap();
        assert!(file_changed(&feed).unwrap() > now - chrono::Duration::minutes(5));
        // No file: nothing known.
        assert_eq!(file_changed(&stock.join("none.json")), None);
    }

    #[test]
    fn a_feed_within_its_limit_says_nothing_past_it_each_sign_says_so() {
        let now = at(100);
        assert!(warnings(Some(at(60)), Some(at(90)), now, 48).is_empty());
        // Exactly at the limit is still fine; an hour past it is not.
        assert!(warnings(Some(at(52)), None, now, 48).is_empty());
        let w = warnings(Some(at(51)), Some(at(40)), now, 48);
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(w[0].starts_with("the stock feed has not changed for 49 hours (since 2026-11-22 03:00 UTC; stock.max_age_hours is 48)"), "{}", w[0]);
        assert!(
            w[1].starts_with("the stock feed's newest record changed 60 hours ago"),
            "{}",
            w[1]
        );
        // A dealer that allows a week.
        assert!(warnings(Some(at(0)), Some(at(0)), now, 168).is_empty());
        // A file changed after the build's instant (built --as-of an earlier day): not stale.
        assert!(warnings(Some(at(500)), None, now, 48).is_empty());
    }

    #[test]
    fn the_newest_record_is_the_latest_update_else_creation() {
        let text = r#"[
            {"id": 1, "slug": "a-1", "make": "Kia", "model": "Rio", "year": 2020, "car_type": "used", "status": "in_stock", "created_at": "2026-11-01T00:00:00Z", "updated_at": "2026-11-18T10:00:00Z"},
            {"id": 2, "slug": "b-2", "make": "Kia", "model": "Rio", "year": 2020, "car_type": "used", "status": "in_stock", "created_at": "2026-11-19T08:00:00Z"},
            {"id": 3, "slug": "c-3", "make": "Kia", "model": "Rio", "year": 2020, "car_type": "used", "status": "in_stock"}
        ]"#;
        let feed = super::super::feed::parse(text, "f.json").unwrap();
        assert_eq!(
            newest_record(&feed.cars),
            Some(Utc.with_ymd_and_hms(2026, 11, 19, 8, 0, 0).unwrap())
        );
        assert_eq!(newest_record(&[]), None);
    }
}
