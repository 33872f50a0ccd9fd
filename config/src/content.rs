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
//! page has both) and optional for a built-in page's wording. Problems are
//! reported at the file and line, like the dealer file's.

use std::path::{Path, PathBuf};

use crate::check::{span_at, KeyPath};
use crate::diagnostic::{Problem, SourceFiles};
use crate::model::{DealerConfig, PagesConfig, BUILT_IN_PAGES};
use crate::suggest::closest;
use crate::yaml::{Node, Span};

/// More pages than this in one dealer folder is a mistake (a copied export).
pub const MAX_PAGES: usize = 200;

/// The front matter keys a page may set.
const KEYS: [&str; 2] = ["title", "description"];

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
    /// The Markdown after the front matter.
    pub body: String,
    /// Its index in the dealer's source files (for located problems).
    pub(crate) source: usize,
}

impl MarkdownPage {
    /// A page from its name and text, outside a dealer folder (tests,
    /// tools); the error is the first problem of its front matter.
    pub fn from_text(name: &str, text: &str) -> Result<MarkdownPage, String> {
        let (title, description, body) = parse(text, 0).map_err(|p| p.message)?;
        Ok(MarkdownPage {
            name: name.to_string(),
            path: PathBuf::from(format!("{name}.md")),
            title,
            description,
            body,
            source: 0,
        })
    }
}

impl MarkdownPage {
    /// The site path of this page: a built-in page's, or /pages/<name>/.
    pub fn site_path(&self) -> String {
        match PagesConfig::built_in_for_file(&self.name) {
            Some(b) => b.path.to_string(),
            None => format!("/pages/{}/", self.name),
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
            Ok((title, description, body)) => {
                let built_in = PagesConfig::built_in_for_file(&name).is_some();
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
                    body,
                    source: id,
                });
            }
            Err(p) => problems.push(p),
        }
    }
    (pages, problems)
}

type Parsed = (Option<String>, Option<String>, String);

/// Splits front matter (optional) from the body and reads its keys.
// A file's one problem, on a cold path: boxing it would only add noise.
#[allow(clippy::result_large_err)]
fn parse(text: &str, file: usize) -> Result<Parsed, Problem> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or_default();
    if first.trim_end() != "---" {
        return Ok((None, None, text.to_string()));
    }
    let (mut title, mut description) = (None, None);
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
            "title" => title = Some(value),
            "description" => description = Some(value),
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
    Ok((title, description, text[consumed..].to_string()))
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
        let (t, d, body) = parsed("---\ntitle: \"Warranty: 5 years\"\n# a comment\ndescription: 'It''s long'\n---\n# Hello\n").unwrap();
        assert_eq!(t.as_deref(), Some("Warranty: 5 years"));
        assert_eq!(d.as_deref(), Some("It's long"));
        assert_eq!(body, "# Hello\n");
        let (t, d, body) = parsed("No front matter.\n").unwrap();
        assert_eq!((t, d, body.as_str()), (None, None, "No front matter.\n"));
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
        w("Bad Name.md", "x");
        w("notes.txt", "x");
        let mut files = SourceFiles::default();
        let (pages, problems) = read_pages(dir.path(), &mut files);
        let names: Vec<&str> = pages.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["buyers-tips", "fleet", "no-title"]);
        assert_eq!(pages[0].site_path(), "/pages/buyers-tips/");
        assert_eq!(pages[1].site_path(), "/fleet/");
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
                "no-title.md: the page /pages/no-title/ needs a `title` in its front matter",
                "notes.txt: this is not a page: only `.md` files in the pages folder become pages",
            ]
        );
    }
}
