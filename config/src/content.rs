//! The dealer's own pages: Markdown files in `dealers/<slug>/pages/`.
//!
//! `<name>.md` is the wording of a built-in page when `<name>` is one of
//! them (`about-us`, `warranty`, ... see [`BUILT_IN_PAGES`]), else a page
//! of its own at /pages/<name>/. A file starts with front matter:
//!
//! ```text
//! ---
//! title: Our warranty
//! description: Five years, unlimited kilometres, on every new car.
//! ---
//! Markdown follows...
//! ```
//!
//! `title` and `description` are required for a page of its own (every
//! page has both) and optional for a built-in page's wording. A page of its
//! own may keep its address from the dealer's old site: `path:
//! /diamond-advantage/` (one segment at the root, or under /pages/),
//! refused where the platform builds pages or another of the dealer's
//! pages is (the build's page table refuses any other collision). Problems
//! are reported at the file and line, like the dealer file's.

use std::path::{Path, PathBuf};

use crate::check::{span_at, KeyPath};
use crate::diagnostic::{Problem, SourceFiles};
use crate::model::{DealerConfig, PagesConfig, BUILT_IN_PAGES};
use crate::suggest::closest;
use crate::yaml::{Node, Span};

/// More pages than this in one dealer folder is a mistake (a copied export).
pub const MAX_PAGES: usize = 200;

/// The front matter keys a page may set.
const KEYS: [&str; 3] = ["title", "description", "path"];

/// First path segments where the platform builds its own pages or files: a
/// dealer page's `path` may not start with one (/pages/ takes a page of
/// the dealer's own, once).
const PLATFORM_SEGMENTS: &[&str] = &[
    "search",
    "cars",
    "contact-us",
    "locations",
    "offers",
    "models",
    "menus",
    "api",
    "_astro",
    "images",
    "feeds",
    "brand",
    "sign-in",
    "watchlist",
    "compare",
    "favourites",
    "special-offers",
    "success",
    "trade-in",
    "finance",
    "apply-for-finance",
    "book-test-drive",
    "parts",
    "unsubscribe",
    "review-feedback",
    "customer-feedback-survey",
    "contact",
    "teams",
    "blog",
];

/// One Markdown page of the dealer.
#[derive(Debug, Clone, PartialEq)]
pub struct MarkdownPage {
    /// The file stem: the page's slug ("warranty", "our-team").
    pub name: String,
    pub path: PathBuf,
    /// From the front matter.
    pub title: Option<String>,
    /// From the front matter.
    pub description: Option<String>,
    /// From the front matter: the page's own address (`/diamond-advantage/`)
    /// instead of /pages/<name>/.
    pub address: Option<String>,
    /// The Markdown after the front matter.
    pub body: String,
    /// Its index in the dealer's source files (for located problems).
    pub(crate) source: usize,
}

impl MarkdownPage {
    /// A page from its name and text, outside a dealer folder (tests,
    /// tools); the error is the first problem of its front matter.
    pub fn from_text(name: &str, text: &str) -> Result<MarkdownPage, String> {
        let (front, body) = parse(text, 0).map_err(|p| p.message)?;
        Ok(MarkdownPage {
            name: name.to_string(),
            path: PathBuf::from(format!("{name}.md")),
            title: front.title,
            description: front.description,
            address: front.path.map(|(p, _)| p),
            body,
            source: 0,
        })
    }
}

impl MarkdownPage {
    /// The site path of this page: a built-in page's, or /pages/<name>/.
    pub fn site_path(&self) -> String {
        match (PagesConfig::built_in_for_file(&self.name), &self.address) {
            (Some(b), _) => b.path.to_string(),
            (None, Some(address)) => address.clone(),
            (None, None) => format!("/pages/{}/", self.name),
        }
    }
}

/// The folder of a dealer's pages: `dealers/<slug>/pages/`.
pub fn pages_dir(dealer_file: &Path) -> PathBuf {
    let stem = dealer_file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    dealer_file
        .parent()
        .unwrap_or(Path::new("."))
        .join(stem)
        .join("pages")
}

fn start(file: usize) -> Span {
    Span {
        file,
        line: 1,
        col: 1,
    }
}

/// Reads every page in `dir` (none when it does not exist); each file is
/// added to `files` so problems show its lines.
pub(crate) fn read_pages(dir: &Path, files: &mut SourceFiles) -> (Vec<MarkdownPage>, Vec<Problem>) {
    let mut pages = Vec::new();
    let mut problems = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (pages, problems);
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        let is_md = path.extension().is_some_and(|x| x == "md");
        if !is_md || !path.is_file() {
            let id = files.add(path.clone(), String::new());
            problems.push(
                Problem::warning(
                    start(id),
                    "",
                    "this is not a page: only `.md` files in the pages folder become pages",
                )
                .hint("rename it to <name>.md, or move it out of the pages folder"),
            );
            continue;
        }
        if pages.len() >= MAX_PAGES {
            let id = files.add(path.clone(), String::new());
            problems.push(Problem::error(
                start(id),
                "",
                format!("more than {MAX_PAGES} pages in {}", dir.display()),
            ));
            break;
        }
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let text = match crate::read::read_text(&path) {
            Ok(t) => t,
            Err(message) => {
                let id = files.add(path.clone(), String::new());
                problems.push(Problem::error(start(id), "", message));
                continue;
            }
        };
        let id = files.add(path.clone(), text);
        let text = files.text(id).to_string();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            || name.starts_with('-')
            || name.ends_with('-')
        {
            problems.push(
                Problem::error(
                    start(id),
                    "",
                    format!("`{name}.md`: a page's file name is its address, /pages/{name}/"),
                )
                .expected("lower-case letters, digits and dashes, e.g. buyers-tips.md"),
            );
            continue;
        }
        match parse(&text, id) {
            Ok((front, body)) => {
                let Front {
                    title,
                    description,
                    path: address,
                } = front;
                let built_in = PagesConfig::built_in_for_file(&name).is_some();
                if let Some((address, at)) = &address {
                    if let Some(problem) = address_problem(address, built_in, &pages) {
                        problems.push(Problem::error(*at, "path", problem).hint(
                            "a page of its own keeps its old address as one segment, e.g. `path: /diamond-advantage/` or `path: /pages/buying/`",
                        ));
                    }
                }
                if !built_in {
                    for (key, value) in [("title", &title), ("description", &description)] {
                        if value.is_none() {
                            problems.push(
                                Problem::error(start(id), key, format!("the page /pages/{name}/ needs a `{key}` in its front matter"))
                                    .hint("start the file with\n---\ntitle: Page title\ndescription: One sentence for search results.\n---"),
                            );
                        }
                    }
                }
                pages.push(MarkdownPage {
                    name,
                    path: path.clone(),
                    title,
                    description,
                    address: address.map(|(a, _)| a),
                    body,
                    source: id,
                });
            }
            Err(p) => problems.push(p),
        }
    }
    (pages, problems)
}

/// The front matter's values; `path` with its line.
#[derive(Debug, Default)]
struct Front {
    title: Option<String>,
    description: Option<String>,
    path: Option<(String, Span)>,
}

type Parsed = (Front, String);

/// Why a page of its own cannot have `address` (`pages` are the pages read before it).
fn address_problem(address: &str, built_in: bool, pages: &[MarkdownPage]) -> Option<String> {
    if built_in {
        return Some("a built-in page's wording keeps the page's own address".into());
    }
    let inner = address.strip_prefix('/').and_then(|a| a.strip_suffix('/'));
    let segments: Vec<&str> = inner.map(|i| i.split('/').collect()).unwrap_or_default();
    let one = match segments.as_slice() {
        [name] => Some(*name),
        ["pages", name] => Some(*name),
        _ => None,
    };
    let valid = one.is_some_and(|n| {
        !n.is_empty()
            && !n.starts_with('-')
            && !n.ends_with('-')
            && n.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    });
    if !valid {
        return Some(format!("`{address}` is not a page address: one segment of lower-case letters, digits and dashes between slashes"));
    }
    let first = segments[0];
    if segments.len() == 1 && (PLATFORM_SEGMENTS.contains(&first) || first == "pages") {
        return Some(format!(
            "`{address}` is where the platform builds its own pages"
        ));
    }
    if let Some(b) = BUILT_IN_PAGES.iter().find(|b| b.path == address) {
        return Some(format!(
            "`{address}` is the built-in page `pages.{}`",
            b.key
        ));
    }
    if let Some(other) = pages.iter().find(|p| p.site_path() == address) {
        return Some(format!(
            "`{address}` is already the page of `{}.md`",
            other.name
        ));
    }
    None
}

/// Splits front matter (optional) from the body and reads its keys.
// A file's one problem, on a cold path: boxing it would only add noise.
#[allow(clippy::result_large_err)]
fn parse(text: &str, file: usize) -> Result<Parsed, Problem> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or_default();
    if first.trim_end() != "---" {
        return Ok((Front::default(), text.to_string()));
    }
    let mut front = Front::default();
    let mut consumed = first.len();
    let mut closed = false;
    for (line_no, line) in (2..).zip(lines.by_ref()) {
        consumed += line.len();
        let at = Span {
            file,
            line: line_no,
            col: 1,
        };
        let trimmed = line.trim();
        if trimmed == "---" {
            closed = true;
            break;
        }
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let Some((key, raw)) = trimmed.split_once(':') else {
            return Err(
                Problem::error(at, "", format!("`{trimmed}` is not a `key: value` line")).hint(
                    "front matter lines look like `title: Our warranty`; end it with a line `---`",
                ),
            );
        };
        let key = key.trim();
        let value = unquote(raw.trim()).map_err(|m| Problem::error(at, key, m))?;
        if value.trim().is_empty() {
            return Err(Problem::error(at, key, format!("`{key}` is empty")));
        }
        match key {
            "title" => front.title = Some(value),
            "description" => front.description = Some(value),
            "path" => front.path = Some((value, at)),
            other => {
                let hint = match closest(other, KEYS.iter().copied()) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => "a page's front matter has `title` and `description`".into(),
                };
                return Err(Problem::error(
                    at,
                    other,
                    format!("unknown front matter key `{other}`"),
                )
                .hint(hint));
            }
        }
    }
    if !closed {
        return Err(
            Problem::error(start(file), "", "the front matter is not closed")
                .hint("end it with a line holding only `---`"),
        );
    }
    Ok((front, text[consumed..].to_string()))
}

/// A front matter value: plain, "double quoted" (JSON escapes) or 'single quoted' ('' for ').
fn unquote(raw: &str) -> Result<String, String> {
    if raw.starts_with('"') {
        return serde_json::from_str::<String>(raw)
            .map_err(|_| format!("{raw} is not a closed \"quoted\" text"));
    }
    if let Some(inner) = raw.strip_prefix('\'') {
        return inner
            .strip_suffix('\'')
            .map(|s| s.replace("''", "'"))
            .ok_or_else(|| format!("{raw} is not a closed 'quoted' text"));
    }
    Ok(raw.to_string())
}

/// Problems between the pages and the dealer file: wording for a page
/// that is off (it would do nothing), and pages that are on with nothing
/// to show.
pub(crate) fn check_against(
    cfg: &DealerConfig,
    tree: &Node,
    pages: &[MarkdownPage],
) -> Vec<Problem> {
    let mut out = Vec::new();
    for page in pages {
        if let Some(b) = PagesConfig::built_in_for_file(&page.name) {
            if !cfg.pages.is_on(b.key) {
                // A warning, not an error: turning a page off for a while
                // (a seasonal page) keeps its wording for later.
                out.push(
                    Problem::warning(
                        start(page.source),
                        "",
                        format!(
                            "`{}.md` words the page {}, which is off: the page is not built",
                            page.name, b.path
                        ),
                    )
                    .hint(format!(
                        "set `pages.{}: true` in the dealer file, or delete this file",
                        b.key
                    )),
                );
            }
        }
    }
    let has = |file: &str| pages.iter().any(|p| p.name == file);
    let at = |key: &str| {
        let path = KeyPath::default().key("pages").key(key);
        span_at(tree, &path)
    };
    if cfg.pages.warranty && !has("warranty") {
        out.push(
            Problem::error(at("warranty"), "pages.warranty", "the warranty page has no wording")
                .hint("write the dealer's warranty terms in dealers/<slug>/pages/warranty.md, or set `pages.warranty: false`"),
        );
    }
    if cfg.pages.roadside_assist && cfg.service.roadside_phone.is_none() && !has("roadside-assist")
    {
        out.push(
            Problem::error(
                at("roadside_assist"),
                "pages.roadside_assist",
                "the roadside assist page has nothing to say",
            )
            .hint("set `service.roadside_phone`, or write dealers/<slug>/pages/roadside-assist.md"),
        );
    }
    out
}

/// The built-in pages a dealer has, for callers that list them.
pub fn built_in_pages_on(
    cfg: &PagesConfig,
) -> impl Iterator<Item = &'static crate::model::BuiltInPage> + '_ {
    BUILT_IN_PAGES.iter().filter(|p| cfg.is_on(p.key))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Result<Parsed, String> {
        parse(text, 0).map_err(|p| format!("{}:{} {}", p.span.line, p.key, p.message))
    }

    #[test]
    fn front_matter_gives_title_and_description() {
        let (f, body) = parsed("---\ntitle: \"Warranty: 5 years\"\n# a comment\ndescription: 'It''s long'\npath: /diamond-advantage/\n---\n# Hello\n").unwrap();
        assert_eq!(f.title.as_deref(), Some("Warranty: 5 years"));
        assert_eq!(f.description.as_deref(), Some("It's long"));
        let (path, at) = f.path.unwrap();
        assert_eq!((path.as_str(), at.line), ("/diamond-advantage/", 5));
        assert_eq!(body, "# Hello\n");
        let (f, body) = parsed("No front matter.\n").unwrap();
        assert_eq!(
            (f.title, f.description, body.as_str()),
            (None, None, "No front matter.\n")
        );
    }

    #[test]
    fn front_matter_mistakes_are_located() {
        assert_eq!(
            parsed("---\ntitel: X\n---\n").unwrap_err(),
            "2:titel unknown front matter key `titel`"
        );
        assert_eq!(
            parsed("---\ntitle: X\n").unwrap_err(),
            "1: the front matter is not closed"
        );
        assert_eq!(
            parsed("---\ntitle:\n---\n").unwrap_err(),
            "2:title `title` is empty"
        );
        assert_eq!(
            parsed("---\njust text\n---\n").unwrap_err(),
            "2: `just text` is not a `key: value` line"
        );
        assert_eq!(
            parsed("---\ntitle: \"open\n---\n").unwrap_err(),
            "2:title \"open is not a closed \"quoted\" text"
        );
    }

    #[test]
    fn pages_in_the_folder_are_read_and_checked() {
        let dir = tempfile::tempdir().unwrap();
        let w = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
        w(
            "buyers-tips.md",
            "---\ntitle: Buyers tips\ndescription: How to buy.\n---\nTips.\n",
        );
        w("fleet.md", "Fleet wording without front matter.\n");
        w("no-title.md", "---\ndescription: D\n---\n");
        w(
            "buying.md",
            "---\ntitle: Buying\ndescription: We buy cars.\npath: /buying/\n---\nB.\n",
        );
        w(
            "clash.md",
            "---\ntitle: C\ndescription: C.\npath: /buying/\n---\n",
        );
        w(
            "odd.md",
            "---\ntitle: O\ndescription: O.\npath: /a/b/\n---\n",
        );
        w(
            "offers-page.md",
            "---\ntitle: O\ndescription: O.\npath: /special-offers/\n---\n",
        );
        w("warranty.md", "---\npath: /our-warranty/\n---\nW.\n");
        w("Bad Name.md", "x");
        w("notes.txt", "x");
        let mut files = SourceFiles::default();
        let (pages, problems) = read_pages(dir.path(), &mut files);
        let names: Vec<&str> = pages.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "buyers-tips",
                "buying",
                "clash",
                "fleet",
                "no-title",
                "odd",
                "offers-page",
                "warranty"
            ]
        );
        assert_eq!(pages[0].site_path(), "/pages/buyers-tips/");
        assert_eq!(pages[1].site_path(), "/buying/", "its old address");
        assert_eq!(pages[3].site_path(), "/fleet/");
        let found: Vec<String> = problems
            .iter()
            .map(|p| {
                format!(
                    "{}: {}",
                    files
                        .path(p.span.file)
                        .file_name()
                        .unwrap()
                        .to_string_lossy(),
                    p.message
                )
            })
            .collect();
        assert_eq!(
            found,
            [
                "Bad Name.md: `Bad Name.md`: a page's file name is its address, /pages/Bad Name/",
                "clash.md: `/buying/` is already the page of `buying.md`",
                "no-title.md: the page /pages/no-title/ needs a `title` in its front matter",
                "notes.txt: this is not a page: only `.md` files in the pages folder become pages",
                "odd.md: `/a/b/` is not a page address: one segment of lower-case letters, digits and dashes between slashes",
                "offers-page.md: `/special-offers/` is where the platform builds its own pages",
                "warranty.md: a built-in page's wording keeps the page's own address",
            ]
        );
    }
}
