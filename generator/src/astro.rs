//! Runs `astro build` for a generated project into a staged release
//! (crate::release) and checks that it produced every page the contract
//! promises (docs/ARCHITECTURE.md, contract 2) before the caller publishes
//! it: a failed build leaves the old site.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::project::Project;

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

/// Builds `site_dir` into `out_dir` (a staged release's `dist/`, inside
/// the site as Astro wants its outDir under the project).
/// `must_exist` lists files (relative to dist) that must be there;
/// `before_publish` checks and completes the staged site (the publish step)
/// and may refuse it, in which case the caller keeps the previous site.
pub fn build<T>(
    project: &Project,
    site_dir: &Path,
    out_dir: &Path,
    must_exist: &[String],
    before_publish: impl FnOnce(&Path) -> Result<T>,
) -> Result<T> {
    run(project, site_dir, out_dir)?;
    check_promised(out_dir, must_exist)?;
    before_publish(out_dir)
}

/// Runs `astro build` in `project_dir` with its output in `out_dir` (inside
/// it); Astro's output goes to `build.log` there, and its last lines into
/// the error when it fails.
pub fn run(project: &Project, project_dir: &Path, out_dir: &Path) -> Result<()> {
    let astro = project.node_modules().join("astro/bin/astro.mjs");
    if !astro.is_file() {
        bail!(
            "Astro is not installed ({} missing): run scripts/setup.sh first",
            astro.display()
        );
    }
    let relative = out_dir.strip_prefix(project_dir).unwrap_or(out_dir);
    let node = node_binary(project);
    let log_path = project_dir.join("build.log");
    let output = Command::new(&node)
        .arg(&astro)
        .arg("build")
        .arg("--silent")
        .current_dir(project_dir)
        .env("DEALERGEN_OUT_DIR", format!("./{}", relative.display()))
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
        bail!(
            "astro build failed ({}); last lines of {}:\n{}",
            output.status,
            log_path.display(),
            tail.join("\n")
        );
    }
    Ok(())
}

/// Every page the site data promises is in the built site.
pub fn check_promised(dist: &Path, must_exist: &[String]) -> Result<()> {
    let missing: Vec<&String> = must_exist
        .iter()
        .filter(|f| !dist.join(f).is_file())
        .collect();
    if !missing.is_empty() {
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
    Ok(())
}
