//! Where the dealer's last good build is. A build publishes either a flat
//! `sites/<slug>/dist/` or a release folder behind `sites/<slug>/current`
//! (with `dist` a symlink to `current/dist`); both are followed afresh on
//! every request, so a new build is served the moment it is swapped in.

use std::path::{Path, PathBuf};

/// The published build of one site folder.
#[derive(Debug, Clone)]
pub struct Published {
    site_dir: PathBuf,
}

impl Published {
    pub fn new(site_dir: impl Into<PathBuf>) -> Self {
        Published {
            site_dir: site_dir.into(),
        }
    }

    /// The folder the build wrote (`current/dist` when there is a
    /// `current` release, else `dist`), resolved through its symlinks so
    /// one request reads one build even if the next one is swapped in
    /// meanwhile. `None` before the first successful build.
    pub fn dist(&self) -> Option<PathBuf> {
        self.candidate("dist")
            .filter(|d| d.join("index.html").is_file())
    }

    /// The worker's KV entries of the published build (`edge-kv.json`).
    pub fn edge_kv(&self) -> Option<PathBuf> {
        self.candidate("edge-kv.json").filter(|p| p.is_file())
    }

    fn candidate(&self, name: &str) -> Option<PathBuf> {
        let in_release = self.site_dir.join("current").join(name);
        let path = if in_release.exists() {
            in_release
        } else {
            self.site_dir.join(name)
        };
        path.canonicalize().ok()
    }
}

/// `path` below `root` (both canonical), or `None` when a symlink inside
/// the build leads out of it.
pub fn inside(root: &Path, path: &Path) -> Option<PathBuf> {
    let real = path.canonicalize().ok()?;
    real.starts_with(root).then_some(real)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_the_current_release_and_falls_back_to_a_flat_dist() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path();
        let published = Published::new(site);
        assert_eq!(published.dist(), None, "nothing built yet");

        std::fs::create_dir_all(site.join("dist")).unwrap();
        std::fs::write(site.join("dist/index.html"), "flat").unwrap();
        assert_eq!(
            published.dist().unwrap(),
            site.join("dist").canonicalize().unwrap()
        );

        // The release layout: current -> releases/<id>, dist -> current/dist.
        for id in ["r1", "r2"] {
            std::fs::create_dir_all(site.join("releases").join(id).join("dist")).unwrap();
            std::fs::write(site.join("releases").join(id).join("dist/index.html"), id).unwrap();
        }
        std::fs::remove_dir_all(site.join("dist")).unwrap();
        std::os::unix::fs::symlink("releases/r1", site.join("current")).unwrap();
        std::os::unix::fs::symlink("current/dist", site.join("dist")).unwrap();
        let r1 = published.dist().unwrap();
        assert!(r1.ends_with("releases/r1/dist"), "{}", r1.display());
        // Flipped as the build flips it: a new link renamed over the old.
        std::os::unix::fs::symlink("releases/r2", site.join("current.new")).unwrap();
        std::fs::rename(site.join("current.new"), site.join("current")).unwrap();
        assert!(published.dist().unwrap().ends_with("releases/r2/dist"));
    }

    #[test]
    fn a_symlink_out_of_the_build_is_not_inside_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("dist");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(dir.path().join("secret.txt"), "x").unwrap();
        std::fs::write(root.join("ok.txt"), "x").unwrap();
        std::os::unix::fs::symlink("../secret.txt", root.join("leak.txt")).unwrap();
        let root = root.canonicalize().unwrap();
        assert!(inside(&root, &root.join("ok.txt")).is_some());
        assert_eq!(inside(&root, &root.join("leak.txt")), None);
        assert_eq!(inside(&root, &root.join("missing.txt")), None);
    }
}
