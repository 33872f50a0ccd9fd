//! `dealergen status`: what the platform team needs to know about each
//! dealer without reading CI logs: the last build here (when, its result,
//! why it failed), the release built, the cars shown, the stock feed's age
//! and whether it has stopped updating (`stock.max_age_hours`). What needs
//! a person (a failed build, a feed that stopped, a missing feed) makes the
//! command exit 1, so an hourly job fails the way a CI run does.
//!
//! It reports what this machine can see. The deployed release and the
//! leads waiting for delivery live on Cloudflare (the `CONFIG` KV
//! namespace and D1): not read yet, and said so in every report.

use std::path::Path;

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::pipeline::stock::{feed, freshness};
use crate::project::Project;

/// The file each build writes beside the dealer's site (`sites/<slug>/`).
pub const LAST_BUILD_FILE: &str = "last-build.json";

/// How the last build of a dealer on this machine went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LastBuild {
    /// When it finished (UTC, RFC 3339).
    pub at: String,
    /// "built", "cached" (the published release had the same inputs) or "failed".
    pub result: String,
    /// The release it published, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release: Option<String>,
    /// Why it failed (the build's own message, cut to 2,000 characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Records a build's result for `status` (written over the last one, whole).
pub fn record_build(site_dir: &Path, build: &LastBuild) -> Result<()> {
    std::fs::create_dir_all(site_dir)?;
    let path = site_dir.join(LAST_BUILD_FILE);
    let tmp = site_dir.join(format!(".{LAST_BUILD_FILE}.tmp"));
    std::fs::write(&tmp, serde_json::to_string_pretty(build)?)
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, &path).with_context(|| format!("cannot write {}", path.display()))
}

/// The release the site serves now (`sites/<slug>/current`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BuiltRelease {
    pub release: String,
    pub built_at: String,
    pub pages: u64,
    /// Cars the release shows (its build summary).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cars_shown: Option<u64>,
}

/// The dealer's stock feed as this machine has it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FeedStatus {
    pub path: String,
    /// The file's last change (UTC, RFC 3339); null: no feed file.
    pub changed_at: Option<String>,
    /// The newest record's `updated_at` (else `created_at`).
    pub newest_record: Option<String>,
    /// The warnings of `stock.max_age_hours`, if it has stopped updating.
    pub stale: Vec<String>,
}

/// One dealer's status.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DealerStatus {
    pub dealer: String,
    pub last_build: Option<LastBuild>,
    pub release_built: Option<BuiltRelease>,
    pub feed: FeedStatus,
    /// What was not looked at, and why.
    pub not_checked: Vec<String>,
    /// What needs a person; empty: nothing.
    pub needs_person: Vec<String>,
}

/// What this machine can not see yet, in every report.
const REMOTE: &str = "the deployed release and the leads waiting for delivery (Cloudflare's KV and D1) are not read by `status` yet: see `dealergen rollback --dry-run` and the edge's GET /api/leads/{id}/delivery";

fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// The status of the dealer file `file` at `now`.
pub fn dealer_status(project: &Project, file: &Path, now: DateTime<Utc>) -> DealerStatus {
    let slug = crate::selection::slug_of(file);
    let site = project.site_dir(&slug);
    let mut needs = Vec::new();
    let last_build: Option<LastBuild> = std::fs::read_to_string(site.join(LAST_BUILD_FILE))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok());
    if let Some(b) = last_build.as_ref().filter(|b| b.result == "failed") {
        needs.push(format!(
            "the last build failed ({}): {}",
            b.at,
            b.error.as_deref().unwrap_or("no message")
        ));
    }
    let release_built = built_release(&site.join("current"));
    let loader = dealer_config::Loader::new(project.presets_dir());
    let feed = match loader.load(file) {
        Err(r) => {
            needs.push(format!(
                "the dealer file has {} problem(s): run `dealergen check --dealer {slug}`",
                r.diagnostics.len()
            ));
            FeedStatus {
                path: String::new(),
                changed_at: None,
                newest_record: None,
                stale: Vec::new(),
            }
        }
        Ok(dealer) => {
            let path = dealer.dir().join(&dealer.config.stock.feed);
            let changed = freshness::file_changed(&path);
            let newest = feed::load(&path)
                .ok()
                .and_then(|f| freshness::newest_record(&f.cars));
            if changed.is_none() {
                needs.push(format!("no stock feed at {}", path.display()));
            }
            let stale =
                freshness::warnings(changed, newest, now, dealer.config.stock.max_age_hours);
            needs.extend(stale.iter().cloned());
            FeedStatus {
                path: path.display().to_string(),
                changed_at: changed.map(rfc3339),
                newest_record: newest.map(rfc3339),
                stale,
            }
        }
    };
    DealerStatus {
        dealer: slug,
        last_build,
        release_built,
        feed,
        not_checked: vec![REMOTE.to_string()],
        needs_person: needs,
    }
}

/// The release `current` points at: its release.json and build summary.
fn built_release(current: &Path) -> Option<BuiltRelease> {
    let release: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(current.join("release.json")).ok()?).ok()?;
    let summary: Option<serde_json::Value> =
        std::fs::read_to_string(current.join("build-summary.json"))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok());
    Some(BuiltRelease {
        release: release["release"].as_str()?.to_string(),
        built_at: release["built_at"].as_str().unwrap_or_default().to_string(),
        pages: release["pages"].as_u64().unwrap_or(0),
        cars_shown: summary.and_then(|s| s["cars_visible"].as_u64()),
    })
}

/// One dealer as a few lines for the terminal.
pub fn human(s: &DealerStatus) -> String {
    let mark = if s.needs_person.is_empty() {
        "ok    "
    } else {
        "NEEDS "
    };
    let mut out = format!("{mark} {}\n", s.dealer);
    match &s.last_build {
        Some(b) => out.push_str(&format!(
            "       last build: {} at {}{}\n",
            b.result,
            b.at,
            b.release
                .as_ref()
                .map(|r| format!(" (release {r})"))
                .unwrap_or_default()
        )),
        None => out.push_str("       last build: none on this machine\n"),
    }
    match &s.release_built {
        Some(r) => out.push_str(&format!(
            "       release built: {} at {}, {} pages{}\n",
            r.release,
            r.built_at,
            r.pages,
            r.cars_shown
                .map(|n| format!(", {n} cars shown"))
                .unwrap_or_default()
        )),
        None => out.push_str("       release built: none\n"),
    }
    out.push_str(&format!(
        "       stock feed: changed {}, newest record {}\n",
        s.feed.changed_at.as_deref().unwrap_or("never (no file)"),
        s.feed.newest_record.as_deref().unwrap_or("unknown")
    ));
    for n in &s.needs_person {
        out.push_str(&format!("       needs a person: {n}\n"));
    }
    for n in &s.not_checked {
        out.push_str(&format!("       not checked: {n}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_record_is_written_whole_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let b = LastBuild {
            at: "2026-11-20T00:00:00Z".into(),
            result: "failed".into(),
            release: None,
            error: Some("Astro failed".into()),
        };
        record_build(dir.path(), &b).unwrap();
        let back: LastBuild = serde_json::from_str(
            &std::fs::read_to_string(dir.path().join(LAST_BUILD_FILE)).unwrap(),
        )
        .unwrap();
        assert_eq!(back, b);
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file left"
        );
    }
}
