//! Where things are in a dealergen checkout. Every path the generator uses
//! comes from here, so tests can point a build at a temporary tree.

use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
pub struct Project {
    /// Checkout root (the folder with `dealers/`, `templates/`, `astro-app/`).
    pub root: PathBuf,
    /// Where dealer files are read from (default `<root>/dealers`).
    pub dealers_dir: PathBuf,
    /// Where generated sites are written (default `<root>/sites`).
    pub sites_dir: PathBuf,
}

impl Project {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        let root = root.into();
        Project {
            dealers_dir: root.join("dealers"),
            sites_dir: root.join("sites"),
            root,
        }
    }

    pub fn presets_dir(&self) -> PathBuf {
        self.root.join("templates/presets")
    }
    /// Minijinja templates of a generated Astro project (a dealer's own or a batch's).
    pub fn site_templates_dir(&self) -> PathBuf {
        self.root.join("templates/site")
    }
    /// The deployed site worker's script (the older platform's query-string
    /// addresses; `deploy::configs::site`).
    pub fn site_worker_dir(&self) -> PathBuf {
        self.root.join("templates/site-worker")
    }
    pub fn astro_app_dir(&self) -> PathBuf {
        self.root.join("astro-app")
    }
    /// The site's public files (every site's `app/public`): photos a feed
    /// names by site path must be here.
    pub fn public_dir(&self) -> PathBuf {
        self.astro_app_dir().join("public")
    }
    pub fn node_modules(&self) -> PathBuf {
        self.root.join("node_modules")
    }
    pub fn site_dir(&self, slug: &str) -> PathBuf {
        self.sites_dir.join(slug)
    }
    pub fn dealer_file(&self, slug: &str) -> PathBuf {
        self.dealers_dir.join(format!("{slug}.yaml"))
    }
    /// The JSON Schema every dealer file references.
    pub fn schema_file(&self) -> PathBuf {
        self.dealers_dir.join("dealer.schema.json")
    }

    /// The marketers' field reference, generated from the schema and presets.
    pub fn field_reference_file(&self) -> PathBuf {
        self.root.join("docs/dealer-yaml.md")
    }

    /// The JSON Schema of site.json/cars.json that astro-app's types come from.
    pub fn site_data_schema_file(&self) -> PathBuf {
        self.astro_app_dir().join("src/types/site-data.schema.json")
    }

    /// Dealer files in `dealers/`, sorted by slug.
    pub fn dealer_files(&self) -> std::io::Result<Vec<PathBuf>> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&self.dealers_dir)?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
            .collect();
        files.sort();
        Ok(files)
    }

    /// Finds the checkout root from `start` upwards (the folder holding
    /// `templates/presets`), so `dealergen` works from any subfolder.
    pub fn discover(start: &Path) -> Option<PathBuf> {
        start
            .ancestors()
            .find(|p| p.join("templates/presets").is_dir())
            .map(Path::to_path_buf)
    }
}
