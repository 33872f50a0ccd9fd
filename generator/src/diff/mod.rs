//! `dealergen diff`: what a change to a dealer's files does to its site.
//!
//! The base revision's files (the dealer file, every preset, the stock
//! feed and the dealer's own folder) are taken from git into a temporary
//! folder; both sides are then derived by the build's own functions
//! (`snapshot`) and compared (`compare`), and the result is written as
//! Markdown for a pull-request comment (`markdown`). Nothing runs Astro.

mod changed;
mod compare;
mod feeds;
mod markdown;
mod page_changes;
mod snapshot;

use std::path::{Component, Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use chrono::{DateTime, Utc};

pub use changed::{changed_dealers, Changed, PLATFORM};
pub use compare::{compare, CarEdit, CarMove, Change, Report, Section};
pub use feeds::{FeedChange, FeedRow, FeedRowEdit};
pub use markdown::{render, MARKER};
pub use page_changes::pages;
pub use snapshot::{take, Side, Snapshot};

use crate::project::Project;

/// The Markdown diff of dealer `slug` between `base` (a git revision) and
/// the working tree.
pub fn diff_dealer(
    project: &Project,
    slug: &str,
    base: &str,
    now: DateTime<Utc>,
) -> Result<String> {
    Ok(markdown::render(
        slug,
        base,
        now,
        &report(project, slug, base, now)?,
    ))
}

/// What changes for dealer `slug` between `base` (a git revision of the
/// repository holding the dealers folder) and the working tree.
pub fn report(project: &Project, slug: &str, base: &str, now: DateTime<Utc>) -> Result<Report> {
    // The dealers' repository: dealergen's own checkout, or a dealer
    // repository of its own beside it.
    let repo = Repo::of(&project.dealers_dir)?;
    let rev = repo.commit(base)?;
    let tmp = tempfile::tempdir().context("cannot create a temporary folder")?;
    let (presets, dealer_file) = repo.materialize(&rev, project, slug, tmp.path())?;
    // Both sides look for the feed's photos in the working tree's public
    // files: the diff is about the dealer's files, not the shared app's.
    let public = project.public_dir();
    let before = snapshot::take(&presets, &public, &dealer_file, now)?;
    let after = snapshot::take(
        &project.presets_dir(),
        &public,
        &project.dealer_file(slug),
        now,
    )?;
    Ok(compare::compare(&before, &after))
}

/// The git repository holding the checkout.
struct Repo {
    top: PathBuf,
}

impl Repo {
    fn of(root: &Path) -> Result<Repo> {
        let top = git(root, &["rev-parse", "--show-toplevel"]).with_context(|| {
            format!(
                "{} is not in a git repository; diff compares with a git revision",
                root.display()
            )
        })?;
        let top = PathBuf::from(String::from_utf8_lossy(&top).trim());
        Ok(Repo {
            top: top.canonicalize().unwrap_or(top),
        })
    }

    /// The tree of `rev` (a commit, branch, tag, or a tree such as git's
    /// empty tree for "everything is new"), or a clear error.
    fn commit(&self, rev: &str) -> Result<String> {
        if rev.starts_with('-') {
            bail!("`{rev}` is not a git revision");
        }
        let out = git(
            &self.top,
            &["rev-parse", "--verify", "--quiet", &format!("{rev}^{{tree}}")],
        )
        .map_err(|_| {
            anyhow::anyhow!(
                "`{rev}` is not a commit in {} (for a pull request, fetch the base branch first, e.g. `git fetch origin main` and --base origin/main)",
                self.top.display()
            )
        })?;
        Ok(String::from_utf8_lossy(&out).trim().to_string())
    }

    /// `path` relative to the repository, with `/` separators.
    fn relative(&self, path: &Path) -> Result<String> {
        let abs = if path.is_absolute() {
            path.to_path_buf()
        } else {
            std::env::current_dir()?.join(path)
        };
        let abs = normalize(&abs);
        let rel = match abs.strip_prefix(&self.top) {
            Ok(r) => r.to_path_buf(),
            Err(_) => {
                // The folder may be reached through a symlink.
                let canon = abs
                    .parent()
                    .and_then(|p| p.canonicalize().ok())
                    .map(|p| p.join(abs.file_name().unwrap_or_default()))
                    .unwrap_or_else(|| abs.clone());
                canon
                    .strip_prefix(&self.top)
                    .map(Path::to_path_buf)
                    .map_err(|_| {
                        anyhow::anyhow!(
                            "{} is outside the git repository {}",
                            path.display(),
                            self.top.display()
                        )
                    })?
            }
        };
        Ok(rel.to_string_lossy().replace('\\', "/"))
    }

    /// The bytes of `rel` at `rev`, or `None` when it is not there.
    fn show(&self, rev: &str, rel: &str) -> Result<Option<Vec<u8>>> {
        let spec = format!("{rev}:{rel}");
        if git(&self.top, &["cat-file", "-e", &spec]).is_err() {
            return Ok(None);
        }
        git(&self.top, &["cat-file", "blob", &spec]).map(Some)
    }

    /// Files under `rel` at `rev` (recursive), relative to the repository.
    fn list(&self, rev: &str, rel: &str) -> Result<Vec<String>> {
        let out = git(
            &self.top,
            &[
                "ls-tree",
                "-r",
                "--name-only",
                rev,
                "--",
                &format!("{rel}/"),
            ],
        )?;
        Ok(String::from_utf8_lossy(&out)
            .lines()
            .map(String::from)
            .collect())
    }

    /// Writes the base revision's files of dealer `slug` into `into` (the
    /// same layout as the repository) and returns its presets folder and
    /// dealer file there.
    fn materialize(
        &self,
        rev: &str,
        project: &Project,
        slug: &str,
        into: &Path,
    ) -> Result<(PathBuf, PathBuf)> {
        let put = |rel: &str, bytes: &[u8]| write_at(into, rel, bytes);
        // Presets outside the dealers' repository (a dealer repository of
        // its own) are the platform's, not the pull request's: both sides
        // use the working tree's.
        let Ok(presets_rel) = self.relative(&project.presets_dir()) else {
            let dealer_file = self.dealer_side(rev, project, slug, into, &project.presets_dir())?;
            return Ok((project.presets_dir(), dealer_file));
        };
        for file in self.list(rev, &presets_rel)? {
            if let Some(bytes) = self.show(rev, &file)? {
                put(&file, &bytes)?;
            }
        }
        let dealer_file = self.dealer_side(rev, project, slug, into, &into.join(&presets_rel))?;
        Ok((into.join(presets_rel), dealer_file))
    }

    /// Writes the base revision's dealer file, its feed and its own folder
    /// into `into`; the dealer file's path there. `presets`: the base's
    /// presets folder, where a feed named only by the preset is found.
    fn dealer_side(
        &self,
        rev: &str,
        project: &Project,
        slug: &str,
        into: &Path,
        presets: &Path,
    ) -> Result<PathBuf> {
        let put = |rel: &str, bytes: &[u8]| write_at(into, rel, bytes);
        let dealer_rel = self.relative(&project.dealer_file(slug))?;
        let dealer_file = into.join(&dealer_rel);
        if let Some(text) = self.show(rev, &dealer_rel)? {
            put(&dealer_rel, &text)?;
            // The feed, from the dealer file or else from its preset.
            let text = String::from_utf8_lossy(&text);
            let refs = dealer_config::dealer_refs(&text);
            let feed = refs.feed.or_else(|| {
                let preset = refs.template?;
                let bytes = std::fs::read(presets.join(format!("{preset}.yaml"))).ok()?;
                dealer_config::dealer_refs(&String::from_utf8_lossy(&bytes)).feed
            });
            let dealer_dir = Path::new(&dealer_rel).parent().unwrap_or(Path::new(""));
            if let Some(feed_rel) = feed.and_then(|f| inside(&dealer_dir.join(f))) {
                if let Some(bytes) = self.show(rev, &feed_rel)? {
                    put(&feed_rel, &bytes)?;
                }
            }
            // The dealer's own folder (content pages and the like).
            let own = dealer_dir.join(slug).to_string_lossy().replace('\\', "/");
            for file in self.list(rev, &own)? {
                if let Some(bytes) = self.show(rev, &file)? {
                    put(&file, &bytes)?;
                }
            }
        }
        Ok(dealer_file)
    }
}

/// Writes `bytes` to `into/rel`, making its folders.
fn write_at(into: &Path, rel: &str, bytes: &[u8]) -> Result<()> {
    let path = into.join(rel);
    std::fs::create_dir_all(path.parent().expect("has a parent"))?;
    std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

/// A repository-relative path with `..` resolved; `None` when it leaves
/// the repository.
pub(crate) fn inside(path: &Path) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    for c in path.components() {
        match c {
            Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(parts.join("/"))
}

/// `..` and `.` resolved without touching the disk.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// Runs git in `dir`; its output, or an error with what git said.
pub(crate) fn git(dir: &Path, args: &[&str]) -> Result<Vec<u8>> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .context("cannot run git (is it installed?)")?;
    if !out.status.success() {
        bail!(
            "git {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(out.stdout)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feed_paths_stay_inside_the_repository() {
        assert_eq!(
            inside(Path::new("dealers/stock/x.json")).as_deref(),
            Some("dealers/stock/x.json")
        );
        assert_eq!(
            inside(Path::new("dealers/../exports/x.json")).as_deref(),
            Some("exports/x.json")
        );
        assert_eq!(inside(Path::new("dealers/../../etc/passwd")), None);
        assert_eq!(inside(Path::new("/etc/passwd")), None);
    }
}
