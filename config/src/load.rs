//! Reading one dealer: dealer file → YAML tree → merged over its preset →
//! structural check → typed config → rule check. Every problem of the file
//! is collected before giving up, so a marketer fixes them in one go.

use crate::read::{read_source, ReadError};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::check::{self, span_at, structure::SchemaChecker, KeyPath, Skip};
use crate::diagnostic::{Diagnostic, Problem, Severity, SourceFiles};
use crate::model::DealerConfig;
use crate::suggest::closest;
use crate::yaml::{self, Key, Node, Scalar, Span};

/// A dealer that passed every check.
#[derive(Debug)]
pub struct LoadedDealer {
    /// The file stem: `dealers/<slug>.yaml`.
    pub slug: String,
    pub path: PathBuf,
    pub config: DealerConfig,
    /// The dealer's Markdown pages (`dealers/<slug>/pages/*.md`), checked.
    pub pages: Vec<crate::content::MarkdownPage>,
    /// Warnings (never errors).
    pub warnings: Vec<Diagnostic>,
    /// The line of each entry of `redirects` in the dealer's file: the
    /// build checks them against the site's pages and names the line.
    pub redirect_lines: Vec<usize>,
}

impl LoadedDealer {
    /// Folder of the dealer file; the stock feed path is relative to it.
    pub fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }
}

/// A dealer that did not pass: every problem found, and the sources to show them in.
#[derive(Debug)]
pub struct Rejected {
    pub slug: String,
    pub files: SourceFiles,
    pub diagnostics: Vec<Diagnostic>,
}

/// The JSON Schema of the dealer YAML, generated from the Rust types.
pub fn schema() -> &'static serde_json::Value {
    static SCHEMA: OnceLock<serde_json::Value> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        serde_json::to_value(schemars::schema_for!(DealerConfig)).expect("schema serialises")
    })
}

/// What a dealer (or preset) file refers to, read without checking it:
/// its preset and its stock feed. For tools that gather a dealer's files
/// themselves, e.g. `dealergen diff` from an older revision.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DealerRefs {
    /// `template:`, the preset's name.
    pub template: Option<String>,
    /// `stock.feed`, relative to the dealer file.
    pub feed: Option<String>,
}

/// Reads `template` and `stock.feed` from YAML text; what is missing or
/// not a string is `None` (the text may not even be YAML).
pub fn dealer_refs(text: &str) -> DealerRefs {
    let Ok(tree) = yaml::parse(text, 0) else {
        return DealerRefs::default();
    };
    let string = |node: Option<&Node>| match node {
        Some(Node::Scalar(Scalar::Str(s), _)) => Some(s.clone()),
        _ => None,
    };
    DealerRefs {
        template: string(tree.get("template")),
        feed: string(tree.get("stock").and_then(|s| s.get("feed"))),
    }
}

/// Where presets live and how dealer files are found.
#[derive(Debug, Clone)]
pub struct Loader {
    pub presets_dir: PathBuf,
    /// The moment windows are judged at, for the warnings about dated
    /// content that has ended (`judging_at`); none: no such warning (the
    /// checks stay the same whatever the clock, as a build's must).
    pub now: Option<chrono::DateTime<chrono::Utc>>,
}

impl Loader {
    pub fn new(presets_dir: impl Into<PathBuf>) -> Self {
        Loader {
            presets_dir: presets_dir.into(),
            now: None,
        }
    }

    /// Also warns about dated content whose window ended before `now` (a
    /// promo tile that no longer shows): `dealergen check` judges at the
    /// start of the current hour, as a build does.
    pub fn judging_at(mut self, now: chrono::DateTime<chrono::Utc>) -> Self {
        self.now = Some(now);
        self
    }

    /// Names of the available presets (file stems in the presets folder).
    pub fn presets(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.presets_dir)
            .map(|rd| {
                rd.filter_map(Result::ok)
                    .filter_map(|e| {
                        let p = e.path();
                        (p.extension().is_some_and(|x| x == "yaml"))
                            .then(|| p.file_stem()?.to_str().map(String::from))?
                    })
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }

    /// A preset as JSON (its YAML read as is, not checked on its own: a
    /// preset is checked as part of each dealer that extends it).
    pub fn preset_json(&self, name: &str) -> Result<serde_json::Value, String> {
        let path = self.presets_dir.join(format!("{name}.yaml"));
        let text =
            read_source(&path).map_err(|e| format!("{}: {}", path.display(), e.message()))?;
        yaml::parse(&text, 0)
            .map(|n| n.to_json())
            .map_err(|e| format!("{}:{}: {}", path.display(), e.span.line, e.message))
    }

    pub fn load(&self, dealer_path: &Path) -> Result<LoadedDealer, Rejected> {
        let slug = dealer_path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        let mut files = SourceFiles::default();
        let reject = |files: SourceFiles, mut problems: Vec<Problem>| {
            // In file order, as a marketer reads their file.
            problems.sort_by_key(|p| (p.span.file, p.span.line, p.span.col));
            let diagnostics = problems.into_iter().map(|p| p.locate(&files)).collect();
            Rejected {
                slug: slug.clone(),
                files,
                diagnostics,
            }
        };
        let text = match read_source(dealer_path) {
            Ok(t) => t,
            Err(e) => {
                let id = files.add(dealer_path.to_path_buf(), String::new());
                return Err(reject(files, vec![e.into_problem(id)]));
            }
        };
        let dealer_id = files.add(dealer_path.to_path_buf(), text);
        let mut problems = Vec::new();
        if slug.is_empty()
            || !slug
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            problems.push(
                Problem::error(start(dealer_id), "", format!("the file name `{slug}` is not a valid dealer slug"))
                    .hint("name dealer files in lower-case kebab case, e.g. dealers/brisbane-motor-group.yaml"),
            );
        }
        let dealer_tree = match yaml::parse(files.text(dealer_id), dealer_id) {
            Ok(t) => t,
            Err(e) => {
                problems.push(syntax_problem(e));
                return Err(reject(files, problems));
            }
        };
        if !matches!(dealer_tree, Node::Map(..)) {
            problems.push(Problem::error(
                dealer_tree.span(),
                "",
                "a dealer file is a mapping of keys such as `name:` and `locations:`",
            ));
            return Err(reject(files, problems));
        }

        // `dealergen new`'s placeholders, in the dealer's own file only.
        problems.extend(check::placeholders::check(
            &dealer_tree,
            files.text(dealer_id),
        ));

        // The preset the dealer extends.
        let tree = match dealer_tree.get("template") {
            Some(Node::Scalar(Scalar::Str(name), span)) => {
                match self.load_preset(name, *span, &mut files) {
                    Ok(preset) => merge(preset, dealer_tree),
                    Err(p) => {
                        problems.push(p);
                        dealer_tree
                    }
                }
            }
            // Missing or mistyped: the schema check reports it.
            _ => dealer_tree,
        };

        let dir = dealer_path.parent().unwrap_or(Path::new("."));
        let (config, found) = validate(&tree, dir, self.now.map(|n| n.timestamp()));
        problems.extend(found);
        let (pages, found) =
            crate::content::read_pages(&crate::content::pages_dir(dealer_path), &mut files);
        problems.extend(found);
        if let Some(c) = &config {
            problems.extend(crate::content::check_against(c, &tree, &pages));
        }
        let config = match config {
            Some(c) if !problems.iter().any(|p| p.severity == Severity::Error) => c,
            _ => return Err(reject(files, problems)),
        };
        let warnings = problems.into_iter().map(|p| p.locate(&files)).collect();
        let redirect_lines = match tree.get("redirects") {
            Some(Node::Seq(items, _)) => items.iter().map(|n| n.span().line).collect(),
            _ => Vec::new(),
        };
        Ok(LoadedDealer {
            redirect_lines,
            slug,
            path: dealer_path.to_path_buf(),
            config,
            pages,
            warnings,
        })
    }

    // The error goes straight into the problem list; boxing it buys nothing.
    #[allow(clippy::result_large_err)]
    fn load_preset(&self, name: &str, at: Span, files: &mut SourceFiles) -> Result<Node, Problem> {
        let presets = self.presets();
        if !presets.iter().any(|p| p == name) {
            let hint = match closest(name, presets.iter().map(String::as_str)) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!("presets live in {}", self.presets_dir.display()),
            };
            return Err(Problem::error(
                at,
                "template",
                format!("template preset `{name}` does not exist"),
            )
            .expected(format!(
                "one of {}",
                presets
                    .iter()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
            .hint(hint));
        }
        let path = self.presets_dir.join(format!("{name}.yaml"));
        let text = read_source(&path).map_err(|e| {
            Problem::error(
                at,
                "template",
                format!("cannot read preset {}: {}", path.display(), e.message()),
            )
        })?;
        let id = files.add(path, text);
        let node = yaml::parse(files.text(id), id).map_err(syntax_problem)?;
        if node.get("template").is_some() {
            return Err(Problem::error(
                node.span(),
                "template",
                "a preset cannot itself name a `template`",
            ));
        }
        Ok(node)
    }
}

/// Checks a dealer tree (already merged over its preset): structure, then
/// values, then the typed config's rules. Returns the config when it could
/// be typed at all, and every problem found.
pub(crate) fn validate(
    tree: &Node,
    dealer_dir: &Path,
    now: Option<i64>,
) -> (Option<DealerConfig>, Vec<Problem>) {
    let mut problems = SchemaChecker::new(schema()).check(tree);
    problems.extend(check::values::check(tree));
    // Sections with problems so far are set aside (placeholders), so the
    // rule checks still run on the rest and the marketer sees every
    // problem of the file at once.
    let (json, skip) = set_aside(tree.to_json(), &problems);
    let config: DealerConfig = match serde_path_to_error::deserialize(json) {
        Ok(c) => c,
        Err(e) => {
            if problems.is_empty() {
                // The checks above should have caught it; point at it anyway.
                let path = serde_path(e.path());
                problems.push(Problem::error(
                    span_at(tree, &path),
                    path.to_string(),
                    e.inner().to_string(),
                ));
            }
            return (None, problems);
        }
    };
    problems.extend(check::rules(&config, tree, dealer_dir, &skip, now));
    // Checked with every location; built with the visible ones.
    let mut config = config;
    config.set_hidden_locations_aside();
    (Some(config), problems)
}

/// Replaces the top-level sections that have structural problems by values
/// that deserialise (defaults, or placeholders for required keys) and drops
/// broken locations, remembering what was set aside.
fn set_aside(mut json: serde_json::Value, problems: &[Problem]) -> (serde_json::Value, Skip) {
    use serde_json::{json, Value};
    let mut skip = Skip::default();
    let mut bad_locations = std::collections::HashSet::new();
    for p in problems {
        let top: String = p
            .key
            .chars()
            .take_while(|c| *c != '.' && *c != '[')
            .collect();
        if top == "locations" {
            if let Some(i) = p
                .key
                .strip_prefix("locations[")
                .and_then(|r| r.split(']').next())
                .and_then(|n| n.parse::<usize>().ok())
            {
                bad_locations.insert(i);
                continue;
            }
        }
        skip.sections.insert(if top.is_empty() {
            String::from("*")
        } else {
            top
        });
    }
    let Some(map) = json.as_object_mut() else {
        return (json, skip);
    };
    for section in &skip.sections {
        map.remove(section);
        let placeholder = match section.as_str() {
            "template" | "name" => json!(""),
            "site_url" => json!("https://placeholder.invalid"),
            "contact" => json!({"phone": "", "email": ""}),
            "stock" => json!({"feed": ""}),
            "locations" => json!([]),
            _ => Value::Null,
        };
        if !placeholder.is_null() {
            map.insert(section.clone(), placeholder);
        }
    }
    if let Some(Value::Array(items)) = map.get_mut("locations") {
        let kept: Vec<(usize, Value)> = std::mem::take(items)
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !bad_locations.contains(i))
            .collect();
        skip.location_index = kept.iter().map(|(i, _)| *i).collect();
        *items = kept.into_iter().map(|(_, v)| v).collect();
    }
    (json, skip)
}

fn syntax_problem(e: yaml::SyntaxError) -> Problem {
    Problem::error(e.span, "", e.message).hint_opt(e.hint)
}

/// A file that could not be read, as the problem the dealer is shown.
impl ReadError {
    fn into_problem(self, file: yaml::FileId) -> Problem {
        match self {
            ReadError::TooLarge(e) => syntax_problem(yaml::SyntaxError {
                span: start(file),
                ..e
            }),
            ReadError::NotText(_) => Problem::error(start(file), "", self.message())
                .hint("save the file as UTF-8 (every editor can; Windows Notepad: Save As → Encoding → UTF-8)"),
            ReadError::Io(_) => Problem::error(
                start(file),
                "",
                format!("cannot read the dealer file: {}", self.message()),
            ),
        }
    }
}

fn start(file: usize) -> Span {
    Span {
        file,
        line: 1,
        col: 1,
    }
}

/// Dealer values win; mappings merge key by key; lists are replaced whole
/// (a dealer listing sort options means exactly those).
pub fn merge(base: Node, over: Node) -> Node {
    match (base, over) {
        (Node::Map(mut base_entries, _), Node::Map(over_entries, span)) => {
            for (key, value) in over_entries {
                match base_entries.iter().position(|(k, _)| k.name == key.name) {
                    Some(i) => {
                        let (_, old) = base_entries.remove(i);
                        base_entries.insert(
                            i,
                            (
                                Key {
                                    name: key.name.clone(),
                                    span: key.span,
                                },
                                merge(old, value),
                            ),
                        );
                    }
                    None => base_entries.push((key, value)),
                }
            }
            Node::Map(base_entries, span)
        }
        (_, over) => over,
    }
}

fn serde_path(p: &serde_path_to_error::Path) -> KeyPath {
    let mut out = KeyPath::default();
    for seg in p.iter() {
        match seg {
            serde_path_to_error::Segment::Map { key } => out.push_key(key),
            serde_path_to_error::Segment::Seq { index } => out.push_index(*index),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dealer_refs_reads_the_preset_and_the_feed_without_checking() {
        let refs = dealer_refs("template: basic\nname: 7\nstock: { feed: stock/x.json }\n");
        assert_eq!(refs.template.as_deref(), Some("basic"));
        assert_eq!(refs.feed.as_deref(), Some("stock/x.json"));
        assert_eq!(dealer_refs("stock: [1]\n"), DealerRefs::default());
        assert_eq!(dealer_refs("{ not yaml"), DealerRefs::default());
    }

    #[test]
    fn presets_read_as_json() {
        let loader =
            Loader::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/presets"));
        let preset = loader.preset_json("basic").unwrap();
        assert!(preset.is_object(), "{preset}");
        assert!(loader.preset_json("missing").is_err());
    }
}
