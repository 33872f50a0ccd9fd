//! The build key: a content hash of everything a dealer's built site
//! depends on. A dealer whose key equals its published release's key is
//! not rebuilt (`build --force` rebuilds anyway).
//!
//! The key hashes what the generator hands Astro, not only the files it
//! read: the generated data (site.json, cars.json, search-index.json, the
//! edge files, the redirects and the promised page list) already reflects
//! the dealer's YAML, its preset, its stock feed, its content folder, the
//! moment visibility is judged at and the generator's own code, so a
//! change to any of them that changes a page changes the key. Around it:
//! the site templates (a dealer's own and the batch routes), the shared
//! app's sources and public files, the
//! lockfile and package.json, and the versions of dealergen (with the
//! identity of its binary), Node and Astro. A second key, the inputs key
//! ([`inputs_key`]), hashes the files the generator reads, so an unchanged
//! dealer is found without generating anything. Hashing the output rather than guessing from inputs is what
//! makes a cached site never stale: whatever changed, if the pages'
//! inputs are the same bytes, Astro would render the same pages.

use std::path::Path;

use anyhow::{Context, Result};
use sha2::{Digest, Sha256};
use walkdir::WalkDir;

use crate::project::Project;

/// The part of the key every dealer of one run shares, computed once.
#[derive(Debug, Clone)]
pub struct SharedKey {
    digest: [u8; 32],
    /// The presets folder, for the inputs key only: a preset change that
    /// does not change a dealer's generated data does not rebuild it.
    presets: [u8; 32],
}

impl SharedKey {
    /// No key: for a run that computes no build or inputs keys (the
    /// live preview of `dealergen dev`, which runs no Astro build).
    pub fn none() -> Self {
        SharedKey {
            digest: [0; 32],
            presets: [0; 32],
        }
    }

    /// Hashes the templates, the shared app, the presets, the lockfile and
    /// the tool versions of `project`. Not memoised: a run computes it once
    /// and hands it to every dealer, and a long-running `dealergen dev`
    /// recomputes it for each rebuild, so an edited template or preset is
    /// never hidden behind an old key.
    pub fn compute(project: &Project) -> Result<SharedKey> {
        let mut h = Sha256::new();
        field(&mut h, "dealergen", env!("CARGO_PKG_VERSION").as_bytes());
        field(&mut h, "binary", binary_identity().as_bytes());
        field(&mut h, "node", node_version(project).as_bytes());
        field(&mut h, "astro", &package_version(project, "astro"));
        field(
            &mut h,
            "react-integration",
            &package_version(project, "@astrojs/react"),
        );
        for file in ["package.json", "package-lock.json"] {
            let path = project.root.join(file);
            field(&mut h, file, &std::fs::read(&path).unwrap_or_default());
        }
        // The project templates; the routes of both kinds of project are
        // in the app (astro-app/src/routes), hashed below.
        tree(&mut h, "templates", &project.site_templates_dir())?;
        // The site worker goes out with the site: a change deploys it again.
        tree(&mut h, "site-worker", &project.site_worker_dir())?;
        for part in crate::run::render::APP_PARTS {
            tree(&mut h, part, &project.astro_app_dir().join(part))?;
        }
        let mut p = Sha256::new();
        tree(&mut p, "presets", &project.presets_dir())?;
        Ok(SharedKey {
            digest: h.finalize().into(),
            presets: p.finalize().into(),
        })
    }
}

/// The build key of one dealer (hex SHA-256): the shared part and every
/// generated file, i.e. everything Astro reads to build the dealer's site.
pub fn dealer_key(shared: &SharedKey, generated: &[(&str, String)], pages: &[String]) -> String {
    let mut h = Sha256::new();
    field(&mut h, "shared", &shared.digest);
    for (name, text) in generated {
        field(&mut h, name, text.as_bytes());
    }
    field(&mut h, "pages", pages.join("\n").as_bytes());
    format!("{:x}", h.finalize())
}

/// The inputs key of one dealer (hex SHA-256): the files the generator
/// reads for it (its YAML, the presets, its content folder, its stock
/// feed), the moment its stock is judged at, and the shared part. Equal
/// inputs give equal generated data, so a dealer whose inputs key equals
/// its current release's is up to date without generating anything: that
/// is what makes a no-op `build --all` of hundreds of dealers take well
/// under a second. When it differs, the build key (from the generated
/// data) decides, so a change that alters no page rebuilds nothing.
pub fn inputs_key(
    shared: &SharedKey,
    dealer_file: &Path,
    content_dir: &Path,
    feed: &Path,
    judged_at: i64,
) -> Result<String> {
    let mut h = Sha256::new();
    field(&mut h, "inputs-v1", &shared.digest);
    field(&mut h, "presets", &shared.presets);
    field(&mut h, "judged-at", &judged_at.to_le_bytes());
    let yaml = std::fs::read(dealer_file)
        .with_context(|| format!("cannot read {}", dealer_file.display()))?;
    field(&mut h, "yaml", &yaml);
    if content_dir.is_dir() {
        tree(&mut h, "content", content_dir)?;
    }
    // A missing feed hashes as empty: the build then fails on it as before.
    field(&mut h, "feed", &std::fs::read(feed).unwrap_or_default());
    Ok(format!("{:x}", h.finalize()))
}

/// Length-prefixed so no two different sequences of fields hash alike.
fn field(h: &mut Sha256, name: &str, bytes: &[u8]) {
    h.update((name.len() as u64).to_le_bytes());
    h.update(name.as_bytes());
    h.update((bytes.len() as u64).to_le_bytes());
    h.update(bytes);
}

/// Every file under `dir` by relative path and content, in a fixed order.
fn tree(h: &mut Sha256, label: &str, dir: &Path) -> Result<()> {
    use rayon::prelude::*;
    let files: Vec<std::path::PathBuf> = WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    // File contents are hashed in parallel (the shared app's photos are
    // most of the bytes), then combined in path order.
    let digests: Vec<Result<[u8; 32]>> = files
        .par_iter()
        .map(|f| {
            let bytes = std::fs::read(f).with_context(|| format!("cannot read {}", f.display()))?;
            Ok(Sha256::digest(&bytes).into())
        })
        .collect();
    field(h, "tree", label.as_bytes());
    for (file, digest) in files.iter().zip(digests) {
        let rel = file.strip_prefix(dir).unwrap_or(file);
        field(h, &rel.to_string_lossy(), &digest?);
    }
    Ok(())
}

/// Size and modification time of the running binary: a rebuilt dealergen
/// (new code under the same version number) counts as a new version.
fn binary_identity() -> String {
    std::env::current_exe()
        .and_then(std::fs::metadata)
        .map(|m| {
            let modified = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| d.as_nanos())
                .unwrap_or_default();
            format!("{}:{modified}", m.len())
        })
        .unwrap_or_default()
}

/// `node --version` of the Node that runs Astro.
fn node_version(project: &Project) -> String {
    let node = crate::run::astro::node_binary(project);
    std::process::Command::new(&node)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| format!("unknown ({})", node.display()))
}

/// The installed package's package.json (its version and everything else).
fn package_version(project: &Project, name: &str) -> Vec<u8> {
    std::fs::read(project.node_modules().join(name).join("package.json")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(shared: &SharedKey, files: &[(&str, String)]) -> String {
        dealer_key(shared, files, &["index.html".into()])
    }

    #[test]
    fn any_generated_byte_or_shared_input_changes_the_key() {
        let shared = SharedKey {
            digest: [1; 32],
            presets: [0; 32],
        };
        let files = vec![("cars.json", "[{\"price\":1}]".to_string())];
        let base = key(&shared, &files);
        assert_eq!(base.len(), 64);
        assert_eq!(base, key(&shared, &files), "stable");
        let priced = vec![("cars.json", "[{\"price\":2}]".to_string())];
        assert_ne!(base, key(&shared, &priced));
        // The same bytes under another file name are another input.
        let renamed = vec![("site.json", "[{\"price\":1}]".to_string())];
        assert_ne!(base, key(&shared, &renamed));
        let other = SharedKey {
            digest: [2; 32],
            presets: [0; 32],
        };
        assert_ne!(base, key(&other, &files));
        let more_pages = dealer_key(
            &shared,
            &files,
            &["index.html".into(), "a/index.html".into()],
        );
        assert_ne!(base, more_pages);
    }

    #[test]
    fn the_inputs_key_follows_the_feed_the_moment_and_the_presets() {
        let dir = tempfile::tempdir().unwrap();
        let (yaml, feed) = (dir.path().join("d.yaml"), dir.path().join("f.json"));
        std::fs::write(&yaml, "name: A\n").unwrap();
        std::fs::write(&feed, "[{\"price\":1}]").unwrap();
        let shared = SharedKey {
            digest: [1; 32],
            presets: [0; 32],
        };
        let content = dir.path().join("d");
        let base = inputs_key(&shared, &yaml, &content, &feed, 100).unwrap();
        assert_eq!(
            base,
            inputs_key(&shared, &yaml, &content, &feed, 100).unwrap()
        );
        assert_ne!(
            base,
            inputs_key(&shared, &yaml, &content, &feed, 101).unwrap()
        );
        let other_presets = SharedKey {
            digest: [1; 32],
            presets: [9; 32],
        };
        assert_ne!(
            base,
            inputs_key(&other_presets, &yaml, &content, &feed, 100).unwrap()
        );
        std::fs::write(&feed, "[{\"price\":2}]").unwrap();
        let priced = inputs_key(&shared, &yaml, &content, &feed, 100).unwrap();
        assert_ne!(base, priced);
        std::fs::create_dir_all(&content).unwrap();
        std::fs::write(content.join("about.md"), "hi").unwrap();
        let with_page = inputs_key(&shared, &yaml, &content, &feed, 100).unwrap();
        assert_ne!(priced, with_page);
        std::fs::write(content.join("about.md"), "ho").unwrap();
        assert_ne!(
            with_page,
            inputs_key(&shared, &yaml, &content, &feed, 100).unwrap()
        );
        std::fs::write(&yaml, "name: A # a comment\n").unwrap();
        assert_ne!(
            with_page,
            inputs_key(&shared, &yaml, &content, &feed, 100).unwrap()
        );
    }

    #[test]
    fn a_template_change_changes_the_shared_key() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for d in [
            "templates/site",
            "templates/presets",
            "astro-app/src",
            "astro-app/public",
        ] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        std::fs::write(root.join("templates/site/index.astro"), "a").unwrap();
        let project = Project::new(root);
        let a = SharedKey::compute(&project).unwrap().digest;
        std::fs::write(root.join("templates/site/index.astro"), "b").unwrap();
        let b = SharedKey::compute(&project).unwrap().digest;
        assert_ne!(a, b);
        std::fs::write(root.join("astro-app/src/x.ts"), "b").unwrap();
        let c = SharedKey::compute(&project).unwrap().digest;
        assert_ne!(b, c);
        // A route (the routes are the app's, for both kinds of project).
        std::fs::create_dir_all(root.join("astro-app/src/routes")).unwrap();
        std::fs::write(root.join("astro-app/src/routes/index.astro"), "c").unwrap();
        assert_ne!(c, SharedKey::compute(&project).unwrap().digest);
        // The deployed site worker's script.
        std::fs::create_dir_all(root.join("templates/site-worker")).unwrap();
        let d = SharedKey::compute(&project).unwrap().digest;
        std::fs::write(root.join("templates/site-worker/worker.mjs"), "x").unwrap();
        assert_ne!(d, SharedKey::compute(&project).unwrap().digest);
        let presets = SharedKey::compute(&project).unwrap().presets;
        std::fs::write(root.join("templates/presets/p.yaml"), "x: 1").unwrap();
        assert_ne!(presets, SharedKey::compute(&project).unwrap().presets);
    }
}
