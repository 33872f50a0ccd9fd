//! The one place that parses YAML.
//!
//! Everything else in the crate works on [`Node`], a YAML tree in which every
//! value and every key keeps its file, line and column, so that any later
//! check can point a marketer at the exact spot in their file. Swapping the
//! parser (yaml-rust2 today) is a change to this file only.
//!
//! Why not serde_yaml: it is archived upstream and its `Value` drops
//! positions, which the diagnostics need for every value, not just the first
//! syntax error.

use std::collections::HashMap;
use std::fmt;

use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

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

/// A YAML syntax problem.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxError {
    pub span: Span,
    pub message: String,
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
pub fn parse(source: &str, file: FileId) -> Result<Node, SyntaxError> {
    let mut builder = Builder {
        file,
        stack: Vec::new(),
        anchors: HashMap::new(),
        root: None,
        error: None,
    };
    let mut parser = Parser::new_from_str(source);
    parser.load(&mut builder, false).map_err(|e| SyntaxError {
        span: span_of(file, e.marker()),
        message: describe_scan_error(e.info()),
    })?;
    if let Some(err) = builder.error {
        return Err(err);
    }
    Ok(builder.root.unwrap_or(Node::Map(
        Vec::new(),
        Span {
            file,
            line: 1,
            col: 1,
        },
    )))
}

fn describe_scan_error(info: &str) -> String {
    // The scanner's wording is terse; keep it but say what it usually means.
    if info.contains("mapping values are not allowed") {
        format!("YAML syntax error: {info} (a `key: value` is probably mis-indented, or a value containing `: ` needs quotes)")
    } else if info.contains("did not find expected key") {
        format!("YAML syntax error: {info} (check the indentation of this line and the one above)")
    } else {
        format!("YAML syntax error: {info}")
    }
}

fn span_of(file: FileId, m: &Marker) -> Span {
    // yaml-rust2 reports 1-based lines and 0-based columns.
    Span {
        file,
        line: m.line().max(1),
        col: m.col() + 1,
    }
}

enum Frame {
    Map {
        entries: Vec<(Key, Node)>,
        span: Span,
        anchor: usize,
        pending_key: Option<Key>,
    },
    Seq {
        items: Vec<Node>,
        span: Span,
        anchor: usize,
    },
}

struct Builder {
    file: FileId,
    stack: Vec<Frame>,
    anchors: HashMap<usize, Node>,
    root: Option<Node>,
    error: Option<SyntaxError>,
}

impl Builder {
    fn push_value(&mut self, node: Node, anchor: usize) {
        if anchor > 0 {
            self.anchors.insert(anchor, node.clone());
        }
        match self.stack.last_mut() {
            // The document itself is located at its start.
            None => {
                self.root = Some(match node {
                    Node::Map(e, s) => Node::Map(
                        e,
                        Span {
                            line: 1,
                            col: 1,
                            ..s
                        },
                    ),
                    other => other,
                })
            }
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map {
                entries,
                pending_key,
                ..
            }) => match pending_key.take() {
                Some(key) => {
                    // A block mapping or list under a key is located at its
                    // key: "missing key in `stock`" points at `stock:`.
                    let node = match node {
                        Node::Map(e, _) => Node::Map(e, key.span),
                        Node::Seq(i, _) => Node::Seq(i, key.span),
                        other => other,
                    };
                    if let Some((first, _)) = entries.iter().find(|(k, _)| k.name == key.name) {
                        if self.error.is_none() {
                            self.error = Some(SyntaxError {
                                span: key.span,
                                message: format!(
                                    "the key `{}` appears twice in the same mapping (first on line {}); keep one",
                                    key.name, first.span.line
                                ),
                            });
                        }
                    }
                    entries.push((key, node));
                }
                None => {
                    let span = node.span();
                    let name = match node {
                        Node::Scalar(Scalar::Str(s), _) => s,
                        Node::Scalar(Scalar::Int(i), _) => i.to_string(),
                        Node::Scalar(Scalar::Bool(b), _) => b.to_string(),
                        Node::Scalar(Scalar::Float(f), _) => f.to_string(),
                        Node::Scalar(Scalar::Null, _) => "null".to_string(),
                        _ => {
                            if self.error.is_none() {
                                self.error = Some(SyntaxError {
                                    span,
                                    message: "a key must be plain text, not a list or mapping"
                                        .into(),
                                });
                            }
                            String::new()
                        }
                    };
                    *pending_key = Some(Key { name, span });
                }
            },
        }
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        let span = span_of(self.file, &mark);
        match ev {
            Event::Scalar(value, style, anchor, tag) => {
                let scalar = if style == TScalarStyle::Plain && tag.is_none() {
                    resolve_plain(&value)
                } else {
                    Scalar::Str(value)
                };
                self.push_value(Node::Scalar(scalar, span), anchor);
            }
            Event::SequenceStart(anchor, _) => self.stack.push(Frame::Seq {
                items: Vec::new(),
                span,
                anchor,
            }),
            Event::MappingStart(anchor, _) => self.stack.push(Frame::Map {
                entries: Vec::new(),
                span,
                anchor,
                pending_key: None,
            }),
            Event::SequenceEnd | Event::MappingEnd => match self.stack.pop() {
                Some(Frame::Seq {
                    items,
                    span,
                    anchor,
                }) => self.push_value(Node::Seq(items, span), anchor),
                Some(Frame::Map {
                    entries,
                    span,
                    anchor,
                    ..
                }) => self.push_value(Node::Map(entries, span), anchor),
                None => {}
            },
            Event::Alias(id) => {
                let node = self
                    .anchors
                    .get(&id)
                    .cloned()
                    .unwrap_or(Node::Scalar(Scalar::Null, span));
                self.push_value(node, 0);
            }
            Event::Nothing
            | Event::StreamStart
            | Event::StreamEnd
            | Event::DocumentStart
            | Event::DocumentEnd => {}
        }
    }
}

/// YAML 1.2 core schema resolution of a plain scalar.
fn resolve_plain(v: &str) -> Scalar {
    match v {
        "" | "~" | "null" | "Null" | "NULL" => return Scalar::Null,
        "true" | "True" | "TRUE" => return Scalar::Bool(true),
        "false" | "False" | "FALSE" => return Scalar::Bool(false),
        _ => {}
    }
    let digits = v.strip_prefix(['-', '+']).unwrap_or(v);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(i) = v.parse::<i64>() {
            return Scalar::Int(i);
        }
    }
    if let Some(hex) = v.strip_prefix("0x") {
        if let Ok(i) = i64::from_str_radix(hex, 16) {
            return Scalar::Int(i);
        }
    }
    let looks_float = digits
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'))
        && digits.bytes().any(|b| b.is_ascii_digit());
    if looks_float {
        if let Ok(x) = v.parse::<f64>() {
            return Scalar::Float(x);
        }
    }
    Scalar::Str(v.to_string())
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
        assert_eq!(resolve_plain("no"), Scalar::Str("no".into()));
        assert_eq!(resolve_plain("true"), Scalar::Bool(true));
        assert_eq!(resolve_plain("~"), Scalar::Null);
        assert_eq!(resolve_plain("-12"), Scalar::Int(-12));
        assert_eq!(resolve_plain("8.5"), Scalar::Float(8.5));
        assert_eq!(
            resolve_plain("2025-07-01"),
            Scalar::Str("2025-07-01".into())
        );
        assert_eq!(resolve_plain("#fff"), Scalar::Str("#fff".into()));
    }

    #[test]
    fn quoted_numbers_stay_text() {
        let node = parse("postcode: \"4006\"\n", 0).unwrap();
        assert_eq!(node.to_json(), serde_json::json!({"postcode": "4006"}));
    }

    #[test]
    fn syntax_errors_have_a_position() {
        let err = parse("a: 1\n b: 2\nc: [1, 2\n", 0).unwrap_err();
        assert!(err.span.line >= 2, "{err:?}");
        assert!(err.message.starts_with("YAML syntax error"));
    }

    #[test]
    fn duplicate_keys_are_an_error() {
        let err = parse("a: 1\nb: 2\na: 3\n", 0).unwrap_err();
        assert_eq!(err.span.line, 3);
        assert!(err.message.contains("appears twice"), "{}", err.message);
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
    }
}
