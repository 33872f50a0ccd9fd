//! Checks a YAML tree against the JSON Schema generated from the Rust types,
//! collecting every problem with its position, instead of stopping at the
//! first one as serde would. The schema is the single source of truth: a new
//! field in the Rust types is checked here without any change to this file.
//!
//! Why not the `jsonschema` crate for the validation: it was tried on the
//! invalid corpus. Its verdicts agree (a test below holds the two together),
//! but its errors are about the JSON, not the marketer's file: an unknown key
//! is reported at the parent mapping with no suggestion, a misspelt enum word
//! as `"tets_drive" is not valid under any of the schemas listed in the
//! 'oneOf' keyword`, a wrong type without the field's description. Keeping
//! today's messages would mean walking its schema paths back into the schema
//! for the allowed words, known keys and descriptions, and its instance
//! paths into the YAML tree for positions: this walker again, plus some 40
//! more crates in the build. What the crate would add, the keywords this
//! walker does not know, is covered by a test: every keyword the generated
//! schema uses is one handled here, so a new Rust type that needs another
//! one fails the tests instead of passing unchecked.

use serde_json::Value;

use crate::diagnostic::Problem;
use crate::suggest::closest;
use crate::yaml::{Node, Scalar};

use super::KeyPath;

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

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use serde_json::Value;

    use super::SchemaChecker;
    use crate::check::testing::VALID;
    use crate::load::{merge, schema};
    use crate::yaml;

    /// The JSON Schema keywords this checker enforces, and the annotations it
    /// reads (description) or may ignore.
    const ENFORCED: &[&str] = &[
        "$ref",
        "oneOf",
        "anyOf",
        "type",
        "const",
        "enum",
        "properties",
        "additionalProperties",
        "required",
        "items",
        "minItems",
        "minimum",
        "maximum",
    ];
    const ANNOTATIONS: &[&str] = &["$schema", "$defs", "title", "description", "default"];

    /// Every keyword (not property name) used anywhere in a schema.
    fn keywords(schema: &Value, out: &mut BTreeSet<String>) {
        match schema {
            Value::Object(map) => {
                for (k, v) in map {
                    out.insert(k.clone());
                    match k.as_str() {
                        // Maps of names to schemas.
                        "properties" | "$defs" => {
                            for sub in v.as_object().into_iter().flat_map(|o| o.values()) {
                                keywords(sub, out);
                            }
                        }
                        // Values, not schemas.
                        "const" | "enum" | "default" | "required" | "type" => {}
                        _ => keywords(v, out),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|i| keywords(i, out)),
            _ => {}
        }
    }

    #[test]
    fn every_keyword_of_the_generated_schema_is_enforced() {
        let mut used = BTreeSet::new();
        keywords(schema(), &mut used);
        let unknown: Vec<&String> = used
            .iter()
            .filter(|k| !ENFORCED.contains(&k.as_str()) && !ANNOTATIONS.contains(&k.as_str()))
            // `format` of numbers (uint32, double) comes with the minimum
            // that enforces it; a string format would be a new keyword.
            .filter(|k| k.as_str() != "format" || string_formats(schema()))
            .collect();
        assert!(
            unknown.is_empty(),
            "the schema uses keywords the structural check ignores: {unknown:?}"
        );
    }

    /// Whether any string schema carries a `format` (which this checker
    /// would ignore).
    fn string_formats(schema: &Value) -> bool {
        match schema {
            Value::Object(map) => {
                (map.get("type") == Some(&Value::from("string")) && map.contains_key("format"))
                    || map.values().any(string_formats)
            }
            Value::Array(items) => items.iter().any(string_formats),
            _ => false,
        }
    }

    /// Breaks the valid dealer in many ways and checks that the walker and
    /// the `jsonschema` crate (a full JSON Schema implementation) agree on
    /// which files are structurally wrong, and where.
    #[test]
    fn verdicts_agree_with_the_jsonschema_crate() {
        let validator = jsonschema::validator_for(schema()).expect("schema compiles");
        let cases = [
            "{}",
            "featurs: { compare: true }\n",
            "search: { page_sise: 3 }\n",
            "search: { page_size: twenty }\n",
            "search: { page_size: 2 }\n",
            "search: { page_size: 100 }\n",
            "search: { page_size: 21.0 }\n",
            "search: { page_size: 21.5 }\n",
            "search: { sort_options: [latest, cheapest] }\n",
            "search: { sort_options: latest }\n",
            "search: { engine: hosted }\n",
            "search: { engine: { hosted: { host: h } } }\n",
            "search: { engine: { hosted: { host: h, app_id: a, index: i, public_key: k } } }\n",
            "search: { engine: embedded }\n",
            "search: { engine: { embedded: {} } }\n",
            "search: { stock_count_override: null }\n",
            "search: { stock_count_override: -1 }\n",
            "search: { promo_tiles: [{ id: a }] }\n",
            "features: { watchlist: yes }\n",
            "features: { make_offer: popup }\n",
            "features: { checkout: { path: buy-online, car_types: [used, old] } }\n",
            "stock: { min_photos: 15 }\n",
            "stock: { feed: 3 }\n",
            "stock: null\n",
            "contact: { phone: (07) 3555 0100 }\n",
            "locations: [{ id: x }]\n",
            "locations:\n  - { id: a, name: A, phone: \"1\", address: { street: s, suburb: s, state: Qld, postcode: \"4000\" } }\n",
            "locations:\n  - { id: a, name: A, phone: \"1\", address: { street: s, suburb: s, state: QLD, postcode: 4000 } }\n",
            "locations:\n  - { id: a, name: A, phone: \"1\", address: { street: s, suburb: s, state: QLD, postcode: \"4000\" }, hours: { sales: { mon: 9 } } }\n",
            "popup: { image: i }\n",
            "popup: null\n",
            "finance: { quote_provider: { url: u } }\n",
            "finance: { providers: [manual, ausloans, 360_finance, nope] }\n",
            "reviews: { min_rating: 0 }\n",
            "dealership_id: -3\n",
            "dealership_id: 12\n",
            "gated_routes: [1, /x]\n",
            "timezone: [Australia/Perth]\n",
            "name: null\n",
            "edge: { extra_origins: https://x.com.au }\n",
        ];
        let base = yaml::parse(VALID, 0).unwrap();
        for case in cases {
            let tree = merge(base.clone(), yaml::parse(case, 1).unwrap());
            let ours = SchemaChecker::new(schema()).check(&tree);
            let theirs: Vec<String> = validator
                .iter_errors(&tree.to_json())
                .map(|e| format!("{} at {}", e, e.instance_path()))
                .collect();
            assert_eq!(
                ours.is_empty(),
                theirs.is_empty(),
                "{case:?}: ours {ours:#?}, jsonschema {theirs:#?}"
            );
        }
    }
}
