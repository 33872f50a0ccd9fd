//! Finding what `build` produced for a dealer: `sites/<slug>/current`, a
//! link to `releases/<release-id>/` holding `dist/`, `edge-config.json`,
//! `edge-kv.json`, `build-key` and `release.json`. Deploy reads the release
//! the link points at once, by its real path, so a build that flips
//! `current` meanwhile cannot mix two releases into one deployment.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use dealer_rules::edge_config::EdgeConfig;

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
        self.dir.join("dist")
    }
    pub fn kv_file(&self) -> PathBuf {
        self.dir.join("edge-kv.json")
    }
}

/// The release `sites/<slug>/current` points at.
pub fn current(sites_dir: &Path, slug: &str) -> Result<Release> {
    let link = sites_dir.join(slug).join("current");
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
        "dist/index.html",
        "edge-kv.json",
        "edge-config.json",
        "build-key",
    ] {
        if !dir.join(needed).exists() {
            bail!("dealer `{slug}`: release {shown} has no {needed} (an unfinished or foreign build); run `dealergen build --dealer {slug}`");
        }
    }
    let key = std::fs::read_to_string(dir.join("build-key"))
        .with_context(|| format!("dealer `{slug}`: cannot read {shown}/build-key"))?
        .trim()
        .to_string();
    if key.len() < 12 || !key.chars().all(|c| c.is_ascii_hexdigit()) {
        bail!("dealer `{slug}`: {shown}/build-key does not hold a hex content hash");
    }
    let edge_text = std::fs::read_to_string(dir.join("edge-config.json"))
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
    let dir = sites_dir.join(slug).join("releases").join(id);
    read(slug, &dir).ok()
}

/// The KV entries of a release (`wrangler kv bulk put` format).
pub fn kv_entries(file: &Path) -> Result<Vec<KvEntry>> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{}", file.display()))
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct KvEntry {
    pub key: String,
    pub value: String,
}
