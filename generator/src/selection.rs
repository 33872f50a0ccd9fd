//! Which dealers a command works on, and at what instant it judges them:
//! the dealer files `--dealer`/`--all` name, a dealer's slug from its file,
//! its stable CI shard, and `--as-of`. Shared by the commands, `deploy`
//! (its shards) and `dev`; it knows the CLI's argument types and the
//! project's folders, nothing of building.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use chrono::{DateTime, Utc};

use crate::cli::Selection;
use crate::project::Project;

/// Dealer files named by --dealer, or all of them, relative to the current
/// folder when inside it (so messages and GitHub annotations say
/// `dealers/x.yaml`, which is what a pull request shows).
pub fn select(project: &Project, sel: &Selection) -> Result<Vec<PathBuf>> {
    let cwd = std::env::current_dir().unwrap_or_default();
    Ok(select_absolute(project, sel)?
        .into_iter()
        .map(|f| f.strip_prefix(&cwd).map(Path::to_path_buf).unwrap_or(f))
        .collect())
}

fn select_absolute(project: &Project, sel: &Selection) -> Result<Vec<PathBuf>> {
    if sel.all {
        let files = project
            .dealer_files()
            .with_context(|| format!("cannot list dealers in {}", project.dealers_dir.display()))?;
        if files.is_empty() {
            bail!(
                "no dealer files (*.yaml) in {}",
                project.dealers_dir.display()
            );
        }
        return Ok(files);
    }
    let mut files = Vec::new();
    for slug in &sel.dealer {
        let f = project.dealer_file(slug);
        if !f.is_file() {
            let known: Vec<String> = project
                .dealer_files()
                .unwrap_or_default()
                .iter()
                .filter_map(|p| p.file_stem()?.to_str().map(String::from))
                .collect();
            let hint = dealer_config::suggest::closest(slug, known.iter().map(String::as_str))
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            bail!("no dealer `{slug}`: {} does not exist{hint}", f.display());
        }
        files.push(f);
    }
    Ok(files)
}

/// Stable shard of a dealer: FNV-1a of the slug, so adding a dealer never
/// moves the others to another runner.
pub fn shard_of(slug: &str, shards: usize) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in slug.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h % shards as u64) as usize
}

/// The instant `--as-of` names (RFC 3339, or a date at midnight UTC);
/// without it, the instant a build judges the stock at: the start of the
/// current hour ([`judged_now`]). Every command judges at that instant, so
/// `explain` and `diff` answer for the site the hourly build makes.
pub fn parse_as_of(s: Option<&str>) -> Result<DateTime<Utc>> {
    match s {
        None => Ok(judged_now(Utc::now())),
        Some(s) => {
            if let Ok(t) = DateTime::parse_from_rfc3339(s) {
                return Ok(t.with_timezone(&Utc));
            }
            let d = chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").with_context(|| {
                format!("--as-of `{s}` is not a date (2026-11-20) or RFC 3339 time")
            })?;
            Ok(d.and_hms_opt(0, 0, 0).expect("midnight exists").and_utc())
        }
    }
}

/// A dealer's slug: its YAML file's name without the extension.
pub fn slug_of(file: &Path) -> String {
    file.file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string()
}

/// The moment a build without `--as-of` judges the stock at: the start of
/// the current hour. Every time rule (sold window, new arrivals, offer
/// windows) is applied at one instant that site.json carries to the pages;
/// judging at the exact second would make every build's data differ, so no
/// dealer would ever be found unchanged. Within the hour, an unchanged
/// dealer is not rebuilt; the first build of the next hour rebuilds it
/// with the rules applied at that hour.
pub fn judged_now(now: DateTime<Utc>) -> DateTime<Utc> {
    use chrono::Timelike;
    now.with_nanosecond(0)
        .and_then(|t| t.with_second(0))
        .and_then(|t| t.with_minute(0))
        .unwrap_or(now)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds without --as-of within one hour judge the stock at one
    /// instant (so an unchanged dealer keeps its build key).
    #[test]
    fn a_build_judges_the_stock_at_the_start_of_the_hour() {
        let at = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc);
        assert_eq!(
            judged_now(at("2026-11-20T10:59:59.999Z")),
            at("2026-11-20T10:00:00Z")
        );
        assert_eq!(
            judged_now(at("2026-11-20T10:00:00Z")),
            at("2026-11-20T10:00:00Z")
        );
        assert_ne!(
            judged_now(at("2026-11-20T11:00:00Z")),
            at("2026-11-20T10:00:00Z")
        );
    }
    #[test]
    fn shards_cover_every_dealer_exactly_once() {
        let slugs: Vec<String> = (0..200).map(|i| format!("dealer-{i}")).collect();
        let n = 7;
        let mut counts = vec![0; n];
        for s in &slugs {
            let k = shard_of(s, n);
            assert!(k < n);
            counts[k] += 1;
        }
        assert_eq!(counts.iter().sum::<usize>(), 200);
        assert!(counts.iter().all(|c| *c > 10), "unbalanced: {counts:?}");
        // Stable: the same slug always lands on the same shard.
        assert_eq!(
            shard_of("brisbane-motor-group", n),
            shard_of("brisbane-motor-group", n)
        );
    }

    #[test]
    fn without_as_of_every_command_judges_at_the_builds_instant() {
        // explain, diff, pull and check-links answer for the site the
        // hourly build makes, not for this second.
        let before = judged_now(Utc::now());
        let got = parse_as_of(None).unwrap();
        let after = judged_now(Utc::now());
        assert!(got == before || got == after, "{got}");
        assert_eq!(got, judged_now(got), "the start of an hour");
    }

    #[test]
    fn as_of_accepts_dates_and_times() {
        assert_eq!(
            parse_as_of(Some("2026-11-20")).unwrap().to_rfc3339(),
            "2026-11-20T00:00:00+00:00"
        );
        assert_eq!(
            parse_as_of(Some("2026-11-20T10:00:00+10:00"))
                .unwrap()
                .to_rfc3339(),
            "2026-11-20T00:00:00+00:00"
        );
        assert!(parse_as_of(Some("20/11/2026")).is_err());
    }
}
