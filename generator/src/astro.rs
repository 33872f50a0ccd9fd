//! Runs `astro build` for a generated project and swaps the new `dist/` in
//! only when the build succeeded and produced every page the contract
//! promises (docs/ARCHITECTURE.md, contract 2): a failed build leaves the old site.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::project::Project;

/// Folder the build writes to before the swap (inside the site, as Astro
/// wants its outDir under the project).
const STAGING: &str = ".dist-staging";
const OLD: &str = ".dist-old";

/// The Node 22 binary: `DEALERGEN_NODE`, else the one npm installed into
/// node_modules (scripts/setup.sh), else `node` on PATH.
pub fn node_binary(project: &Project) -> PathBuf {
    if let Some(n) = std::env::var_os("DEALERGEN_NODE") {
        return PathBuf::from(n);
    }
    let local = project.node_modules().join("node/bin/node");
    if local.is_file() {
        return local;
    }
    PathBuf::from("node")
}

/// Builds `site_dir` and returns the published `dist/` path.
/// `must_exist` lists files (relative to dist) that must be there;
/// `before_swap` checks and completes the staged site (the publish step)
/// and may refuse it, in which case the previous site stays.
pub fn build<T>(
    project: &Project,
    site_dir: &Path,
    must_exist: &[String],
    before_swap: impl FnOnce(&Path) -> Result<T>,
) -> Result<(PathBuf, T)> {
    let astro = project.node_modules().join("astro/bin/astro.mjs");
    if !astro.is_file() {
        bail!(
            "Astro is not installed ({} missing): run scripts/setup.sh first",
            astro.display()
        );
    }
    let staging = site_dir.join(STAGING);
    if staging.exists() {
        std::fs::remove_dir_all(&staging)
            .with_context(|| format!("cannot clear {}", staging.display()))?;
    }
    let node = node_binary(project);
    let log_path = site_dir.join("build.log");
    let output = Command::new(&node)
        .arg(&astro)
        .arg("build")
        .arg("--silent")
        .current_dir(site_dir)
        .env("DEALERGEN_OUT_DIR", format!("./{STAGING}"))
        .env("ASTRO_TELEMETRY_DISABLED", "1")
        .env("NODE_ENV", "production")
        .output()
        .with_context(|| {
            format!(
                "cannot run {} (Node 22 is installed by scripts/setup.sh)",
                node.display()
            )
        })?;
    let mut log = output.stdout.clone();
    log.extend_from_slice(&output.stderr);
    let _ = std::fs::write(&log_path, &log);
    if !output.status.success() {
        let text = String::from_utf8_lossy(&log);
        let tail: Vec<&str> = text
            .lines()
            .rev()
            .take(25)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let _ = std::fs::remove_dir_all(&staging);
        bail!(
            "astro build failed ({}); last lines of {}:\n{}",
            output.status,
            log_path.display(),
            tail.join("\n")
        );
    }
    let missing: Vec<&String> = must_exist
        .iter()
        .filter(|f| !staging.join(f).is_file())
        .collect();
    if !missing.is_empty() {
        let _ = std::fs::remove_dir_all(&staging);
        bail!(
            "astro build did not produce {} expected page(s), e.g. {}; the previous site was kept",
            missing.len(),
            missing
                .iter()
                .take(3)
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let checked = match before_swap(&staging) {
        Ok(c) => c,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(e);
        }
    };
    Ok((swap_in(site_dir, &staging)?, checked))
}

/// Replaces `dist/` with the staging folder using renames, so a reader
/// never sees a half-written site.
pub fn swap_in(site_dir: &Path, staging: &Path) -> Result<PathBuf> {
    let dist = site_dir.join("dist");
    let old = site_dir.join(OLD);
    if old.exists() {
        std::fs::remove_dir_all(&old)?;
    }
    if dist.exists() {
        std::fs::rename(&dist, &old)
            .with_context(|| format!("cannot move {} aside", dist.display()))?;
    }
    if let Err(e) = std::fs::rename(staging, &dist) {
        // Put the old site back before reporting.
        if old.exists() {
            let _ = std::fs::rename(&old, &dist);
        }
        return Err(e).with_context(|| format!("cannot publish {}", dist.display()));
    }
    if old.exists() {
        std::fs::remove_dir_all(&old)?;
    }
    Ok(dist)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swap_replaces_dist_and_leaves_no_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path();
        std::fs::create_dir_all(site.join("dist")).unwrap();
        std::fs::write(site.join("dist/old.html"), "old").unwrap();
        std::fs::create_dir_all(site.join(STAGING)).unwrap();
        std::fs::write(site.join(STAGING).join("new.html"), "new").unwrap();
        let dist = swap_in(site, &site.join(STAGING)).unwrap();
        assert!(dist.join("new.html").is_file());
        assert!(!dist.join("old.html").exists());
        assert!(!site.join(STAGING).exists());
        assert!(!site.join(OLD).exists());
    }

    #[test]
    fn failed_swap_keeps_the_old_site() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path();
        std::fs::create_dir_all(site.join("dist")).unwrap();
        std::fs::write(site.join("dist/old.html"), "old").unwrap();
        assert!(swap_in(site, &site.join("missing-staging")).is_err());
        assert!(site.join("dist/old.html").is_file());
    }
}
