//! `dealergen status`: what the platform team needs to know about each
//! dealer without reading CI logs: the last build here (when, its result,
//! why it failed), the release built, the cars shown, the stock feed's age
//! and whether it has stopped updating (`stock.max_age_hours`). What needs
//! a person (a failed build, a feed that stopped, a missing feed) makes the
//! command exit 1, so an hourly job fails the way a CI run does.
//!
//! With the deployment's credentials (`CLOUDFLARE_API_TOKEN`,
//! `config/deploy.toml`) it also reads what Cloudflare holds
//! (deploy::status): the deployed release and the leads the edge has not
//! delivered; leads failing for over an hour, or with nowhere to go, need a
//! person. Without them it reports what this machine can see and says what
//! it could not.

use std::path::Path;

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::pipeline::stock::{feed, freshness};
use crate::project::Project;

/// Where each build records how it went: `<sites>/.status/<slug>.json`,
/// outside the dealer's own folder (a dealer whose file is invalid gets no
/// site folder, but its failed build is recorded all the same; a slug never
/// starts with a dot).
pub fn last_build_file(project: &Project, slug: &str) -> std::path::PathBuf {
    project
        .sites_dir
        .join(".status")
        .join(format!("{slug}.json"))
}

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

/// Records a build's result for `status` at `path` (written over the
/// last one, whole).
pub fn record_build(path: &Path, build: &LastBuild) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, serde_json::to_string_pretty(build)?)
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
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
    /// The release Cloudflare serves (KV `deployed:<slug>`); null: not
    /// read (see `not_checked`) or never deployed.
    pub release_deployed: Option<DeployedRelease>,
    /// The leads the edge has not delivered; null: not read.
    pub leads: Option<crate::deploy::status::LeadBacklog>,
    /// What was not looked at, and why.
    pub not_checked: Vec<String>,
    /// What needs a person; empty: nothing.
    pub needs_person: Vec<String>,
}

/// A deployment as `deploy` recorded it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeployedRelease {
    pub release: String,
    pub deployed_at: String,
    /// Whether it is the release built here (`sites/<slug>/current`).
    pub is_built_release: bool,
}

/// How long a lead may fail delivery before a person should look.
pub const FAILING_FOR_LONG_SECS: i64 = 3600;

fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// The status of the dealer file `file` at `now`; `remote` is what
/// Cloudflare holds (deploy::status::read), or why it could not be read.
pub fn dealer_status(
    project: &Project,
    file: &Path,
    now: DateTime<Utc>,
    remote: &Result<crate::deploy::status::RemoteFacts, String>,
) -> DealerStatus {
    let slug = crate::selection::slug_of(file);
    let site = project.site_dir(&slug);
    let mut needs = Vec::new();
    let last_build: Option<LastBuild> = std::fs::read_to_string(last_build_file(project, &slug))
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
    let mut not_checked = Vec::new();
    let (mut release_deployed, mut leads) = (None, None);
    match remote {
        Err(why) => not_checked.push(format!(
            "the deployed release and the leads waiting for delivery (Cloudflare): {why}"
        )),
        Ok(facts) => {
            use crate::deploy::remote_state::Remote;
            match facts.deployed.get(&slug) {
                Some(Remote::Found(d)) => {
                    release_deployed = Some(DeployedRelease {
                        release: d.release.clone(),
                        deployed_at: d.deployed_at.clone(),
                        is_built_release: release_built
                            .as_ref()
                            .is_some_and(|b| b.release == d.release),
                    })
                }
                Some(Remote::Absent) | None => {}
                Some(Remote::Unknown(why)) => {
                    not_checked.push(format!("the deployed release: {why}"))
                }
            }
            match &facts.leads {
                Err(why) => not_checked.push(format!("the leads waiting for delivery: {why}")),
                Ok(by_dealer) => {
                    let backlog = by_dealer.get(&slug).cloned().unwrap_or_default();
                    needs.extend(lead_problems(&backlog, now));
                    leads = Some(backlog);
                }
            }
        }
    }
    DealerStatus {
        dealer: slug,
        last_build,
        release_built,
        feed,
        release_deployed,
        leads,
        not_checked,
        needs_person: needs,
    }
}

/// What of a dealer's lead backlog needs a person: a delivery failing for
/// over an hour (FAILING_FOR_LONG_SECS), a lead with nowhere to go.
pub fn lead_problems(b: &crate::deploy::status::LeadBacklog, now: DateTime<Utc>) -> Vec<String> {
    let mut out = Vec::new();
    let since = |t: &str| DateTime::parse_from_rfc3339(t).ok().map(|t| t.to_utc());
    if let Some(t) = b.oldest_failing.as_deref() {
        if since(t).is_some_and(|t| (now - t).num_seconds() > FAILING_FOR_LONG_SECS) {
            out.push(format!(
                "{} lead(s) failing delivery, the oldest since {t} (last error: {}): is the dealer's CRM or mail relay down?",
                b.failing,
                b.last_error.as_deref().unwrap_or("none recorded")
            ));
        }
    }
    if b.no_route > 0 {
        out.push(format!(
            "{} lead(s) the edge could send nowhere: give the dealer a webhook or a lead e-mail",
            b.no_route
        ));
    }
    out
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
    match &s.release_deployed {
        Some(d) => out.push_str(&format!(
            "       release deployed: {} at {}{}\n",
            d.release,
            d.deployed_at,
            if d.is_built_release {
                ""
            } else {
                " (not the release built here)"
            }
        )),
        None if s.not_checked.is_empty() => out.push_str("       release deployed: none\n"),
        None => {}
    }
    if let Some(l) = &s.leads {
        out.push_str(&format!(
            "       leads not delivered: {} ({} failing, {} with nowhere to go)\n",
            l.waiting, l.failing, l.no_route
        ));
    }
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
    fn a_delivery_failing_over_an_hour_or_a_lead_with_nowhere_to_go_needs_a_person() {
        use crate::deploy::status::LeadBacklog;
        let now = DateTime::parse_from_rfc3339("2026-11-20T12:00:00Z")
            .unwrap()
            .to_utc();
        let failing = |since: &str| LeadBacklog {
            waiting: 3,
            failing: 2,
            oldest_failing: Some(since.into()),
            last_error: Some("webhook: 502".into()),
            ..LeadBacklog::default()
        };
        assert!(
            lead_problems(&failing("2026-11-20T11:30:00.000Z"), now).is_empty(),
            "half an hour: the queue is still retrying"
        );
        let p = lead_problems(&failing("2026-11-20T10:00:00.000Z"), now);
        assert_eq!(p, ["2 lead(s) failing delivery, the oldest since 2026-11-20T10:00:00.000Z (last error: webhook: 502): is the dealer's CRM or mail relay down?"]);
        let nowhere = LeadBacklog {
            waiting: 1,
            no_route: 1,
            ..LeadBacklog::default()
        };
        assert!(
            lead_problems(&nowhere, now)[0].starts_with("1 lead(s) the edge could send nowhere")
        );
        assert!(lead_problems(&LeadBacklog::default(), now).is_empty());
    }

    #[test]
    fn a_build_record_is_written_whole_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let b = LastBuild {
            at: "2026-11-20T00:00:00Z".into(),
            result: "failed".into(),
            release: None,
            error: Some("Astro failed".into()),
        };
        let file = dir.path().join(".status/demo.json");
        record_build(&file, &b).unwrap();
        let back: LastBuild =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(back, b);
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file left"
        );
    }
}
