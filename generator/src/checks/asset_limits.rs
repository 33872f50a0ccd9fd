//! Cloudflare's limits on a dealer's site, a Workers static-assets worker,
//! checked before anything is uploaded (`deploy`, `deploy --dry-run`) and
//! reported by `build` as a warning. From Cloudflare's Workers limits page:
//! "Number of Static Asset files per Worker version": 20,000 on Workers
//! Free, 100,000 on Workers Paid; "Individual Static Asset file size":
//! 25 MiB on both. A site over them does not deploy: wrangler refuses the
//! upload, after the other dealers' sites may already have gone out.

use std::path::Path;

use anyhow::{Context, Result};

/// The Workers plan of the account (`sites.plan` in config/deploy.toml).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Plan {
    /// Workers Free: 20,000 files per site.
    #[default]
    Free,
    /// Workers Paid: 100,000 files per site.
    Paid,
}

/// The largest file a static-assets worker serves: 25 MiB.
pub const MAX_FILE_BYTES: u64 = 25 * 1024 * 1024;

/// What wrangler reads as the site's configuration rather than uploading
/// as assets.
const NOT_ASSETS: [&str; 2] = ["_headers", "_redirects"];

impl Plan {
    /// The plan named `name` in config/deploy.toml.
    pub fn parse(name: &str) -> Option<Plan> {
        match name {
            "free" => Some(Plan::Free),
            "paid" => Some(Plan::Paid),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Plan::Free => "free",
            Plan::Paid => "paid",
        }
    }

    /// Workers one account may hold (Cloudflare's Workers limits: 100 on
    /// Free, 500 on Paid).
    pub fn max_workers(self) -> usize {
        match self {
            Plan::Free => 100,
            Plan::Paid => 500,
        }
    }

    /// Static-asset files one version of a worker may have.
    pub fn max_files(self) -> usize {
        match self {
            Plan::Free => 20_000,
            Plan::Paid => 100_000,
        }
    }
}

/// A built site's assets as the platform counts them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AssetCount {
    /// Files uploaded as assets.
    pub files: usize,
    /// The largest of them: its path in the site and its size in bytes.
    pub largest: Option<(String, u64)>,
}

impl AssetCount {
    /// The count of `files` (path in the site, bytes).
    pub fn of<'a>(files: impl IntoIterator<Item = (&'a str, u64)>) -> AssetCount {
        let mut count = AssetCount::default();
        for (path, size) in files {
            if NOT_ASSETS.contains(&path) {
                continue;
            }
            count.files += 1;
            if count.largest.as_ref().is_none_or(|(_, s)| size > *s) {
                count.largest = Some((path.to_string(), size));
            }
        }
        count
    }

    /// The count of the built site in `dist` (links followed, as wrangler does).
    pub fn scan(dist: &Path) -> Result<AssetCount> {
        let mut files = Vec::new();
        for entry in walkdir::WalkDir::new(dist).follow_links(true) {
            let entry = entry.with_context(|| format!("cannot list {}", dist.display()))?;
            if !entry.file_type().is_file() {
                continue;
            }
            let size = entry
                .metadata()
                .with_context(|| format!("cannot read {}", entry.path().display()))?
                .len();
            let rel = entry.path().strip_prefix(dist).unwrap_or(entry.path());
            files.push((rel.to_string_lossy().replace('\\', "/"), size));
        }
        Ok(AssetCount::of(files.iter().map(|(p, s)| (p.as_str(), *s))))
    }

    /// Why the site cannot go out on `plan` (nothing when it can).
    pub fn problems(&self, plan: Plan) -> Vec<String> {
        let mut problems = Vec::new();
        if self.files > plan.max_files() {
            problems.push(format!(
                "{} files, over the {} files a Workers {} plan site may have (Cloudflare's static-assets limit; fewer cars, or the paid plan: sites.plan in config/deploy.toml)",
                self.files,
                plan.max_files(),
                plan.name()
            ));
        }
        if let Some((path, size)) = &self.largest {
            if *size > MAX_FILE_BYTES {
                problems.push(format!(
                    "{path} is {:.1} MiB, over the 25 MiB a static asset may be",
                    *size as f64 / (1024.0 * 1024.0)
                ));
            }
        }
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_site_at_the_limit_goes_out_and_one_file_more_does_not() {
        let paths: Vec<String> = (0..20_000)
            .map(|i| format!("cars/{i}/index.html"))
            .collect();
        let mut files: Vec<(&str, u64)> = paths.iter().map(|p| (p.as_str(), 100)).collect();
        // The CDN's configuration files are not assets.
        files.push(("_headers", 10));
        files.push(("_redirects", 10));
        let at = AssetCount::of(files.clone());
        assert_eq!(at.files, 20_000);
        assert!(at.problems(Plan::Free).is_empty());
        files.push(("one-more.json", 1));
        let over = AssetCount::of(files);
        let problems = over.problems(Plan::Free);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with("20001 files, over the 20000 files a Workers free plan site")
        );
        assert!(over.problems(Plan::Paid).is_empty());
    }

    #[test]
    fn a_file_over_25_mib_is_named() {
        let count = AssetCount::of([
            ("index.html", 1000),
            ("images/huge.jpg", MAX_FILE_BYTES + 1),
            ("images/ok.jpg", MAX_FILE_BYTES),
        ]);
        assert_eq!(
            count.largest,
            Some(("images/huge.jpg".into(), MAX_FILE_BYTES + 1))
        );
        let problems = count.problems(Plan::Paid);
        assert_eq!(
            problems,
            ["images/huge.jpg is 25.0 MiB, over the 25 MiB a static asset may be"]
        );
        assert!(AssetCount::of([("a", MAX_FILE_BYTES)])
            .problems(Plan::Free)
            .is_empty());
    }

    #[test]
    fn scan_counts_a_built_folder_as_the_platform_does() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("cars/a")).unwrap();
        std::fs::write(dir.path().join("cars/a/index.html"), "12345").unwrap();
        std::fs::write(dir.path().join("_headers"), "/*\n  X: y\n").unwrap();
        std::fs::write(dir.path().join("index.html"), "1").unwrap();
        let count = AssetCount::scan(dir.path()).unwrap();
        assert_eq!(count.files, 2);
        assert_eq!(count.largest, Some(("cars/a/index.html".into(), 5)));
        assert_eq!(Plan::parse("paid"), Some(Plan::Paid));
        assert_eq!(Plan::parse("enterprise"), None);
    }
}
