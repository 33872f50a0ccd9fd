//! Which file changes rebuild the dealer: its YAML, its preset (and the
//! site templates: all of `templates/`), its stock feed, its content folder
//! (`dealers/<slug>/`) and the shared app (`astro-app/src`, `public`).
//! Folders are watched rather than files, because editors save by writing a
//! new file and renaming it over the old one.

use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;

use anyhow::{Context, Result};
use notify::event::{AccessKind, AccessMode};
use notify::{EventKind, RecursiveMode, Watcher};

use crate::project::Project;

/// The files one dealer's build reads.
#[derive(Debug, Clone)]
pub struct Inputs {
    pub dealer_file: PathBuf,
    pub content_dir: PathBuf,
    /// The stock feed named by the YAML (as of its last good load).
    pub feed: Option<PathBuf>,
    /// Trees whose every file counts (templates, the shared app).
    pub trees: Vec<PathBuf>,
}

impl Inputs {
    pub fn new(project: &Project, dealer_file: &Path) -> Self {
        let dealer_file = absolute(dealer_file);
        let content_dir = dealer_config::content::pages_dir(&dealer_file)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let app = project.astro_app_dir();
        Inputs {
            dealer_file,
            content_dir,
            feed: None,
            trees: vec![
                absolute(&project.root.join("templates")),
                absolute(&app.join("src")),
                absolute(&app.join("public")),
            ],
        }
    }

    /// Reads which stock feed the YAML names now (without checking the
    /// file, so the feed is watched even while the file has problems; one
    /// that is not YAML at all keeps the feed last read).
    pub fn read_feed(&mut self) {
        let Ok(text) = std::fs::read_to_string(&self.dealer_file) else {
            return;
        };
        if let Some(feed) = dealer_config::dealer_refs(&text).feed {
            self.feed = Some(absolute(&parent(&self.dealer_file).join(feed)));
        }
    }

    /// Whether a change to `path` can change the site.
    pub fn affects(&self, path: &Path) -> bool {
        if path == self.dealer_file || Some(path) == self.feed.as_deref() {
            return true;
        }
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        // Editors' swap, backup and probe files (vim writes a file named 4913).
        let scratch = name.starts_with('.')
            || name.ends_with('~')
            || name.ends_with(".swp")
            || name.ends_with(".swx")
            || name == "4913";
        !scratch
            && (path.starts_with(&self.content_dir)
                || self.trees.iter().any(|t| path.starts_with(t)))
    }

    /// The folders to watch: (folder, recursively).
    fn folders(&self) -> Vec<(PathBuf, bool)> {
        let mut out = vec![(parent(&self.dealer_file), false)];
        if let Some(feed) = &self.feed {
            out.push((parent(feed), false));
        }
        out.push((self.content_dir.clone(), true));
        out.extend(self.trees.iter().map(|t| (t.clone(), true)));
        out
    }
}

fn parent(p: &Path) -> PathBuf {
    p.parent().map(Path::to_path_buf).unwrap_or_default()
}

/// `p` made absolute and its symlinks resolved where it exists (the OS
/// reports events under the real path).
pub fn absolute(p: &Path) -> PathBuf {
    if let Ok(real) = p.canonicalize() {
        return real;
    }
    // Not there (yet): resolve the folder, keep the name.
    match (
        p.parent().and_then(|d| d.canonicalize().ok()),
        p.file_name(),
    ) {
        (Some(dir), Some(name)) => dir.join(name),
        _ => std::env::current_dir().unwrap_or_default().join(p),
    }
}

/// Watches the folders of `inputs` and sends every changed path.
pub struct FileWatch {
    watcher: notify::RecommendedWatcher,
    watching: Vec<PathBuf>,
}

impl FileWatch {
    pub fn start(inputs: &Inputs, changed: Sender<PathBuf>) -> Result<Self> {
        let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            let Ok(event) = event else { return };
            // Reading a file (Astro reads the templates) is no change.
            let read_only = matches!(
                event.kind,
                EventKind::Access(AccessKind::Open(_) | AccessKind::Read)
                    | EventKind::Access(AccessKind::Close(AccessMode::Read))
                    | EventKind::Access(AccessKind::Any)
                    | EventKind::Access(AccessKind::Other)
            );
            if !read_only {
                for p in event.paths {
                    let _ = changed.send(p);
                }
            }
        })
        .context("cannot watch files for changes")?;
        let mut w = FileWatch {
            watcher,
            watching: Vec::new(),
        };
        w.update(inputs)?;
        Ok(w)
    }

    /// Watches what `inputs` names now (the feed may have moved).
    pub fn update(&mut self, inputs: &Inputs) -> Result<()> {
        for (dir, recursive) in inputs.folders() {
            if self.watching.contains(&dir) || !dir.is_dir() {
                continue;
            }
            let mode = if recursive {
                RecursiveMode::Recursive
            } else {
                RecursiveMode::NonRecursive
            };
            self.watcher
                .watch(&dir, mode)
                .with_context(|| format!("cannot watch {}", dir.display()))?;
            self.watching.push(dir);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_dealers_own_files_and_the_platform_count() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("dealers/stock")).unwrap();
        std::fs::create_dir_all(root.join("templates/presets")).unwrap();
        std::fs::write(
            root.join("dealers/a.yaml"),
            "template: x\nstock: { feed: stock/a.json }\nno_such_field: 1\n",
        )
        .unwrap();
        let project = Project::new(&root);
        let mut inputs = Inputs::new(&project, &root.join("dealers/a.yaml"));
        assert_eq!(inputs.feed, None);
        // Read from the YAML even when the file does not check.
        inputs.read_feed();
        assert_eq!(inputs.feed, Some(root.join("dealers/stock/a.json")));
        // A syntax error keeps the feed last read.
        std::fs::write(root.join("dealers/a.yaml"), "stock: [unclosed\n").unwrap();
        inputs.read_feed();
        assert_eq!(inputs.feed, Some(root.join("dealers/stock/a.json")));
        for yes in [
            "dealers/a.yaml",
            "dealers/stock/a.json",
            "dealers/a/pages/about.md",
            "templates/presets/franchise.yaml",
            "templates/site/astro.config.mjs.j2",
            "astro-app/src/views/HomePage.astro",
        ] {
            assert!(inputs.affects(&root.join(yes)), "{yes}");
        }
        for no in [
            "dealers/b.yaml",
            "dealers/stock/b.json",
            "dealers/.a.yaml.swp",
            "dealers/a/pages/.about.md.swp",
            "dealers/a/pages/4913",
            "sites/a/dist/index.html",
            "astro-app/node_modules/x.js",
        ] {
            assert!(!inputs.affects(&root.join(no)), "{no}");
        }
    }
}
