//! Pages the published release already passed the checks with, by content
//! hash, so a build checks only the pages whose bytes changed.
//!
//! An hourly stock refresh changes a few percent of a dealer's pages, but
//! the checks before publishing (finance compliance, the link scan) read
//! and parse every page: seconds per dealer, more than the pages that
//! changed cost to render. Both checks are functions of the page's bytes
//! alone: finance compliance judges one page, and the link check's only
//! per-page work is the scan (`scan::PageFacts`); resolving the links
//! against the site's files is cheap and always done for every page.
//!
//! So each release keeps, beside its `dist/`, the facts of every page it
//! published (`checked-pages.json`, by SHA-256 of the page). A page of the
//! next build with a known hash passed compliance (its release could not
//! have been published otherwise) and has those facts. The file names the
//! checker that wrote it (the dealergen executable: its path, size and
//! time): another build of dealergen, whose checks may differ, starts
//! from nothing.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::{Context, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use walkdir::WalkDir;

use super::scan::{PageFacts, Reference};

/// The file in a release folder.
pub const FILE: &str = "checked-pages.json";

/// One HTML page of a built site, read once for every check.
pub struct BuiltPage {
    /// Its file, relative to the site's root ("cars/x/index.html").
    pub file: String,
    pub text: String,
    /// SHA-256 of its bytes, hex.
    pub hash: String,
}

/// Every HTML page under `dist`, sorted by file, read and hashed in parallel.
pub fn read_pages(dist: &Path) -> Result<Vec<BuiltPage>> {
    let mut files: Vec<PathBuf> = Vec::new();
    for entry in WalkDir::new(dist) {
        let entry = entry.with_context(|| format!("cannot read {}", dist.display()))?;
        if entry.file_type().is_file() && entry.path().extension().is_some_and(|x| x == "html") {
            files.push(entry.into_path());
        }
    }
    files.sort();
    files
        .par_iter()
        .map(|path| {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let file = path
                .strip_prefix(dist)
                .expect("walkdir yields children")
                .to_string_lossy()
                .replace('\\', "/");
            let hash = format!("{:x}", Sha256::digest(text.as_bytes()));
            Ok(BuiltPage { file, text, hash })
        })
        .collect()
}

/// The known pages: the facts of each page hash the last release published.
#[derive(Default)]
pub struct KnownPages {
    facts: HashMap<String, PageFacts>,
}

/// The file's form. Most of a page's facts repeat on every page (the
/// header's links, the inline styles and scripts Astro writes into each
/// page): each distinct reference and text is stored once and pages name
/// them by index, which makes the file a few MB for a 900-page dealer
/// instead of 17.
#[derive(Serialize, Deserialize, Default)]
struct Stored {
    /// Which dealergen wrote it ([`checker`]).
    checker: String,
    refs: Vec<Reference>,
    texts: Vec<String>,
    pages: HashMap<String, StoredFacts>,
}

#[derive(Serialize, Deserialize)]
struct StoredFacts {
    refs: Vec<u32>,
    ids: HashSet<String>,
    base: Option<String>,
    inline_scripts: Vec<u32>,
    inline_styles: Vec<u32>,
    style_attributes: bool,
    event_handlers: Vec<String>,
    json_ld: Vec<u32>,
    title: Option<String>,
    description: Option<String>,
    canonical: Vec<String>,
    noindex: bool,
}

/// Gives each distinct value an index, in the order first seen.
struct Table<T: std::hash::Hash + Eq + Clone> {
    index: HashMap<T, u32>,
    values: Vec<T>,
}

impl<T: std::hash::Hash + Eq + Clone> Table<T> {
    fn new() -> Self {
        Table {
            index: HashMap::new(),
            values: Vec::new(),
        }
    }

    fn all(&mut self, values: &[T]) -> Vec<u32> {
        values
            .iter()
            .map(|v| {
                *self.index.entry(v.clone()).or_insert_with(|| {
                    self.values.push(v.clone());
                    u32::try_from(self.values.len() - 1).expect("fewer than 4 billion values")
                })
            })
            .collect()
    }
}

impl Stored {
    fn new(checker: &str, pages: Vec<(String, &PageFacts)>) -> Self {
        let mut refs = Table::new();
        let mut texts = Table::new();
        let pages = pages
            .into_iter()
            .map(|(hash, f)| {
                let stored = StoredFacts {
                    refs: refs.all(&f.refs),
                    ids: f.ids.clone(),
                    base: f.base.clone(),
                    inline_scripts: texts.all(&f.inline_scripts),
                    inline_styles: texts.all(&f.inline_styles),
                    style_attributes: f.style_attributes,
                    event_handlers: f.event_handlers.clone(),
                    json_ld: texts.all(&f.json_ld),
                    title: f.title.clone(),
                    description: f.description.clone(),
                    canonical: f.canonical.clone(),
                    noindex: f.noindex,
                };
                (hash, stored)
            })
            .collect();
        Stored {
            checker: checker.to_string(),
            refs: refs.values,
            texts: texts.values,
            pages,
        }
    }

    /// The pages' facts; `None` when an index points past its table (a
    /// damaged file, which is then not trusted at all).
    fn into_facts(self) -> Option<HashMap<String, PageFacts>> {
        let (refs, texts) = (&self.refs, &self.texts);
        let pick = |ids: &[u32], from: &[String]| -> Option<Vec<String>> {
            ids.iter().map(|&i| from.get(i as usize).cloned()).collect()
        };
        self.pages
            .into_iter()
            .map(|(hash, f)| {
                let facts = PageFacts {
                    refs: f
                        .refs
                        .iter()
                        .map(|&i| refs.get(i as usize).cloned())
                        .collect::<Option<_>>()?,
                    ids: f.ids,
                    base: f.base,
                    inline_scripts: pick(&f.inline_scripts, texts)?,
                    inline_styles: pick(&f.inline_styles, texts)?,
                    style_attributes: f.style_attributes,
                    event_handlers: f.event_handlers,
                    json_ld: pick(&f.json_ld, texts)?,
                    title: f.title,
                    description: f.description,
                    canonical: f.canonical,
                    noindex: f.noindex,
                };
                Some((hash, facts))
            })
            .collect()
    }
}

/// The identity of this dealergen's checks: its executable's path, size
/// and modification time (computed once per process; hashing the file
/// would cost seconds for a debug build). A rebuilt dealergen, whose
/// checks may differ, has another. Empty when it cannot be read, which
/// turns the known pages off rather than trusting another checker's.
fn checker() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let identity = || -> std::io::Result<String> {
            let exe = std::env::current_exe()?;
            let meta = std::fs::metadata(&exe)?;
            let modified = meta
                .modified()?
                .duration_since(std::time::UNIX_EPOCH)
                .map_err(std::io::Error::other)?;
            Ok(format!(
                "{} {} {} {}",
                env!("CARGO_PKG_VERSION"),
                exe.display(),
                meta.len(),
                modified.as_nanos()
            ))
        };
        identity()
            .map(|id| format!("{:x}", Sha256::digest(id.as_bytes())))
            .unwrap_or_default()
    })
}

impl KnownPages {
    /// Nothing known: every page is checked.
    pub fn none() -> Self {
        Self::default()
    }

    /// The pages of the release in `release_dir` (a site's `current`);
    /// nothing when it has no file, an unreadable one, or another
    /// checker's. Never an error: the worst case is checking every page.
    pub fn load(release_dir: &Path) -> Self {
        let id = checker();
        if id.is_empty() {
            return Self::none();
        }
        let Ok(text) = std::fs::read_to_string(release_dir.join(FILE)) else {
            return Self::none();
        };
        match serde_json::from_str::<Stored>(&text) {
            Ok(stored) if stored.checker == id => KnownPages {
                facts: stored.into_facts().unwrap_or_default(),
            },
            _ => Self::none(),
        }
    }

    /// The facts of a page with this hash, when a published release had it.
    pub fn get(&self, hash: &str) -> Option<&PageFacts> {
        self.facts.get(hash)
    }

    pub fn contains(&self, hash: &str) -> bool {
        self.facts.contains_key(hash)
    }

    /// Records a page's facts, found by this build's scan.
    pub fn insert(&mut self, hash: String, facts: PageFacts) {
        self.facts.insert(hash, facts);
    }

    /// Writes the facts of `pages` (the release being published, all of
    /// them checked and known by now) into its folder.
    pub fn save(&self, release_dir: &Path, pages: &[BuiltPage]) -> Result<()> {
        let id = checker();
        if id.is_empty() {
            return Ok(());
        }
        let stored = Stored::new(
            id,
            pages
                .iter()
                .filter_map(|p| Some((p.hash.clone(), self.facts.get(&p.hash)?)))
                .collect(),
        );
        let path = release_dir.join(FILE);
        std::fs::write(&path, serde_json::to_string(&stored)?)
            .with_context(|| format!("cannot write {}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(dir: &Path, file: &str, html: &str) {
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, html).unwrap();
    }

    #[test]
    fn what_pages_share_is_stored_once_and_every_page_gets_its_own_facts_back() {
        let nav = |url: &str| Reference {
            kind: super::super::scan::RefKind::Href,
            url: url.into(),
            tag: "a".into(),
        };
        let style = "body{margin:0}".repeat(100);
        let a = PageFacts {
            refs: vec![nav("/"), nav("/search/"), nav("/cars/a/")],
            inline_styles: vec![style.clone()],
            inline_scripts: vec!["island()".into()],
            json_ld: vec!["{\"@type\":\"Car\"}".into()],
            title: Some("A".into()),
            ids: HashSet::from(["main".to_string()]),
            ..PageFacts::default()
        };
        let b = PageFacts {
            refs: vec![nav("/"), nav("/search/"), nav("/cars/b/")],
            inline_styles: vec![style.clone()],
            inline_scripts: vec!["island()".into(), "other()".into()],
            title: Some("B".into()),
            noindex: true,
            ..PageFacts::default()
        };
        let stored = Stored::new("me", vec![("ha".into(), &a), ("hb".into(), &b)]);
        assert_eq!(stored.refs.len(), 4, "/ and /search/ once");
        assert_eq!(stored.texts.iter().filter(|t| **t == style).count(), 1);
        let text = serde_json::to_string(&stored).unwrap();
        assert!(
            text.len() < 2 * style.len(),
            "the style once: {} bytes",
            text.len()
        );
        let back = serde_json::from_str::<Stored>(&text)
            .unwrap()
            .into_facts()
            .unwrap();
        for (hash, want) in [("ha", &a), ("hb", &b)] {
            let got = &back[hash];
            assert_eq!(got.refs, want.refs);
            assert_eq!(got.inline_styles, want.inline_styles);
            assert_eq!(got.inline_scripts, want.inline_scripts);
            assert_eq!(got.json_ld, want.json_ld);
            assert_eq!(got.title, want.title);
            assert_eq!(got.ids, want.ids);
            assert_eq!(got.noindex, want.noindex);
        }
    }

    #[test]
    fn pages_are_read_sorted_and_hashed_by_their_bytes() {
        let dir = tempfile::tempdir().unwrap();
        page(dir.path(), "b/index.html", "<p>b</p>");
        page(dir.path(), "a/index.html", "<p>a</p>");
        page(dir.path(), "c/index.html", "<p>a</p>");
        page(dir.path(), "style.css", "p {}");
        let pages = read_pages(dir.path()).unwrap();
        let files: Vec<&str> = pages.iter().map(|p| p.file.as_str()).collect();
        assert_eq!(files, ["a/index.html", "b/index.html", "c/index.html"]);
        assert_eq!(pages[0].hash, pages[2].hash, "same bytes, same hash");
        assert_ne!(pages[0].hash, pages[1].hash);
    }

    #[test]
    fn saved_facts_come_back_for_the_same_bytes_only_and_only_from_this_checker() {
        let dir = tempfile::tempdir().unwrap();
        let dist = dir.path().join("dist");
        page(&dist, "index.html", "<title>Home</title>");
        let pages = read_pages(&dist).unwrap();
        let mut known = KnownPages::none();
        let facts = PageFacts {
            title: Some("Home".into()),
            ..PageFacts::default()
        };
        known.insert(pages[0].hash.clone(), facts);
        known.insert("not-in-this-release".into(), PageFacts::default());
        known.save(dir.path(), &pages).unwrap();

        let back = KnownPages::load(dir.path());
        assert_eq!(
            back.get(&pages[0].hash).unwrap().title.as_deref(),
            Some("Home")
        );
        assert!(
            !back.contains("not-in-this-release"),
            "only the release's pages are kept"
        );

        // Another dealergen's file: nothing is trusted.
        let text = std::fs::read_to_string(dir.path().join(FILE)).unwrap();
        let other = text.replacen(checker(), "another-build", 1);
        std::fs::write(dir.path().join(FILE), other).unwrap();
        assert!(!KnownPages::load(dir.path()).contains(&pages[0].hash));
        // An index past its table (a damaged file): nothing is trusted.
        let mut stored: Stored = serde_json::from_str(&text).unwrap();
        stored.pages.values_mut().for_each(|f| f.refs.push(99));
        stored.refs.push(Reference {
            kind: super::super::scan::RefKind::Href,
            url: "/".into(),
            tag: "a".into(),
        });
        std::fs::write(
            dir.path().join(FILE),
            serde_json::to_string(&stored).unwrap(),
        )
        .unwrap();
        assert!(!KnownPages::load(dir.path()).contains(&pages[0].hash));
        // A broken or missing file: nothing known, no error.
        std::fs::write(dir.path().join(FILE), "{ not json").unwrap();
        assert!(!KnownPages::load(dir.path()).contains(&pages[0].hash));
        assert!(!KnownPages::load(&dir.path().join("nowhere")).contains(&pages[0].hash));
    }
}
