//! Checks a YAML tree against the JSON Schema generated from the Rust types,
//! collecting every problem with its position, instead of stopping at the
//! first one as serde would. The schema is the single source of truth: a new
//! field in the Rust types is checked here without any change to this file.

use serde_json::Value;

use crate::diagnostic::Problem;
use crate::yaml::{Node, Scalar};

use super::KeyPath;
use crate::suggest::closest;

pub(crate) struct SchemaChecker<'s> {
    root: &'s Value,
}

impl<'s> SchemaChecker<'s> {
    pub fn new(root: &'s Value) -> Self {
        SchemaChecker { root }
    }

    pub fn check(&self, node: &Node) -> Vec<Problem> {
        let mut out = Vec::new();
        self.check_node(node, self.root, &mut KeyPath::default(), &mut out);
        out
    }

    fn resolve(&self, schema: &'s Value) -> &'s Value {
        let mut s = schema;
        // Follow $ref chains ("#/$defs/Name").
        for _ in 0..16 {
            match s.get("$ref").and_then(Value::as_str) {
                Some(r) => {
                    let name = r.trim_start_matches("#/$defs/");
                    match self.root.get("$defs").and_then(|d| d.get(name)) {
                        Some(target) => s = target,
                        None => return s,
                    }
                }
                None => return s,
            }
        }
        s
    }

    fn check_node(
        &self,
        node: &Node,
        schema: &'s Value,
        path: &mut KeyPath,
        out: &mut Vec<Problem>,
    ) {
        let schema = self.resolve(schema);
        if let Some(alts) = schema
            .get("oneOf")
            .or_else(|| schema.get("anyOf"))
            .and_then(Value::as_array)
        {
            self.check_alternatives(node, alts, path, out);
            return;
        }
        if !self.type_matches(node, schema) {
            let expected = self.describe(schema);
            let mut p = Problem::error(
                node.span(),
                path.to_string(),
                format!("expected {expected}, found {}", node.kind_name()),
            )
            .expected(expected.clone());
            if matches!(node, Node::Scalar(Scalar::Int(_) | Scalar::Float(_), _))
                && expected == "text"
            {
                p = p.hint("put the value in quotes, e.g. \"4006\", so it is read as text");
            } else if let Some(d) = description(schema) {
                p = p.hint(d);
            }
            out.push(p);
            return;
        }
        if let Some(c) = schema.get("const") {
            if node.to_json() != *c {
                let want = c
                    .as_str()
                    .map(String::from)
                    .unwrap_or_else(|| c.to_string());
                out.push(
                    Problem::error(node.span(), path.to_string(), format!("expected `{want}`"))
                        .expected(format!("`{want}`")),
                );
            }
            return;
        }
        if let Some(options) = schema.get("enum").and_then(Value::as_array) {
            let allowed: Vec<String> = options
                .iter()
                .filter_map(|o| o.as_str().map(String::from))
                .collect();
            self.check_one_of_values(node, &allowed, path, out);
            return;
        }
        match node {
            Node::Map(entries, span) => {
                let props = schema.get("properties").and_then(Value::as_object);
                let additional = schema.get("additionalProperties");
                for (key, value) in entries {
                    path.push_key(&key.name);
                    match props.and_then(|p| p.get(&key.name)) {
                        Some(sub) => self.check_node(value, sub, path, out),
                        None => match additional {
                            Some(Value::Bool(false)) => {
                                let known: Vec<&str> = props
                                    .map(|p| p.keys().map(String::as_str).collect())
                                    .unwrap_or_default();
                                let parent = path.parent_string();
                                let where_ = if parent.is_empty() {
                                    "at the top level".to_string()
                                } else {
                                    format!("in `{parent}`")
                                };
                                let hint = match closest(&key.name, known.iter().copied()) {
                                    Some(s) => format!("did you mean `{s}`?"),
                                    None => format!("allowed keys here: {}", known.join(", ")),
                                };
                                out.push(
                                    Problem::error(
                                        key.span,
                                        path.to_string(),
                                        format!("unknown key `{}` {where_}", key.name),
                                    )
                                    .hint(hint),
                                );
                            }
                            Some(sub @ Value::Object(_)) => self.check_node(value, sub, path, out),
                            _ => {}
                        },
                    }
                    path.pop();
                }
                if let Some(required) = schema.get("required").and_then(Value::as_array) {
                    for r in required.iter().filter_map(Value::as_str) {
                        if !entries.iter().any(|(k, _)| k.name == r) {
                            let sub = props.and_then(|p| p.get(r));
                            path.push_key(r);
                            let key = path.to_string();
                            path.pop();
                            let parent = path.to_string();
                            let where_ = if parent.is_empty() {
                                String::new()
                            } else {
                                format!(" in `{parent}`")
                            };
                            out.push(
                                Problem::error(
                                    *span,
                                    key,
                                    format!("missing required key `{r}`{where_}"),
                                )
                                .hint_opt(sub.and_then(|s| {
                                    description(s).or_else(|| description(self.resolve(s)))
                                })),
                            );
                        }
                    }
                }
            }
            Node::Seq(items, _) => {
                if let Some(item_schema) = schema.get("items") {
                    for (i, item) in items.iter().enumerate() {
                        path.push_index(i);
                        self.check_node(item, item_schema, path, out);
                        path.pop();
                    }
                }
                if let Some(min) = schema.get("minItems").and_then(Value::as_u64) {
                    if (items.len() as u64) < min {
                        out.push(Problem::error(
                            node.span(),
                            path.to_string(),
                            format!("needs at least {min} entries, found {}", items.len()),
                        ));
                    }
                }
            }
            Node::Scalar(s, span) => {
                let number = match s {
                    Scalar::Int(i) => Some(*i as f64),
                    Scalar::Float(f) => Some(*f),
                    _ => None,
                };
                if let Some(n) = number {
                    let min = schema.get("minimum").and_then(Value::as_f64);
                    let max = schema.get("maximum").and_then(Value::as_f64);
                    let below = min.is_some_and(|m| n < m);
                    let above = max.is_some_and(|m| n > m);
                    if below || above {
                        let range = match (min, max) {
                            (Some(a), Some(b)) => format!("a number from {a} to {b}"),
                            (Some(a), None) => format!("a number of at least {a}"),
                            (None, Some(b)) => format!("a number of at most {b}"),
                            (None, None) => "a number in range".to_string(),
                        };
                        out.push(
                            Problem::error(*span, path.to_string(), format!("{n} is out of range"))
                                .expected(range)
                                .hint_opt(description(schema)),
                        );
                    }
                }
            }
        }
    }

    fn check_one_of_values(
        &self,
        node: &Node,
        allowed: &[String],
        path: &KeyPath,
        out: &mut Vec<Problem>,
    ) {
        let value = match node {
            Node::Scalar(Scalar::Str(s), _) => s.clone(),
            Node::Scalar(Scalar::Int(i), _) => i.to_string(),
            Node::Scalar(Scalar::Bool(b), _) => b.to_string(),
            _ => String::new(),
        };
        if allowed.contains(&value) {
            return;
        }
        let list = allowed
            .iter()
            .map(|a| format!("`{a}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let hint = closest(&value, allowed.iter().map(String::as_str))
            .map(|s| format!("did you mean `{s}`?"));
        out.push(
            Problem::error(
                node.span(),
                path.to_string(),
                format!("`{value}` is not an allowed value"),
            )
            .expected(format!("one of {list}"))
            .hint_opt(hint),
        );
    }

    fn check_alternatives(
        &self,
        node: &Node,
        alts: &'s [Value],
        path: &mut KeyPath,
        out: &mut Vec<Problem>,
    ) {
        let alts: Vec<&Value> = alts.iter().map(|a| self.resolve(a)).collect();
        // Option<T>: null is always fine when one alternative is null.
        if matches!(node, Node::Scalar(Scalar::Null, _))
            && alts.iter().any(|a| type_list(a).contains(&"null"))
        {
            return;
        }
        let mut best: Option<Vec<Problem>> = None;
        for alt in &alts {
            if type_list(alt) == ["null"] {
                continue;
            }
            let mut trial = Vec::new();
            self.check_node(node, alt, path, &mut trial);
            if trial.is_empty() {
                return;
            }
            // Prefer the alternative of the same kind as the value (a mapping
            // for a mapping), so the messages talk about the right thing.
            if self.type_matches(node, alt) && best.as_ref().is_none_or(|b| trial.len() < b.len()) {
                best = Some(trial);
            }
        }
        // Unit-variant enums: list every allowed word.
        let words: Vec<String> = alts
            .iter()
            .filter_map(|a| a.get("const").and_then(Value::as_str).map(String::from))
            .chain(
                alts.iter()
                    .filter_map(|a| a.get("enum"))
                    .filter_map(Value::as_array)
                    .flatten()
                    .filter_map(|v| v.as_str().map(String::from)),
            )
            .collect();
        let scalar = matches!(node, Node::Scalar(..));
        if scalar && !words.is_empty() {
            // A word where a fixed set of words (or a mapping) is allowed.
            let mut allowed = words;
            let objects: Vec<String> = alts
                .iter()
                .filter(|a| type_list(a).contains(&"object"))
                .filter_map(|a| {
                    a.get("required")
                        .and_then(Value::as_array)
                        .and_then(|r| r.first())
                        .and_then(Value::as_str)
                        .map(|k| format!("a mapping with `{k}`"))
                })
                .collect();
            self.check_one_of_values(node, &allowed, path, out);
            if let (Some(last), false) = (out.last_mut(), objects.is_empty()) {
                allowed.extend(objects);
                last.expected = Some(format!(
                    "one of {}",
                    allowed
                        .iter()
                        .map(|a| if a.starts_with("a mapping") {
                            a.clone()
                        } else {
                            format!("`{a}`")
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        } else if let Some(problems) = best {
            out.extend(problems);
        } else {
            let expected = alts
                .iter()
                .filter(|a| type_list(a) != ["null"])
                .map(|a| self.describe(a))
                .collect::<Vec<_>>()
                .join(" or ");
            out.push(
                Problem::error(
                    node.span(),
                    path.to_string(),
                    format!("expected {expected}, found {}", node.kind_name()),
                )
                .expected(expected),
            );
        }
    }

    fn type_matches(&self, node: &Node, schema: &Value) -> bool {
        let types = type_list(schema);
        if types.is_empty() {
            return true;
        }
        let kind = match node {
            Node::Map(..) => "object",
            Node::Seq(..) => "array",
            Node::Scalar(Scalar::Null, _) => "null",
            Node::Scalar(Scalar::Bool(_), _) => "boolean",
            Node::Scalar(Scalar::Int(_), _) => "integer",
            Node::Scalar(Scalar::Float(f), _) => {
                if f.fract() == 0.0 && types.contains(&"integer") {
                    "integer"
                } else {
                    "number"
                }
            }
            Node::Scalar(Scalar::Str(_), _) => "string",
        };
        types.contains(&kind) || (kind == "integer" && types.contains(&"number"))
    }

    fn describe(&self, schema: &Value) -> String {
        let schema = self.resolve(schema);
        let names: Vec<&str> = type_list(schema)
            .into_iter()
            .filter(|t| *t != "null")
            .map(|t| match t {
                "string" => "text",
                "integer" => "a whole number",
                "number" => "a number",
                "boolean" => "true or false",
                "array" => "a list",
                "object" => "a mapping (key: value pairs)",
                other => other,
            })
            .collect();
        if names.is_empty() {
            "a value".into()
        } else {
            names.join(" or ")
        }
    }
}

fn type_list(schema: &Value) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => {
            if schema.get("const").is_some_and(Value::is_string) {
                vec!["string"]
            } else {
                vec![]
            }
        }
    }
}

fn description(schema: &Value) -> Option<String> {
    schema
        .get("description")
        .and_then(Value::as_str)
        .map(String::from)
}
