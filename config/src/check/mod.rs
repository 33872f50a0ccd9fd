//! Everything that decides whether a dealer file is right: the structural
//! check against the schema (`structure`), the values serde must not see
//! unchecked (`values`: the time zone), and the rules the types cannot
//! express, one module per concern (identity, stock, theme, locations,
//! search, links, offers, home, models, finance; `urls` and `dates` are
//! shared by them).
//!
//! Private to the crate: the generator gets the few helpers it needs through
//! `slug`, `moment` and `suggest`, and a typed config that passed all this.

mod dates;
mod detail;
mod finance;
mod forms;
mod home;
mod identity;
mod links;
mod locations;
mod models;
mod offers;
mod pages;
pub(crate) mod placeholders;
mod redirects;
mod search;
mod stock;
pub(crate) mod structure;
mod syndication;
mod theme;
mod urls;
pub(crate) mod values;

use std::collections::HashSet;
use std::fmt;
use std::path::Path;

use crate::diagnostic::Problem;
use crate::model::DealerConfig;
use crate::yaml::{Node, Span};

/// A YAML key path such as `locations[1].hours.sales.mon`.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct KeyPath(Vec<Seg>);

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Seg {
    Key(String),
    Index(usize),
}

impl KeyPath {
    pub fn push_key(&mut self, k: &str) {
        self.0.push(Seg::Key(k.to_string()));
    }
    pub fn push_index(&mut self, i: usize) {
        self.0.push(Seg::Index(i));
    }
    pub fn pop(&mut self) {
        self.0.pop();
    }
    pub fn key(mut self, k: &str) -> Self {
        self.push_key(k);
        self
    }
    pub fn index(mut self, i: usize) -> Self {
        self.push_index(i);
        self
    }
    pub fn segments(&self) -> &[Seg] {
        &self.0
    }
    /// The path without its last segment.
    pub fn parent_string(&self) -> String {
        KeyPath(self.0[..self.0.len().saturating_sub(1)].to_vec()).to_string()
    }
}

impl fmt::Display for KeyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Seg::Key(k) if i == 0 => write!(f, "{k}")?,
                Seg::Key(k) => write!(f, ".{k}")?,
                Seg::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

/// Position of the value at `path`, or of the deepest ancestor present (a
/// value that came from a default has no position of its own).
pub(crate) fn span_at(root: &Node, path: &KeyPath) -> Span {
    let mut node = root;
    for seg in path.segments() {
        let next = match (seg, node) {
            (Seg::Key(k), Node::Map(entries, _)) => entries
                .iter()
                .find(|(key, _)| &key.name == k)
                .map(|(_, v)| v),
            (Seg::Index(i), Node::Seq(items, _)) => items.get(*i),
            _ => None,
        };
        match next {
            Some(n) => node = n,
            None => break,
        }
    }
    node.span()
}

/// Parts of the config the rules must not look at, because an earlier check
/// already found problems there (their values are placeholders), and where
/// each kept location stood in the file.
#[derive(Debug, Clone, Default)]
pub(crate) struct Skip {
    /// Top-level keys with structural problems.
    pub sections: HashSet<String>,
    /// `location_index[i]` = index in the file of `cfg.locations[i]`; empty
    /// means the identity mapping.
    pub location_index: Vec<usize>,
}

impl Skip {
    fn ok(&self, section: &str) -> bool {
        !self.sections.contains(section)
    }
    fn location(&self, i: usize) -> usize {
        self.location_index.get(i).copied().unwrap_or(i)
    }
}

/// What every rule gets: the tree (for positions), where to put problems,
/// and what to leave alone.
struct Ctx<'a> {
    tree: &'a Node,
    out: Vec<Problem>,
    skip: &'a Skip,
    /// Unix seconds windows are judged at (`Loader::judging_at`), if any.
    now: Option<i64>,
}

impl Ctx<'_> {
    fn err(&mut self, path: &KeyPath, message: impl Into<String>) -> &mut Problem {
        self.out.push(Problem::error(
            span_at(self.tree, path),
            path.to_string(),
            message,
        ));
        self.out.last_mut().expect("just pushed")
    }

    /// A problem that does not stop the build (shown, never fatal).
    fn warn(&mut self, path: &KeyPath, message: impl Into<String>) -> &mut Problem {
        let p = self.err(path, message);
        p.severity = crate::diagnostic::Severity::Warning;
        p
    }
}

fn root() -> KeyPath {
    KeyPath::default()
}

/// Runs every rule on a config that deserialised; `dealer_dir` is the
/// folder of the dealer file (the stock feed path is relative to it).
pub(crate) fn rules(
    cfg: &DealerConfig,
    tree: &Node,
    dealer_dir: &Path,
    skip: &Skip,
    now: Option<i64>,
) -> Vec<Problem> {
    let mut cx = Ctx {
        tree,
        out: Vec::new(),
        skip,
        now,
    };
    identity::check(cfg, &mut cx);
    if skip.ok("stock") {
        stock::check(&cfg.stock, dealer_dir, &mut cx);
    }
    if skip.ok("theme") {
        theme::check(&cfg.theme, &mut cx);
    }
    locations::check(&cfg.locations, &mut cx);
    if skip.ok("maps") {
        locations::check_maps(&cfg.maps, &mut cx);
    }
    if skip.ok("search") {
        search::check(&cfg.search, cfg.timezone, &mut cx);
    }
    links::check(cfg, &mut cx);
    offers::check(cfg, &mut cx);
    detail::check(cfg, &mut cx);
    home::check(cfg, &mut cx);
    models::check(cfg, &mut cx);
    pages::check(cfg, &mut cx);
    if skip.ok("finance") {
        finance::check(&cfg.finance, &mut cx);
    }
    if skip.ok("features") && skip.ok("forms") && skip.ok("trade_in") {
        forms::check(cfg, &mut cx);
    }
    syndication::check(cfg, &mut cx);
    if skip.ok("redirects") {
        redirects::check(&cfg.redirects, &mut cx);
    }
    if skip.ok("migration") {
        redirects::check_accept_missing(&cfg.migration.accept_missing, &mut cx);
    }
    cx.out
}

#[cfg(test)]
pub(crate) mod testing {
    //! Runs the whole pipeline on a small valid dealer with one thing
    //! changed, so each rule's tests break exactly one thing.

    use std::path::Path;

    use crate::diagnostic::Problem;
    use crate::load::{merge, validate};
    use crate::yaml;

    /// A dealer that passes every check.
    pub const VALID: &str = r#"
template: basic
name: Test Dealer
site_url: https://www.test.com.au
contact: { phone: (07) 3555 0100, email: sales@test.com.au }
stock: { feed: stock.json }
locations:
  - id: main
    name: Main
    phone: (07) 3555 0101
    address: { street: 1 A St, suburb: Newstead, state: QLD, postcode: "4006" }
"#;

    /// Every problem of the valid dealer with `over` merged over it
    /// (mappings key by key, lists replaced), as a dealer file merges over
    /// its preset.
    pub fn problems(over: &str) -> Vec<Problem> {
        problems_judged(over, None)
    }

    /// `problems`, with dated content judged at `now` (unix seconds), as
    /// `dealergen check` judges it.
    pub fn problems_judged(over: &str, now: Option<i64>) -> Vec<Problem> {
        let base = yaml::parse(VALID, 0).expect("valid YAML");
        let over = yaml::parse(over, 1).expect("test YAML parses");
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/valid");
        let mut all = validate(&merge(base, over), &dir, now).1;
        // In file order, as the loader reports them.
        all.sort_by_key(|p| (p.span.file, p.span.line, p.span.col));
        all
    }

    /// The one problem reported at `key`; fails the test with every problem
    /// found when there is none or more than one.
    pub fn problem_at(over: &str, key: &str) -> Problem {
        let all = problems(over);
        let at: Vec<&Problem> = all.iter().filter(|p| p.key == key).collect();
        match at.as_slice() {
            [one] => (*one).clone(),
            _ => panic!("expected one problem at `{key}`, found: {all:#?}"),
        }
    }

    /// Fails the test when `over` is not accepted.
    pub fn accepted(over: &str) {
        let all = problems(over);
        assert!(all.is_empty(), "expected no problem for {over:?}: {all:#?}");
    }

    #[test]
    fn the_valid_dealer_has_no_problem() {
        accepted("{}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_paths_print_like_yaml_paths() {
        let p = KeyPath::default().key("locations").index(1).key("hours");
        assert_eq!(p.to_string(), "locations[1].hours");
        assert_eq!(p.parent_string(), "locations[1]");
    }

    #[test]
    fn positions_fall_back_to_the_deepest_written_ancestor() {
        let tree = crate::yaml::parse("search:\n  page_size: 3\n", 0).unwrap();
        let at = |p: &KeyPath| {
            let s = span_at(&tree, p);
            (s.line, s.col)
        };
        assert_eq!(at(&root().key("search").key("page_size")), (2, 14));
        // `sort_options` is not written: the problem goes to `search:`.
        assert_eq!(at(&root().key("search").key("sort_options")), (1, 1));
    }
}
