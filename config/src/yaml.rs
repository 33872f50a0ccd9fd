//! The one place that parses YAML.
//!
//! Everything else in the crate works on [`Node`], a YAML tree in which every
//! value and every key keeps its file, line and column, so that any later
//! check can point a marketer at the exact spot in their file. Swapping the
//! parser is a change to this file only.
//!
//! The parser is saphyr (the maintained YAML 1.2 successor of yaml-rust2):
//! its loader resolves scalars by the YAML 1.2 core schema (`08:30` and `no`
//! stay text), refuses duplicate keys and bounds alias expansion (the
//! "billion laughs" file). This file adds what a file from a pull request
//! needs on top: a size limit, a nesting limit that stops the parser before
//! it recurses (its loader and tree are recursive), one document per file,
//! and errors that point where the marketer has to look (an unclosed `[` at
//! the line that opened it, a duplicate key with the line of the first).
//!
//! Why not serde_yaml: it is archived upstream and its `Value` drops
//! positions, which the diagnostics need for every value, not just the first
//! syntax error.

use std::collections::HashMap;
use std::fmt;

use saphyr::{MarkedYaml, Scalar as YamlScalar, YamlData, YamlLoader};
use saphyr_parser::{Event, Marker, Parser, ScanError, SpannedEventReceiver};

/// Largest dealer or preset file read, in bytes. Real dealer files are 3 to
/// 6 KB; a megabyte is two hundred times that and still parses in
/// milliseconds.
pub const MAX_FILE_BYTES: usize = 1024 * 1024;

/// Deepest nesting of lists and mappings. The deepest path of a real dealer
/// file (`locations[0].hours.sales.mon`) is 5 levels.
pub const MAX_DEPTH: usize = 32;

/// Most nodes that aliases (`*name`) may copy in one file. A dealer sharing
/// opening hours between twenty locations copies a few hundred; the
/// "billion laughs" file needs billions.
pub const MAX_ALIAS_NODES: usize = 10_000;

/// Index of a source file in a [`crate::SourceFiles`] set.
pub type FileId = usize;

/// Where a value starts: 1-based line and column (in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Span {
    pub file: FileId,
    pub line: usize,
    pub col: usize,
}

/// A scalar, typed by the YAML 1.2 core schema: `08:30` and `no` stay text.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
}

/// A key of a mapping, with its own position (unknown-key errors point here).
#[derive(Debug, Clone, PartialEq)]
pub struct Key {
    pub name: String,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Map(Vec<(Key, Node)>, Span),
    Seq(Vec<Node>, Span),
    Scalar(Scalar, Span),
}

/// A YAML problem that stops the file from being read at all.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxError {
    pub span: Span,
    pub message: String,
    /// How to fix it, when there is more to say than the message.
    pub hint: Option<String>,
}

impl SyntaxError {
    fn new(span: Span, message: impl Into<String>) -> Self {
        SyntaxError {
            span,
            message: message.into(),
            hint: None,
        }
    }
    fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.span.line, self.span.col, self.message)
    }
}

impl Node {
    pub fn span(&self) -> Span {
        match self {
            Node::Map(_, s) | Node::Seq(_, s) | Node::Scalar(_, s) => *s,
        }
    }

    /// The value under `key` if this is a mapping that has it.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Map(entries, _) => entries.iter().find(|(k, _)| k.name == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// A short human name for the kind of value, for "expected X, found Y".
    pub fn kind_name(&self) -> String {
        match self {
            Node::Map(..) => "a mapping (key: value pairs)".into(),
            Node::Seq(..) => "a list".into(),
            Node::Scalar(Scalar::Null, _) => "nothing (null)".into(),
            Node::Scalar(Scalar::Bool(b), _) => format!("`{b}` (true/false)"),
            Node::Scalar(Scalar::Int(i), _) => format!("the number {i}"),
            Node::Scalar(Scalar::Float(x), _) => format!("the number {x}"),
            Node::Scalar(Scalar::Str(s), _) => format!("the text \"{}\"", truncate(s, 40)),
        }
    }

    /// Converts to JSON for serde. Positions are dropped: by then the
    /// structural checks that need them have run.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value;
        match self {
            Node::Map(entries, _) => Value::Object(
                entries
                    .iter()
                    .map(|(k, v)| (k.name.clone(), v.to_json()))
                    .collect(),
            ),
            Node::Seq(items, _) => Value::Array(items.iter().map(Node::to_json).collect()),
            Node::Scalar(s, _) => match s {
                Scalar::Null => Value::Null,
                Scalar::Bool(b) => Value::Bool(*b),
                Scalar::Int(i) => Value::from(*i),
                Scalar::Float(x) => serde_json::Number::from_f64(*x)
                    .map(Value::Number)
                    .unwrap_or(Value::Null),
                Scalar::Str(s) => Value::String(s.clone()),
            },
        }
    }
}

fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(max).collect::<String>())
    }
}

/// Parses one YAML document. An empty file is an empty mapping.
///
/// Hostile input ends here, quickly, with a located error: files over
/// [`MAX_FILE_BYTES`], nesting over [`MAX_DEPTH`], aliases copying more than
/// [`MAX_ALIAS_NODES`] nodes.
pub fn parse(source: &str, file: FileId) -> Result<Node, SyntaxError> {
    let at = |m: &Marker| span_of(file, m);
    check_size(source.len() as u64, file)?;
    let mut loader: YamlLoader<MarkedYaml> = YamlLoader::default();
    loader.alias_limit(MAX_ALIAS_NODES);
    let mut guard = Guard::default();
    // Events are pulled one by one rather than pushed by `Parser::load`,
    // which recurses once per nesting level: a file of 200,000 nested `- `
    // overflows its stack before any receiver could say stop.
    for event in Parser::new_from_str(source) {
        let (event, span) = event.map_err(|e| scan_error(&e, &guard, source, file))?;
        guard.see(&event, span.start).map_err(|e| e.at(at))?;
        loader.on_event(event, span);
        if let Some(e) = loader.error() {
            return Err(loader_error(e, file));
        }
    }
    let root = loader.into_documents().into_iter().next();
    let start = Span {
        file,
        line: 1,
        col: 1,
    };
    match root {
        None => Ok(Node::Map(Vec::new(), start)),
        Some(doc) => match convert(doc, file, 0)? {
            // The document itself is located at its start.
            Node::Map(entries, _) => Ok(Node::Map(entries, start)),
            other => Ok(other),
        },
    }
}

/// Refuses a file over [`MAX_FILE_BYTES`]; the loader asks before reading.
pub(crate) fn check_size(len: u64, file: FileId) -> Result<(), SyntaxError> {
    if len <= MAX_FILE_BYTES as u64 {
        return Ok(());
    }
    Err(SyntaxError::new(
        Span {
            file,
            line: 1,
            col: 1,
        },
        format!(
            "the file is larger than {} KB, the most a dealer file may be",
            MAX_FILE_BYTES / 1024
        ),
    )
    .hint("dealer files are a few KB of settings; stock belongs in the stock feed, images in the site's public files"))
}

fn span_of(file: FileId, m: &Marker) -> Span {
    // saphyr reports 1-based lines and 0-based columns.
    Span {
        file,
        line: m.line().max(1),
        col: m.col() + 1,
    }
}

/// What the event stream has opened so far, to stop hostile nesting before
/// the loader builds it and to word errors: which `[` or `{` is unclosed,
/// where a duplicated key first appeared.
#[derive(Default)]
struct Guard {
    open: Vec<Open>,
    documents: usize,
}

struct Open {
    start: Marker,
    /// Keys seen so far with their line, for a mapping; `None` for a list.
    keys: Option<HashMap<String, usize>>,
    /// A mapping whose next scalar is a key.
    expecting_key: bool,
}

/// An error found by the guard, located once the file is known.
struct GuardError {
    at: Marker,
    message: String,
    hint: &'static str,
}

impl GuardError {
    fn at(self, span: impl Fn(&Marker) -> Span) -> SyntaxError {
        SyntaxError::new(span(&self.at), self.message).hint(self.hint)
    }
}

impl Guard {
    fn see(&mut self, event: &Event, at: Marker) -> Result<(), GuardError> {
        match event {
            Event::DocumentStart(_) => {
                self.documents += 1;
                if self.documents > 1 {
                    return Err(GuardError {
                        at,
                        message:
                            "a second YAML document starts here; a dealer file is one document"
                                .into(),
                        hint:
                            "remove the `---` line (and everything after it that belongs elsewhere)",
                    });
                }
            }
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                self.value();
                if self.open.len() >= MAX_DEPTH {
                    return Err(GuardError {
                        at,
                        message: format!(
                            "lists and mappings are nested more than {MAX_DEPTH} levels deep here"
                        ),
                        hint: "a dealer file nests at most 5 or 6 levels (locations → hours → sales → mon); check the indentation",
                    });
                }
                let map = matches!(event, Event::MappingStart(..));
                self.open.push(Open {
                    start: at,
                    keys: map.then(HashMap::new),
                    expecting_key: map,
                });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                self.open.pop();
            }
            Event::Scalar(text, ..) => {
                if let Some(Open {
                    keys: Some(keys),
                    expecting_key: true,
                    ..
                }) = self.open.last_mut()
                {
                    if let Some(first) = keys.insert(text.to_string(), at.line()) {
                        return Err(GuardError {
                            at,
                            message: format!(
                                "the key `{text}` appears twice in the same mapping (first on line {first})"
                            ),
                            hint: "keep one of them: the second would silently replace the first",
                        });
                    }
                }
                self.value();
            }
            Event::Alias(_) => self.value(),
            Event::Nothing | Event::StreamStart | Event::StreamEnd | Event::DocumentEnd => {}
        }
        Ok(())
    }

    /// A key or value was seen: in a mapping, keys and values alternate.
    fn value(&mut self) {
        if let Some(o) = self.open.last_mut() {
            if o.keys.is_some() {
                o.expecting_key = !o.expecting_key;
            }
        }
    }

    /// The innermost `[` or `{` still open, with its bracket.
    fn open_flow(&self, source: &str) -> Option<(Marker, char)> {
        self.open.iter().rev().find_map(|o| {
            let line = source.lines().nth(o.start.line().checked_sub(1)?)?;
            // The collection starts at its anchor or tag if it has one.
            let rest: String = line.chars().skip(o.start.col()).collect();
            let bracket = rest
                .split_whitespace()
                .find(|w| !w.starts_with(['&', '!']))?
                .chars()
                .next()?;
            matches!(bracket, '[' | '{').then_some((o.start, bracket))
        })
    }
}

fn scan_error(e: &ScanError, guard: &Guard, source: &str, file: FileId) -> SyntaxError {
    let stop = e.marker();
    // An unclosed bracket is only noticed where parsing can no longer go
    // on, often at the end of the file: point at the bracket instead.
    if let Some((start, bracket)) = guard.open_flow(source) {
        if start.line() < stop.line() {
            let (what, close) = if bracket == '[' {
                ("list", ']')
            } else {
                ("mapping", '}')
            };
            return SyntaxError::new(
                span_of(file, &start),
                format!(
                    "YAML syntax error: the `{bracket}` here is never closed (the {what} runs on until line {} where the parser gave up: {})",
                    stop.line(),
                    e.info()
                ),
            )
            .hint(format!(
                "close the {what} with `{close}` on this line, or write one entry per line without brackets"
            ));
        }
    }
    let info = e.info();
    let (message, hint) = if info.contains("quoted scalar") {
        // The scanner reports these at the opening quote already.
        (
            format!("YAML syntax error: the quote opened here is never closed ({info})"),
            Some("end the text with the same quote mark it starts with, on this line"),
        )
    } else if info.contains("mapping values are not allowed") {
        (
            format!("YAML syntax error: {info}"),
            Some(
                "a `key: value` is probably mis-indented, or a value containing `: ` needs quotes",
            ),
        )
    } else if info.contains("did not find expected key") || info.contains("block collection") {
        (
            format!("YAML syntax error: {info}"),
            Some("check the indentation of this line and the one above"),
        )
    } else if info.contains("recursion limit") {
        (
            format!("lists and mappings are nested more than {MAX_DEPTH} levels deep here"),
            Some("a dealer file nests at most 5 or 6 levels; check the brackets"),
        )
    } else {
        (format!("YAML syntax error: {info}"), None)
    };
    let err = SyntaxError::new(span_of(file, stop), message);
    match hint {
        Some(h) => err.hint(h),
        None => err,
    }
}

fn loader_error(e: &ScanError, file: FileId) -> SyntaxError {
    let span = span_of(file, e.marker());
    if e.info().contains("alias expansion") {
        SyntaxError::new(
            span,
            format!(
                "aliases (`*name`) in this file copy more than {MAX_ALIAS_NODES} values; refusing to expand them"
            ),
        )
        .hint("an alias repeats an anchored (`&name`) value; write the values out or alias fewer, smaller ones")
    } else if e.info().contains("duplicated key") {
        SyntaxError::new(span, "this key appears twice in the same mapping")
            .hint("keep one of them: the second would silently replace the first")
    } else {
        SyntaxError::new(span, format!("YAML syntax error: {}", e.info()))
    }
}

/// saphyr's tree to ours. `depth` is checked again here because an alias
/// can put a deep anchored value under a deep key.
fn convert(y: MarkedYaml, file: FileId, depth: usize) -> Result<Node, SyntaxError> {
    let span = span_of(file, &y.span.start);
    if depth > MAX_DEPTH {
        return Err(SyntaxError::new(
            span,
            format!("lists and mappings are nested more than {MAX_DEPTH} levels deep here (through aliases)"),
        ));
    }
    Ok(match y.data {
        YamlData::Value(s) => Node::Scalar(scalar(s), span),
        YamlData::Sequence(items) => Node::Seq(
            items
                .into_iter()
                .map(|i| convert(i, file, depth + 1))
                .collect::<Result<_, _>>()?,
            span,
        ),
        YamlData::Mapping(entries) => {
            let mut out = Vec::with_capacity(entries.len());
            for (k, v) in entries {
                let key_span = span_of(file, &k.span.start);
                let name = match k.data {
                    YamlData::Value(s) => match scalar(s) {
                        Scalar::Str(s) => s,
                        Scalar::Int(i) => i.to_string(),
                        Scalar::Bool(b) => b.to_string(),
                        Scalar::Float(f) => f.to_string(),
                        Scalar::Null => "null".to_string(),
                    },
                    _ => {
                        return Err(SyntaxError::new(
                            key_span,
                            "a key must be plain text, not a list or mapping",
                        ))
                    }
                };
                // A block mapping or list under a key is located at its key:
                // "missing key in `stock`" points at `stock:`.
                let value = match convert(v, file, depth + 1)? {
                    Node::Map(e, _) => Node::Map(e, key_span),
                    Node::Seq(i, _) => Node::Seq(i, key_span),
                    other => other,
                };
                // `1:` and `"1":` are different keys to YAML but the same
                // to the config.
                if let Some((first, _)) = out.iter().find(|(f, _): &&(Key, Node)| f.name == name) {
                    return Err(SyntaxError::new(
                        key_span,
                        format!(
                            "the key `{name}` appears twice in the same mapping (first on line {})",
                            first.span.line
                        ),
                    ));
                }
                out.push((
                    Key {
                        name,
                        span: key_span,
                    },
                    value,
                ));
            }
            Node::Map(out, span)
        }
        YamlData::Tagged(tag, _) => {
            return Err(SyntaxError::new(
                span,
                format!("the YAML tag `{tag}` is not used in dealer files"),
            )
            .hint("remove the tag; values are read by the key they are under"))
        }
        YamlData::BadValue => {
            return Err(SyntaxError::new(
                span,
                "this value does not match its `!!` type tag",
            ))
        }
        YamlData::Representation(..) | YamlData::Alias(_) => {
            // The loader resolves both (early parsing is on, aliases are
            // expanded); reaching this is a bug in the loader, not the file.
            return Err(SyntaxError::new(
                span,
                "YAML value the parser left unresolved",
            ));
        }
    })
}

fn scalar(s: YamlScalar) -> Scalar {
    match s {
        YamlScalar::Null => Scalar::Null,
        YamlScalar::Boolean(b) => Scalar::Bool(b),
        YamlScalar::Integer(i) => Scalar::Int(i),
        // `.inf` and `.nan` have no JSON form: kept as text, they get an
        // "expected a number, found the text" message instead of a null.
        YamlScalar::FloatingPoint(f) if !f.0.is_finite() => Scalar::Str(f.0.to_string()),
        YamlScalar::FloatingPoint(f) => Scalar::Float(f.0),
        YamlScalar::String(s) => Scalar::Str(s.into_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_line_and_column_of_keys_and_values() {
        let src = "name: Demo\nstock:\n  feed: a.json\n  min_photos: 3\nlist:\n  - x\n  - 08:30\n";
        let node = parse(src, 0).unwrap();
        let stock = node.get("stock").unwrap();
        let feed = stock.get("feed").unwrap();
        assert_eq!((feed.span().line, feed.span().col), (3, 9));
        // A block mapping under a key is located at the key.
        assert_eq!((stock.span().line, stock.span().col), (2, 1));
        match stock {
            Node::Map(entries, _) => {
                assert_eq!(entries[1].0.name, "min_photos");
                assert_eq!((entries[1].0.span.line, entries[1].0.span.col), (4, 3));
                assert_eq!(
                    entries[1].1,
                    Node::Scalar(Scalar::Int(3), entries[1].1.span())
                );
            }
            _ => panic!("stock is a map"),
        }
        // Times stay text (YAML 1.1 would have made 08:30 a base-60 number).
        let list = node.get("list").unwrap();
        assert_eq!(list.to_json(), serde_json::json!(["x", "08:30"]));
    }

    #[test]
    fn resolves_core_schema_scalars() {
        let node = parse(
            "a: no\nb: true\nc: ~\nd: -12\ne: 8.5\nf: 2025-07-01\ng: '#fff'\nh: 0x1F\ni: yes\nj: .inf\nk: 1_000\n",
            0,
        )
        .unwrap();
        assert_eq!(
            node.to_json(),
            serde_json::json!({
                "a": "no", "b": true, "c": null, "d": -12, "e": 8.5, "f": "2025-07-01",
                "g": "#fff", "h": 31, "i": "yes", "j": "inf", "k": "1_000"
            })
        );
    }

    #[test]
    fn quoted_numbers_stay_text() {
        let node = parse("postcode: \"4006\"\nother: '12'\n", 0).unwrap();
        assert_eq!(
            node.to_json(),
            serde_json::json!({"postcode": "4006", "other": "12"})
        );
    }

    #[test]
    fn syntax_errors_have_a_position() {
        let err = parse("a: 1\n b: 2\nc: 3\n", 0).unwrap_err();
        assert_eq!(err.span.line, 2, "{err:?}");
        assert!(err.message.starts_with("YAML syntax error"));
        assert!(err.hint.unwrap().contains("indented"));
    }

    #[test]
    fn duplicate_keys_are_an_error_naming_the_first() {
        let err = parse("a: 1\nb: 2\na: 3\n", 0).unwrap_err();
        assert_eq!((err.span.line, err.span.col), (3, 1));
        assert!(
            err.message.contains("`a` appears twice") && err.message.contains("first on line 1"),
            "{}",
            err.message
        );
        // Nested, and quoted versus plain spellings of the same key.
        let err = parse("s:\n  x: 1\n  \"x\": 2\n", 0).unwrap_err();
        assert_eq!(err.span.line, 3);
        assert!(err.message.contains("first on line 2"), "{}", err.message);
        // The same key in two different mappings is fine.
        parse("a: {x: 1}\nb: {x: 2}\nc:\n  - x: 1\n  - x: 2\n", 0).unwrap();
    }

    #[test]
    fn aliases_copy_the_anchored_value() {
        let node = parse("base: &h {mon: '9:00-17:00'}\nother: *h\n", 0).unwrap();
        assert_eq!(
            node.get("other").unwrap().to_json(),
            serde_json::json!({"mon": "9:00-17:00"})
        );
    }

    #[test]
    fn empty_file_is_an_empty_mapping() {
        assert_eq!(parse("", 0).unwrap().to_json(), serde_json::json!({}));
        assert_eq!(
            parse("# only a comment\n", 0).unwrap().to_json(),
            serde_json::json!({})
        );
    }

    /// The "billion laughs": 9 levels of 9 aliases would expand to 9^9
    /// (387 million) values.
    fn alias_bomb() -> String {
        let mut s = String::from("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (prev, name) in "abcdefgh".chars().zip("bcdefghi".chars()) {
            let refs = vec![format!("*{prev}"); 9].join(", ");
            s.push_str(&format!("{name}: &{name} [{refs}]\n"));
        }
        s
    }

    #[test]
    fn alias_expansion_is_bounded() {
        let bomb = alias_bomb();
        assert!(bomb.len() < 600, "a few hundred bytes: {}", bomb.len());
        let err = parse(&bomb, 0).unwrap_err();
        assert!(err.message.contains("aliases"), "{}", err.message);
        // It stops at the first alias past the budget: `b`, `c` and `d` copy
        // 90 + 819 + 7,380 values; the first `*d` of `e` (820 more) passes
        // 10,000.
        assert_eq!((err.span.line, err.span.col), (5, 8), "{err:?}");
        // Under the budget, aliases work.
        let small: String = bomb.lines().take(4).collect::<Vec<_>>().join("\n");
        let node = parse(&small, 0).unwrap();
        assert!(matches!(node.get("d"), Some(Node::Seq(items, _)) if items.len() == 9));
    }

    #[test]
    fn nesting_is_bounded_before_the_parser_recurses() {
        // 200,000 nested block lists: enough to overflow the parser's stack
        // if it were let through.
        let deep = format!("a:\n{}x\n", "- ".repeat(200_000));
        let err = parse(&deep, 0).unwrap_err();
        assert!(err.message.contains("nested more than"), "{}", err.message);
        assert_eq!(err.span.line, 2);
        // Flow nesting too.
        let deep = format!("a: {}{}\n", "[".repeat(100), "]".repeat(100));
        assert!(parse(&deep, 0)
            .unwrap_err()
            .message
            .contains("nested more than"));
        // Deep through an alias: a 20-deep anchor under a 20-deep key.
        let twenty = |inner: &str| format!("{}{inner}{}", "[".repeat(20), "]".repeat(20));
        let src = format!("a: &d {}\nb: {}\n", twenty("x"), twenty("*d"));
        let err = parse(&src, 0).unwrap_err();
        assert!(err.message.contains("through aliases"), "{}", err.message);
        // A realistic depth is fine.
        parse("l:\n  - h:\n      s:\n        mon: x\n", 0).unwrap();
    }

    #[test]
    fn files_over_the_size_limit_are_refused_unread() {
        let big = format!("name: x\nlegal: \"{}\"\n", "a".repeat(MAX_FILE_BYTES));
        let err = parse(&big, 0).unwrap_err();
        assert_eq!(err.span.line, 1);
        assert!(
            err.message.contains("larger than 1024 KB"),
            "{}",
            err.message
        );
    }

    #[test]
    fn unclosed_brackets_are_reported_where_they_open() {
        for (src, line, col, bracket) in [
            ("a: 1\nb: [1, 2\n", 2, 4, '['),
            ("a: 1\nb: {x: 1\n", 2, 4, '{'),
            (
                "stock:\n  exclude:\n    makes: [Great Wall, Haval\n    car_types: [used]\nsearch:\n  page_size: 21\n",
                3,
                12,
                '[',
            ),
            ("l:\n  - m: [a, b,\n      c\n  - n: 1\n", 2, 8, '['),
            ("a: &x {k: 1,\nb: 2\n", 1, 4, '{'),
        ] {
            let err = parse(src, 0).unwrap_err();
            assert_eq!(
                (err.span.line, err.span.col),
                (line, col),
                "{src:?}: {err:?}"
            );
            assert!(
                err.message.contains(&format!("`{bracket}` here is never closed")),
                "{}",
                err.message
            );
        }
        // A bracket closed on its own line with another problem there is
        // reported at the problem.
        let err = parse("a: [1]]\n", 0).unwrap_err();
        assert_eq!((err.span.line, err.span.col), (1, 7));
    }

    #[test]
    fn unclosed_quotes_are_reported_where_they_open() {
        for (src, line, col) in [
            ("a: 1\nb: \"abc\n", 2, 4),
            ("a:\n  b: 'abc\n  c: d\n", 2, 6),
            ("a:\n  b: \"abc\n    c: d\n    e: f\n", 2, 6),
        ] {
            let err = parse(src, 0).unwrap_err();
            assert_eq!(
                (err.span.line, err.span.col),
                (line, col),
                "{src:?}: {err:?}"
            );
            assert!(err.message.contains("quote"), "{}", err.message);
        }
    }

    #[test]
    fn a_second_document_is_an_error() {
        let err = parse("a: 1\n---\nb: 2\n", 0).unwrap_err();
        assert_eq!(err.span.line, 2);
        assert!(err.message.contains("second YAML document"));
        // One leading `---` is fine.
        parse("---\na: 1\n", 0).unwrap();
    }

    #[test]
    fn keys_must_be_plain_and_tags_are_refused() {
        assert!(parse("? [a]\n: 1\n", 0)
            .unwrap_err()
            .message
            .contains("plain text"));
        assert!(parse("a: !secret x\n", 0)
            .unwrap_err()
            .message
            .contains("tag `!secret`"));
        // Core schema tags are understood.
        assert_eq!(
            parse("a: !!str 4006\n", 0).unwrap().to_json(),
            serde_json::json!({"a": "4006"})
        );
    }
}
