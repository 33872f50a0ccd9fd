//! The release layout of a built dealer site, and the atomic switch to a
//! new release.
//!
//! ```text
//! sites/<slug>/
//!   releases/<id>/            one per successful build, id = <UTC yyyymmddThhmmssZ>-<12 hex of the build key>
//!     dist/                   the static site (what is uploaded)
//!     edge-config.json        the worker's config
//!     edge-kv.json            its KV entries (wrangler kv bulk put format)
//!     build-key               the full content hash of the build's inputs
//!     release.json            {"slug","key","release","built_at","pages","dealergen_version"}
//!   current  -> releases/<id>
//!   previous -> releases/<id> the release before current, kept for rollback
//!   dist -> current/dist, edge-config.json -> current/…, edge-kv.json -> current/…
//! ```
//!
//! Building writes a release (`stage`, `Staged::publish`); deploying and
//! rolling back read one (`current`, `by_id`, `read`): this module is the
//! one place the format is written down. Deploy reads the release the link
//! points at once, by its real path, so a build that flips `current`
//! meanwhile cannot mix two releases into one deployment.
//!
//! A new release is written under `releases/.staging-…`, checked, renamed
//! to its id, and then `current` is switched by renaming a new symlink over
//! the old one: rename(2) replaces the link in one step, so a reader of
//! `dist/` (which goes through `current`) sees either the old site or the
//! new one, never a moment without a site. Releases other than current and
//! previous are pruned afterwards.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use chrono::{DateTime, Utc};
use dealer_rules::edge_config::EdgeConfig;
use serde::{Deserialize, Serialize};

/// Folder of the releases inside a site.
pub const RELEASES: &str = "releases";
/// The link to the published release.
pub const CURRENT: &str = "current";
/// The link to the release before it (for rollback).
pub const PREVIOUS: &str = "previous";
/// Prefix of a release being built (never published under this name).
const STAGING_PREFIX: &str = ".staging-";
/// Files of a release that keep a stable path at the site's top level, for
/// the consumers that read `sites/<slug>/dist` and the edge files there.
pub const STABLE: [&str; 3] = [DIST, EDGE_CONFIG, EDGE_KV];
/// The static site: what is uploaded.
pub const DIST: &str = "dist";
/// The worker's config for the dealer.
pub const EDGE_CONFIG: &str = "edge-config.json";
/// Its KV entries (`wrangler kv bulk put` format).
pub const EDGE_KV: &str = "edge-kv.json";
/// The file holding a release's build key.
pub const BUILD_KEY: &str = "build-key";
/// A release's description.
pub const RELEASE_JSON: &str = "release.json";
/// The inputs key of the files the release was generated from (`cache::inputs_key`).
pub const INPUTS_KEY: &str = "inputs-key";
/// What the build reported (cars, warnings), for a later build that finds
/// the release up to date and reports it without generating anything.
pub const SUMMARY: &str = "build-summary.json";

/// What `build-summary.json` holds.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Summary {
    pub cars_visible: usize,
    pub cars_hidden: usize,
    /// Feed records skipped (none in a summary written before they were counted).
    #[serde(default)]
    pub skipped: usize,
    /// Feed fields and photos left out of kept cars.
    #[serde(default)]
    pub feed_warnings: usize,
    pub warnings: Vec<String>,
}

/// What `release.json` says about a release.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ReleaseInfo {
    /// The dealer slug.
    pub slug: String,
    /// The build key (hex SHA-256 of the build's inputs).
    pub key: String,
    /// The release id (its folder name under `releases/`).
    pub release: String,
    /// When it was built (RFC 3339, UTC).
    pub built_at: String,
    /// HTML pages in its `dist/`.
    pub pages: usize,
    /// The dealergen version that built it.
    pub dealergen_version: String,
}

/// A release folder being filled: `dist/` and the edge files go in it,
/// then [`Staged::publish`] makes it current. Dropped unpublished, it is
/// removed, so a failed build leaves nothing behind.
#[derive(Debug)]
pub struct Staged {
    site_dir: PathBuf,
    dir: PathBuf,
    published: bool,
}

/// Starts a new release of the site in `site_dir`, clearing what an
/// interrupted earlier build left in `releases/`.
pub fn stage(site_dir: &Path) -> Result<Staged> {
    let releases = site_dir.join(RELEASES);
    std::fs::create_dir_all(&releases)
        .with_context(|| format!("cannot create {}", releases.display()))?;
    for entry in std::fs::read_dir(&releases)?.filter_map(Result::ok) {
        if entry
            .file_name()
            .to_string_lossy()
            .starts_with(STAGING_PREFIX)
        {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    let dir = releases.join(format!("{STAGING_PREFIX}{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    Ok(Staged {
        site_dir: site_dir.to_path_buf(),
        dir,
        published: false,
    })
}

impl Staged {
    /// The release folder being filled.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where its static site goes.
    pub fn dist(&self) -> PathBuf {
        self.dir.join("dist")
    }

    /// The staged `dist/` relative to the site (Astro's outDir must be inside its project).
    pub fn dist_relative(&self) -> PathBuf {
        self.dist()
            .strip_prefix(&self.site_dir)
            .expect("staging is inside the site")
            .to_path_buf()
    }

    /// Names the release, writes its key and description, and switches
    /// `current` to it atomically; `previous` then names the release that
    /// was current, and older releases are pruned. Returns the release id.
    pub fn publish(
        self,
        slug: &str,
        key: &str,
        built_at: DateTime<Utc>,
        pages: usize,
    ) -> Result<String> {
        self.publish_with(slug, key, built_at, pages, None)
    }

    /// [`Staged::publish`], with the inputs key and build summary a later
    /// no-op build compares and reports.
    pub fn publish_with(
        mut self,
        slug: &str,
        key: &str,
        built_at: DateTime<Utc>,
        pages: usize,
        inputs: Option<(&str, &Summary)>,
    ) -> Result<String> {
        if let Some((inputs_key, summary)) = inputs {
            std::fs::write(self.dir.join(INPUTS_KEY), format!("{inputs_key}\n"))?;
            std::fs::write(self.dir.join(SUMMARY), serde_json::to_string(summary)?)?;
        }
        let releases = self.site_dir.join(RELEASES);
        let base = release_id(built_at, key);
        // Two builds of the same inputs in one second (a forced rebuild):
        // a suffix keeps both, so current and previous never share a folder.
        let mut id = base.clone();
        let mut n = 1;
        while releases.join(&id).exists() {
            n += 1;
            id = format!("{base}-{n}");
        }
        let info = ReleaseInfo {
            slug: slug.to_string(),
            key: key.to_string(),
            release: id.clone(),
            built_at: built_at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            pages,
            dealergen_version: env!("CARGO_PKG_VERSION").to_string(),
        };
        std::fs::write(self.dir.join(BUILD_KEY), format!("{key}\n"))?;
        std::fs::write(
            self.dir.join(RELEASE_JSON),
            serde_json::to_string_pretty(&info)? + "\n",
        )?;
        let target = releases.join(&id);
        std::fs::rename(&self.dir, &target)
            .with_context(|| format!("cannot name the release {}", target.display()))?;
        self.published = true;
        migrate_flat_layout(&self.site_dir)?;
        let before = current_release(&self.site_dir);
        flip(&self.site_dir, CURRENT, &id)?;
        if let Some(before) = before.filter(|b| *b != id) {
            flip(&self.site_dir, PREVIOUS, &before)?;
        }
        stable_links(&self.site_dir)?;
        prune(&self.site_dir)?;
        Ok(id)
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.published {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// `<UTC yyyymmddThhmmssZ>-<first 12 hex of the key>`.
pub fn release_id(at: DateTime<Utc>, key: &str) -> String {
    format!(
        "{}-{}",
        at.format("%Y%m%dT%H%M%SZ"),
        &key[..key.len().min(12)]
    )
}

/// The id of the release `link` (current or previous) points at.
fn linked_release(site_dir: &Path, link: &str) -> Option<String> {
    let target = std::fs::read_link(site_dir.join(link)).ok()?;
    let name = target.file_name()?.to_string_lossy().into_owned();
    site_dir.join(RELEASES).join(&name).is_dir().then_some(name)
}

/// The current release's folder, when there is one.
pub fn current_dir(site_dir: &Path) -> Option<PathBuf> {
    current_release(site_dir).map(|id| site_dir.join(RELEASES).join(id))
}

/// The id of the published release, if the site has one.
pub fn current_release(site_dir: &Path) -> Option<String> {
    linked_release(site_dir, CURRENT)
}

/// The id of the release before it, if kept.
pub fn previous_release(site_dir: &Path) -> Option<String> {
    linked_release(site_dir, PREVIOUS)
}

/// The published release's description, when it has a complete one (a
/// `dist/` and a readable release.json).
pub fn current_info(site_dir: &Path) -> Option<ReleaseInfo> {
    let dir = site_dir.join(RELEASES).join(current_release(site_dir)?);
    if !dir.join("dist").is_dir() {
        return None;
    }
    let text = std::fs::read_to_string(dir.join(RELEASE_JSON)).ok()?;
    serde_json::from_str(&text).ok()
}

/// The current release's inputs key and summary, when it has them.
pub fn current_inputs(site_dir: &Path) -> Option<(String, Summary)> {
    let dir = site_dir.join(RELEASES).join(current_release(site_dir)?);
    let key = std::fs::read_to_string(dir.join(INPUTS_KEY)).ok()?;
    let summary = serde_json::from_str(&std::fs::read_to_string(dir.join(SUMMARY)).ok()?).ok()?;
    Some((key.trim_end().to_string(), summary))
}

/// Records new inputs that generate the current release's very data (its
/// build key matched), so the next build finds them without generating.
/// Written under a temporary name and renamed: readers see one or the other.
pub fn set_current_inputs(site_dir: &Path, inputs_key: &str, summary: &Summary) -> Result<()> {
    let Some(id) = current_release(site_dir) else {
        return Ok(());
    };
    let dir = site_dir.join(RELEASES).join(id);
    for (name, text) in [
        (INPUTS_KEY, format!("{inputs_key}\n")),
        (SUMMARY, serde_json::to_string(summary)?),
    ] {
        let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, dir.join(name))?;
    }
    Ok(())
}

/// Points `site_dir/<link>` at `releases/<id>` in one step.
fn flip(site_dir: &Path, link: &str, id: &str) -> Result<()> {
    replace_link(site_dir, link, &Path::new(RELEASES).join(id))
}

/// `dist`, `edge-config.json` and `edge-kv.json` at the site's top level,
/// as links through `current` (so they switch with it).
fn stable_links(site_dir: &Path) -> Result<()> {
    for name in STABLE {
        let target = Path::new(CURRENT).join(name);
        if std::fs::read_link(site_dir.join(name)).ok().as_deref() != Some(target.as_path()) {
            replace_link(site_dir, name, &target)?;
        }
    }
    Ok(())
}

/// Points `site_dir/<name>` at `target` in one step: a new symlink under a
/// temporary name renamed over the old one, so readers see one or the other.
fn replace_link(site_dir: &Path, name: &str, target: &Path) -> Result<()> {
    let tmp = site_dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    symlink(target, &tmp)?;
    std::fs::rename(&tmp, site_dir.join(name)).with_context(|| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot switch {}", site_dir.join(name).display())
    })
}

/// A site built before releases existed has a real `dist/` folder and edge
/// files at its top level; a symlink cannot be renamed over a folder, so
/// they are moved aside (into `releases/`, pruned with the old releases)
/// just before the stable links are made. This happens once per site.
fn migrate_flat_layout(site_dir: &Path) -> Result<()> {
    for name in STABLE {
        let path = site_dir.join(name);
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.file_type().is_symlink() {
            continue;
        }
        let aside = site_dir
            .join(RELEASES)
            .join(format!(".flat-{}", std::process::id()));
        std::fs::create_dir_all(&aside)?;
        std::fs::rename(&path, aside.join(name))
            .with_context(|| format!("cannot move {} aside", path.display()))?;
    }
    Ok(())
}

/// Removes every release but current and previous (and leftovers of the
/// flat layout). A release being staged by this process is not touched.
pub fn prune(site_dir: &Path) -> Result<()> {
    let keep = [current_release(site_dir), previous_release(site_dir)];
    let releases = site_dir.join(RELEASES);
    for entry in std::fs::read_dir(&releases)?.filter_map(Result::ok) {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(STAGING_PREFIX) || keep.iter().flatten().any(|k| *k == name) {
            continue;
        }
        std::fs::remove_dir_all(entry.path())
            .with_context(|| format!("cannot prune {}", entry.path().display()))?;
    }
    Ok(())
}

fn symlink(target: &Path, link: &Path) -> Result<()> {
    #[cfg(unix)]
    std::os::unix::fs::symlink(target, link)
        .with_context(|| format!("cannot link {}", link.display()))?;
    #[cfg(not(unix))]
    anyhow::bail!(
        "releases need symbolic links; cannot link {} on this platform",
        link.display()
    );
    Ok(())
}

// Reading a release (deploy, rollback, previews).

/// One built release of a dealer.
#[derive(Debug, Clone)]
pub struct Release {
    pub slug: String,
    /// `<UTC yyyymmddThhmmssZ>-<first 12 hex of the build key>`.
    pub id: String,
    /// The release folder (links resolved).
    pub dir: PathBuf,
    /// The content hash of the build inputs.
    pub key: String,
    /// The edge config the worker reads for this dealer.
    pub edge: EdgeConfig,
}

impl Release {
    pub fn dist(&self) -> PathBuf {
        self.dir.join(DIST)
    }
    pub fn kv_file(&self) -> PathBuf {
        self.dir.join(EDGE_KV)
    }
}

/// The release `sites/<slug>/current` points at.
pub fn current(sites_dir: &Path, slug: &str) -> Result<Release> {
    let link = sites_dir.join(slug).join(CURRENT);
    if std::fs::symlink_metadata(&link).is_err() {
        bail!(
            "dealer `{slug}` has no build to deploy ({} does not exist): run `dealergen build --dealer {slug}` first",
            link.display()
        );
    }
    let dir = link.canonicalize().with_context(|| {
        format!(
            "dealer `{slug}`: {} points at a release that is gone; run `dealergen build --dealer {slug}`",
            link.display()
        )
    })?;
    read(slug, &dir)
}

/// A release folder, checked to hold everything a deployment uploads.
pub fn read(slug: &str, dir: &Path) -> Result<Release> {
    let id = dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_string();
    let shown = dir.display();
    for needed in [
        &format!("{DIST}/index.html"),
        EDGE_KV,
        EDGE_CONFIG,
        BUILD_KEY,
    ] {
        if !dir.join(needed).exists() {
            bail!("dealer `{slug}`: release {shown} has no {needed} (an unfinished or foreign build); run `dealergen build --dealer {slug}`");
        }
    }
    let key = std::fs::read_to_string(dir.join(BUILD_KEY))
        .with_context(|| format!("dealer `{slug}`: cannot read {shown}/build-key"))?
        .trim()
        .to_string();
    if key.len() < 12 || !key.chars().all(|c| c.is_ascii_hexdigit()) {
        bail!("dealer `{slug}`: {shown}/build-key does not hold a hex content hash");
    }
    let edge_text = std::fs::read_to_string(dir.join(EDGE_CONFIG))
        .with_context(|| format!("dealer `{slug}`: cannot read {shown}/edge-config.json"))?;
    let edge: EdgeConfig = serde_json::from_str(&edge_text)
        .with_context(|| format!("dealer `{slug}`: {shown}/edge-config.json"))?;
    if edge.dealer != slug {
        bail!(
            "dealer `{slug}`: {shown}/edge-config.json is dealer `{}`'s",
            edge.dealer
        );
    }
    if edge.origins.is_empty() {
        bail!("dealer `{slug}`: {shown}/edge-config.json names no origin (site_url)");
    }
    Ok(Release {
        slug: slug.to_string(),
        id,
        dir: dir.to_path_buf(),
        key,
        edge,
    })
}

/// A release of the dealer by id, if it is still on this machine.
pub fn by_id(sites_dir: &Path, slug: &str, id: &str) -> Option<Release> {
    let dir = sites_dir.join(slug).join(RELEASES).join(id);
    read(slug, &dir).ok()
}

/// The KV entries of a release (`wrangler kv bulk put` format).
pub fn kv_entries(file: &Path) -> Result<Vec<KvEntry>> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{}", file.display()))
}

/// One KV entry of a release.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KvEntry {
    pub key: String,
    pub value: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn release(site: &Path, key: &str, at: &str, page: &str) -> Result<String> {
        let staged = stage(site)?;
        std::fs::create_dir_all(staged.dist())?;
        std::fs::write(staged.dist().join("index.html"), page)?;
        std::fs::write(staged.dir().join("edge-config.json"), key)?;
        std::fs::write(staged.dir().join("edge-kv.json"), "[]")?;
        staged.publish("demo", key, at.parse().unwrap(), 1)
    }

    #[test]
    fn a_release_keeps_its_inputs_key_and_summary() {
        let dir = tempfile::tempdir().unwrap();
        let staged = stage(dir.path()).unwrap();
        std::fs::create_dir_all(staged.dist()).unwrap();
        let summary = Summary {
            cars_visible: 3,
            cars_hidden: 1,
            skipped: 0,
            feed_warnings: 1,
            warnings: vec!["w".into()],
        };
        staged
            .publish_with(
                "demo",
                &"a".repeat(64),
                "2026-11-20T01:02:03Z".parse().unwrap(),
                0,
                Some(("i1", &summary)),
            )
            .unwrap();
        assert_eq!(
            current_inputs(dir.path()),
            Some(("i1".into(), summary.clone()))
        );
        set_current_inputs(dir.path(), "i2", &summary).unwrap();
        assert_eq!(current_inputs(dir.path()).unwrap().0, "i2");
    }

    #[test]
    fn publishing_switches_current_keeps_previous_and_prunes_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path();
        let a = release(site, &"a".repeat(64), "2026-11-20T01:02:03Z", "A").unwrap();
        assert_eq!(a, "20261120T010203Z-aaaaaaaaaaaa");
        assert_eq!(
            std::fs::read_to_string(site.join("dist/index.html")).unwrap(),
            "A"
        );
        assert_eq!(previous_release(site), None);
        let b = release(site, &"b".repeat(64), "2026-11-20T01:02:04Z", "B").unwrap();
        let c = release(site, &"c".repeat(64), "2026-11-20T01:02:05Z", "C").unwrap();
        assert_eq!(current_release(site).as_deref(), Some(c.as_str()));
        assert_eq!(previous_release(site).as_deref(), Some(b.as_str()));
        assert_eq!(
            std::fs::read_to_string(site.join("dist/index.html")).unwrap(),
            "C"
        );
        assert_eq!(
            std::fs::read_to_string(site.join("edge-config.json")).unwrap(),
            "c".repeat(64)
        );
        let mut left: Vec<String> = std::fs::read_dir(site.join(RELEASES))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, [b, c.clone()], "{a} was pruned");
        let info = current_info(site).unwrap();
        assert_eq!((info.release, info.key), (c, "c".repeat(64)));
        assert_eq!(
            std::fs::read_to_string(site.join("current/build-key")).unwrap(),
            format!("{}\n", "c".repeat(64))
        );
    }

    #[test]
    fn the_same_key_twice_in_one_second_gets_two_releases() {
        let dir = tempfile::tempdir().unwrap();
        let key = "d".repeat(64);
        let one = release(dir.path(), &key, "2026-11-20T01:02:03Z", "1").unwrap();
        let two = release(dir.path(), &key, "2026-11-20T01:02:03Z", "2").unwrap();
        assert_ne!(one, two);
        assert_eq!(previous_release(dir.path()), Some(one));
        assert_eq!(current_release(dir.path()), Some(two));
    }

    #[test]
    fn an_unpublished_release_leaves_nothing_and_keeps_the_current_site() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path();
        let a = release(site, &"a".repeat(64), "2026-11-20T01:02:03Z", "A").unwrap();
        {
            let staged = stage(site).unwrap();
            std::fs::create_dir_all(staged.dist()).unwrap();
            std::fs::write(staged.dist().join("index.html"), "half").unwrap();
        }
        let left: Vec<_> = std::fs::read_dir(site.join(RELEASES)).unwrap().collect();
        assert_eq!(left.len(), 1);
        assert_eq!(current_release(site), Some(a));
        assert_eq!(
            std::fs::read_to_string(site.join("dist/index.html")).unwrap(),
            "A"
        );
    }

    #[test]
    fn a_site_of_the_flat_layout_moves_to_releases() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path();
        std::fs::create_dir_all(site.join("dist")).unwrap();
        std::fs::write(site.join("dist/index.html"), "old").unwrap();
        std::fs::write(site.join("edge-config.json"), "old").unwrap();
        release(site, &"e".repeat(64), "2026-11-20T01:02:03Z", "new").unwrap();
        for name in STABLE {
            assert!(std::fs::symlink_metadata(site.join(name))
                .unwrap()
                .file_type()
                .is_symlink());
        }
        assert_eq!(
            std::fs::read_to_string(site.join("dist/index.html")).unwrap(),
            "new"
        );
        let left: Vec<_> = std::fs::read_dir(site.join(RELEASES)).unwrap().collect();
        assert_eq!(left.len(), 1, "the flat site was pruned");
    }

    /// While current switches, `dist/index.html` is readable at every
    /// moment: a reader thread never sees it missing.
    #[test]
    fn readers_never_see_a_site_missing_while_it_switches() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path().to_path_buf();
        release(&site, &"0".repeat(64), "2026-11-20T00:00:00Z", "0").unwrap();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let reader = {
            let (site, stop) = (site.clone(), stop.clone());
            std::thread::spawn(move || {
                let (mut reads, mut missing) = (0u64, 0u64);
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    match std::fs::read_to_string(site.join("dist/index.html")) {
                        Ok(_) => reads += 1,
                        Err(_) => missing += 1,
                    }
                }
                (reads, missing)
            })
        };
        for i in 1..40 {
            let key = format!("{i:064}");
            let at = format!("2026-11-20T00:00:{i:02}Z");
            release(&site, &key, &at, &i.to_string()).unwrap();
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let (reads, missing) = reader.join().unwrap();
        assert!(reads > 0);
        assert_eq!(missing, 0, "the site was missing during a switch");
    }
}
