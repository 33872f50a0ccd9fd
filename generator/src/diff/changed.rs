//! `dealergen changed`: the dealers whose site a change can alter, for CI
//! to build (and later deploy) only those. A dealer is changed when one of
//! its own inputs differs from the base revision (its YAML, its preset,
//! its stock feed, its own folder), or when the platform itself changed
//! (the generator, the shared app, the page templates, the lock files),
//! which can alter every site.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::Result;

use super::Repo;
use crate::project::Project;

/// Paths (relative to the repository) whose change can alter every site.
pub const PLATFORM: [&str; 11] = [
    "templates/site/",
    "astro-app/",
    "generator/",
    "config/",
    "rules/",
    "edge/",
    "Cargo.toml",
    "Cargo.lock",
    "package.json",
    "package-lock.json",
    "wrangler.toml",
];

/// Why a dealer is in the list.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Changed {
    pub dealer: String,
    /// The changed file that put it there (the first one found).
    pub because: String,
}

/// The dealers of the working tree whose inputs differ from `base`.
pub fn changed_dealers(project: &Project, base: &str) -> Result<Vec<Changed>> {
    let repo = Repo::of(&project.root)?;
    let rev = repo.commit(base)?;
    let mut files: BTreeSet<String> = BTreeSet::new();
    // Committed and uncommitted changes against the base...
    let diff = super::git(
        &repo.top,
        &["diff", "--name-only", "--no-renames", &rev, "--", "."],
    )?;
    files.extend(String::from_utf8_lossy(&diff).lines().map(String::from));
    // ...and new files not yet added.
    let new = super::git(&repo.top, &["ls-files", "--others", "--exclude-standard"])?;
    files.extend(String::from_utf8_lossy(&new).lines().map(String::from));

    let platform = files.iter().find(|f| {
        PLATFORM.iter().any(|p| {
            if p.ends_with('/') {
                f.starts_with(p)
            } else {
                f == p
            }
        })
    });
    let mut out = Vec::new();
    for file in project.dealer_files()? {
        let slug = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        if let Some(p) = platform {
            out.push(Changed {
                dealer: slug,
                because: p.clone(),
            });
            continue;
        }
        let inputs = dealer_inputs(&repo, project, &file, &slug)?;
        let hit = files.iter().find(|f| {
            inputs.iter().any(|i| {
                if i.ends_with('/') {
                    f.starts_with(i.as_str())
                } else {
                    *f == i
                }
            })
        });
        if let Some(f) = hit {
            out.push(Changed {
                dealer: slug,
                because: f.clone(),
            });
        }
    }
    Ok(out)
}

/// The repository paths one dealer's site is made from (a folder ends
/// with `/`).
fn dealer_inputs(repo: &Repo, project: &Project, file: &Path, slug: &str) -> Result<Vec<String>> {
    let rel = repo.relative(file)?;
    let dir = Path::new(&rel).parent().unwrap_or(Path::new(""));
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let refs = dealer_config::dealer_refs(&text);
    let presets = repo.relative(&project.presets_dir())?;
    let mut inputs = vec![
        rel.clone(),
        format!("{}/", dir.join(slug).to_string_lossy().replace('\\', "/")),
    ];
    let mut feed = refs.feed.clone();
    if let Some(t) = &refs.template {
        inputs.push(format!("{presets}/{t}.yaml"));
        if feed.is_none() {
            let preset = std::fs::read_to_string(project.presets_dir().join(format!("{t}.yaml")))
                .unwrap_or_default();
            feed = dealer_config::dealer_refs(&preset).feed;
        }
    }
    if let Some(f) = feed.and_then(|f| super::inside(&dir.join(f))) {
        inputs.push(f);
    }
    Ok(inputs)
}
