//! Everything that decides whether a dealer file is right: the structural
//! check against the schema (`structure`) and the rules serde cannot express
//! (`rules`: time zones, opening hours, date windows, unique ids, files).

pub mod rules;
pub mod structure;

use std::fmt;

use crate::yaml::{Node, Span};

/// A YAML key path such as `locations[1].hours.sales.mon`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KeyPath(Vec<Seg>);

#[derive(Debug, Clone, PartialEq)]
pub enum Seg {
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
pub fn span_at(root: &Node, path: &KeyPath) -> Span {
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

/// The candidate closest to a misspelled word, if it is close enough to be
/// what was meant.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = word.to_ascii_lowercase();
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(&lower, &c.to_ascii_lowercase()), c))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
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
    fn closest_suggests_near_misses_only() {
        assert_eq!(closest("feeds", ["feed", "min_photos"]), Some("feed"));
        assert_eq!(
            closest("Australia/Brisbain", ["Australia/Brisbane", "Europe/Paris"]),
            Some("Australia/Brisbane")
        );
        assert_eq!(closest("zzz", ["feed", "min_photos"]), None);
    }
}
