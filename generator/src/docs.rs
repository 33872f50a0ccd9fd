//! `docs/dealer-yaml.md`, the field reference for marketers, made from the
//! same declarations as `dealers/dealer.schema.json` (the Rust types' doc
//! comments, types, ranges and defaults, through schemars) and from the
//! presets' values, so nothing is written twice. `dealergen schema --docs
//! --write` regenerates it; a test fails when the committed file is stale.

use std::fmt::Write;

use anyhow::Result;
use dealer_config::Loader;
use serde_json::{Map, Value};

/// One documented field.
struct Field {
    /// `stock.source.url`, `locations[].hours.sales.mon`.
    path: String,
    /// Its segments, `[]` marking list items (for the YAML example).
    segments: Vec<Seg>,
    description: String,
    kind: String,
    /// The allowed values and what each does, when they are described.
    values: Vec<(String, String)>,
    default: Option<Value>,
    required: bool,
    /// Every section above it is required too (so it is in every file).
    always: bool,
    /// The value each preset gives it, when it gives one.
    presets: Vec<(String, Value)>,
    example: Option<Value>,
    /// A section of further fields rather than a value.
    section: bool,
}

#[derive(Clone)]
enum Seg {
    Key(String),
    Item,
}

/// The whole reference, as Markdown.
pub fn field_reference(loader: &Loader) -> Result<String> {
    let schema = dealer_config::schema();
    let mut presets = Vec::new();
    for name in loader.presets() {
        let value = loader
            .preset_json(&name)
            .map_err(|e| anyhow::anyhow!("preset {name}: {e}"))?;
        presets.push((name, value));
    }
    let defs = schema
        .get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let walker = Walker {
        defs: &defs,
        presets: &presets,
    };
    let mut fields = Vec::new();
    walker.object(schema, &[], true, &mut fields, 0);
    Ok(render(&fields, &presets))
}

struct Walker<'a> {
    defs: &'a Map<String, Value>,
    presets: &'a [(String, Value)],
}

/// Nesting is bounded: the dealer schema is a tree a few levels deep.
const MAX_DEPTH: usize = 12;

impl Walker<'_> {
    /// `schema` with a `$ref` replaced by its definition.
    fn resolve<'s>(&'s self, schema: &'s Value) -> &'s Value {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(r) => r
                .strip_prefix("#/$defs/")
                .and_then(|name| self.defs.get(name))
                .unwrap_or(schema),
            None => schema,
        }
    }

    /// An optional value (`anyOf: [T, null]`) is documented as T.
    fn unwrap_optional<'s>(&'s self, schema: &'s Value) -> &'s Value {
        if let Some(Value::Array(options)) = schema.get("anyOf") {
            let real: Vec<&Value> = options
                .iter()
                .filter(|o| o.get("type").and_then(Value::as_str) != Some("null"))
                .collect();
            if real.len() == 1 {
                return self.resolve(real[0]);
            }
        }
        self.resolve(schema)
    }

    /// `chain`: the sections above are all required (and none is a list).
    fn object(&self, schema: &Value, at: &[Seg], chain: bool, out: &mut Vec<Field>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let schema = self.unwrap_optional(schema);
        let Some(props) = schema.get("properties").and_then(Value::as_object) else {
            return;
        };
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        // Required fields first, then in the order of the file's sections.
        let mut names: Vec<&String> = props.keys().collect();
        names.sort_by_key(|n| (!required.contains(&n.as_str()), n.to_string()));
        if at.is_empty() {
            names.sort_by_key(|n| top_level_rank(n));
        }
        for name in names {
            let prop = &props[name];
            let mut segs = at.to_vec();
            segs.push(Seg::Key(name.clone()));
            self.field(
                prop,
                &segs,
                required.contains(&name.as_str()),
                chain,
                out,
                depth,
            );
        }
    }

    fn field(
        &self,
        prop: &Value,
        segs: &[Seg],
        required: bool,
        chain: bool,
        out: &mut Vec<Field>,
        depth: usize,
    ) {
        let target = self.unwrap_optional(prop);
        let description = prop
            .get("description")
            .or_else(|| target.get("description"))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let default = prop.get("default").cloned().filter(|d| !d.is_null());
        let is_object = target.get("properties").is_some();
        let item = target.get("items").map(|i| self.unwrap_optional(i));
        let object_items = item.is_some_and(|i| i.get("properties").is_some());
        let object_variants = self.object_variants(target);
        let path = path_of(segs);
        let in_list = segs.iter().any(|s| matches!(s, Seg::Item));
        let presets = if in_list {
            Vec::new()
        } else {
            self.presets
                .iter()
                .filter_map(|(name, p)| Some((name.clone(), lookup(p, segs)?.clone())))
                .collect()
        };
        let (kind, values) = self.kind(target);
        out.push(Field {
            example: if is_object {
                None
            } else {
                example(&description, target, item, default.as_ref(), self)
            },
            kind,
            values,
            path,
            segments: segs.to_vec(),
            description,
            default: if is_object { None } else { default },
            required,
            always: required && chain,
            presets: if is_object { Vec::new() } else { presets },
            section: is_object,
        });
        let chain = chain && required;
        if is_object {
            self.object(target, segs, chain, out, depth + 1);
        } else if object_items {
            let mut item_segs = segs.to_vec();
            item_segs.push(Seg::Item);
            self.object(item.expect("checked"), &item_segs, false, out, depth + 1);
        } else if let Some(item) = item {
            // A list whose items are a word or a mapping (home.blocks[]:
            // `stock` or `locations: { show: ... }`): the mappings' fields.
            let mut item_segs = segs.to_vec();
            item_segs.push(Seg::Item);
            for variant in self.object_variants(item) {
                self.object(variant, &item_segs, false, out, depth + 1);
            }
        }
        for variant in object_variants {
            self.object(variant, segs, false, out, depth + 1);
        }
    }

    /// The object alternatives of a `oneOf` (e.g. `engine: { hosted: ... }`).
    fn object_variants<'s>(&'s self, schema: &'s Value) -> Vec<&'s Value> {
        schema
            .get("oneOf")
            .and_then(Value::as_array)
            .map(|v| {
                v.iter()
                    .map(|o| self.resolve(o))
                    .filter(|o| o.get("properties").is_some())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// "whole number, 0 to 14", "one of `a`, `b`", "list; each text", and
    /// the allowed values with what each does, when the schema says it.
    fn kind(&self, s: &Value) -> (String, Vec<(String, String)>) {
        if s.get("properties").is_some() {
            return ("section (the fields below)".into(), vec![]);
        }
        if let Some(values) = s.get("enum").and_then(Value::as_array) {
            let v: Vec<String> = values.iter().map(|v| format!("`{}`", plain(v))).collect();
            return (format!("one of {}", v.join(", ")), vec![]);
        }
        if let Some(options) = s.get("oneOf").and_then(Value::as_array) {
            let values: Vec<(String, String)> = options
                .iter()
                .map(|o| {
                    let o = self.resolve(o);
                    let what = o
                        .get("description")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string();
                    let name = match o.get("const") {
                        Some(c) => format!("`{}`", plain(c)),
                        None => o
                            .get("properties")
                            .and_then(Value::as_object)
                            .map(|p| {
                                p.keys()
                                    .map(|k| format!("`{k}:` (below)"))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            })
                            .unwrap_or_default(),
                    };
                    (name, what)
                })
                .collect();
            return ("one of the values below".into(), values);
        }
        let types: Vec<&str> = match s.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(Value::as_str)
                .filter(|t| *t != "null")
                .collect(),
            _ => vec![],
        };
        let range = match (s.get("minimum"), s.get("maximum")) {
            (Some(a), Some(b)) => format!(", {a} to {b}"),
            (Some(a), None) => format!(", at least {a}"),
            (None, Some(b)) => format!(", at most {b}"),
            (None, None) => String::new(),
        };
        let kind = match types.first().copied() {
            Some("string") => "text".into(),
            Some("integer") => format!("whole number{range}"),
            Some("number") => format!("number{range}"),
            Some("boolean") => "true or false".into(),
            Some("array") => {
                let item = s.get("items").map(|i| self.unwrap_optional(i));
                match item {
                    Some(i) if i.get("properties").is_some() => {
                        "list of entries (the fields below, one set per entry)".into()
                    }
                    Some(i) => {
                        let (k, values) = self.kind(i);
                        return (format!("list; each {k}"), values);
                    }
                    None => "list".into(),
                }
            }
            Some("object") => "mapping".into(),
            _ => "value".into(),
        };
        (kind, vec![])
    }
}

/// Top-level sections in the order a dealer file is written.
fn top_level_rank(name: &str) -> usize {
    const ORDER: [&str; 12] = [
        "template",
        "name",
        "legal_name",
        "site_url",
        "timezone",
        "dealership_id",
        "manufacturer",
        "contact",
        "social",
        "theme",
        "stock",
        "locations",
    ];
    ORDER.iter().position(|n| *n == name).unwrap_or(ORDER.len())
}

fn path_of(segs: &[Seg]) -> String {
    let mut out = String::new();
    for s in segs {
        match s {
            Seg::Key(k) if out.is_empty() => out.push_str(k),
            Seg::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
            Seg::Item => out.push_str("[]"),
        }
    }
    out
}

/// The value at `segs` in a preset (never inside a list).
fn lookup<'v>(v: &'v Value, segs: &[Seg]) -> Option<&'v Value> {
    let mut cur = v;
    for s in segs {
        match s {
            Seg::Key(k) => cur = cur.get(k)?,
            Seg::Item => return None,
        }
    }
    Some(cur)
}

/// An example value: the first `e.g.` of the description when it fits the
/// field's type, else the default when it says something, else the first
/// allowed value, else a placeholder of the type.
fn example(
    description: &str,
    s: &Value,
    item: Option<&Value>,
    default: Option<&Value>,
    walker: &Walker,
) -> Option<Value> {
    let is_list = item.is_some();
    if let Some(e) = eg(description) {
        let fits = |v: &Value, t: &Value| -> bool {
            let types: Vec<&str> = match t.get("type") {
                Some(Value::String(x)) => vec![x.as_str()],
                Some(Value::Array(xs)) => xs.iter().filter_map(Value::as_str).collect(),
                _ => return !matches!(v, Value::Object(_)) || t.get("oneOf").is_some(),
            };
            match v {
                Value::String(_) => types.contains(&"string"),
                Value::Number(n) if n.is_f64() => types.contains(&"number"),
                Value::Number(_) => types.contains(&"integer") || types.contains(&"number"),
                Value::Bool(_) => types.contains(&"boolean"),
                Value::Array(_) => types.contains(&"array"),
                Value::Object(_) => types.contains(&"object"),
                Value::Null => false,
            }
        };
        if fits(&e, s) {
            return Some(e);
        }
        if let (true, Some(i)) = (is_list, item) {
            if fits(&e, i) {
                return Some(Value::Array(vec![e]));
            }
        }
    }
    if let Some(Value::Bool(b)) = default {
        // Showing the other value is what a marketer writes it for.
        return Some(Value::Bool(!b));
    }
    if let Some(d) = default {
        let says_something = match d {
            Value::String(x) => !x.is_empty(),
            Value::Array(x) => !x.is_empty(),
            Value::Object(x) => !x.is_empty(),
            _ => true,
        };
        if says_something {
            return Some(d.clone());
        }
    }
    let first_allowed = |t: &Value| -> Option<Value> {
        if let Some(v) = t
            .get("enum")
            .and_then(Value::as_array)
            .and_then(|v| v.first())
        {
            return Some(v.clone());
        }
        t.get("oneOf").and_then(Value::as_array).and_then(|o| {
            o.iter()
                .find_map(|x| walker.resolve(x).get("const").cloned())
        })
    };
    if let Some(v) = first_allowed(s) {
        return Some(v);
    }
    if let Some(i) = item {
        if let Some(v) = first_allowed(i) {
            return Some(Value::Array(vec![v]));
        }
    }
    let types: Vec<&str> = match s.get("type") {
        Some(Value::String(x)) => vec![x.as_str()],
        Some(Value::Array(xs)) => xs.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    if types.contains(&"boolean") {
        Some(Value::Bool(true))
    } else if types.contains(&"integer") || types.contains(&"number") {
        let min = s
            .get("minimum")
            .and_then(Value::as_f64)
            .unwrap_or(1.0)
            .max(1.0);
        Some(Value::from(min as i64))
    } else {
        None
    }
}

/// The first example given after "e.g." in a description: a quoted
/// string, a JSON list, a number, or a word.
fn eg(description: &str) -> Option<Value> {
    let at = description.find("e.g. ")? + 5;
    let rest = &description[at..];
    let first = rest.chars().next()?;
    match first {
        '"' => {
            let end = rest[1..].find('"')?;
            Some(Value::String(rest[1..1 + end].to_string()))
        }
        '[' => {
            let end = rest.find(']')?;
            serde_json::from_str(&rest[..=end]).ok()
        }
        '`' => {
            let end = rest[1..].find('`')?;
            let inner = &rest[1..1 + end];
            // A flow mapping or list is shown by the section's fields instead.
            (!inner.starts_with(['{', '['])).then(|| Value::String(inner.to_string()))
        }
        c if c.is_ascii_digit() || c == '-' => {
            let token: String = rest
                .chars()
                .take_while(|c| c.is_ascii_digit() || matches!(c, '.' | '-'))
                .collect();
            serde_json::from_str(token.trim_end_matches('.')).ok()
        }
        _ => {
            let word: String = rest
                .chars()
                .take_while(|c| !c.is_whitespace() && !matches!(c, ',' | ';' | ')'))
                .collect();
            let word = word.trim_end_matches('.');
            (!word.is_empty()).then(|| Value::String(word.to_string()))
        }
    }
}

fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A value written as in a dealer file (flow style for lists and maps).
fn yaml(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => yaml_string(s),
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(yaml).collect();
            format!("[{}]", inner.join(", "))
        }
        Value::Object(map) => {
            let inner: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{k}: {}", yaml(v)))
                .collect();
            format!("{{ {} }}", inner.join(", "))
        }
    }
}

/// Plain when YAML reads it back as the same text, else double-quoted.
fn yaml_string(s: &str) -> String {
    let plain_ok = !s.is_empty()
        && !s.starts_with(|c: char| " -?:,[]{}#&*!|>'\"%@`~".contains(c) || c.is_ascii_digit())
        && !s.ends_with([' ', ':'])
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.contains(['\n', '"', '\\', '{', '}', '[', ']', ','])
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "~"
        );
    if plain_ok {
        s.to_string()
    } else {
        serde_json::to_string(s).expect("a string serialises")
    }
}

/// The YAML lines that set `field` to its example.
fn snippet(field: &Field, value: &Value) -> String {
    let mut out = String::new();
    let mut indent = 0;
    let mut pending_dash = false;
    let last = field.segments.len() - 1;
    for (i, seg) in field.segments.iter().enumerate() {
        match seg {
            Seg::Item => pending_dash = true,
            Seg::Key(k) => {
                let lead = if pending_dash {
                    format!("{}- ", " ".repeat(indent))
                } else {
                    " ".repeat(indent)
                };
                if pending_dash {
                    indent += 2;
                    pending_dash = false;
                }
                if i == last {
                    let _ = writeln!(out, "{lead}{k}: {}", yaml(value));
                } else {
                    let _ = writeln!(out, "{lead}{k}:");
                    indent += 2;
                }
            }
        }
    }
    out
}

fn render(fields: &[Field], presets: &[(String, Value)]) -> String {
    let mut out = String::new();
    let preset_names: Vec<String> = presets.iter().map(|(n, _)| format!("`{n}`")).collect();
    let _ = writeln!(
        out,
        "<!-- Generated by `dealergen schema --docs --write` from the dealer config's Rust types (the same declarations as dealers/dealer.schema.json) and templates/presets/. Do not edit by hand: a test fails when this file is out of date. -->\n"
    );
    let _ = writeln!(out, "# Dealer YAML field reference\n");
    let _ = writeln!(
        out,
        "Every field of `dealers/<slug>.yaml`: what it changes on the site or the edge, its type, its default and an example. \
         A dealer file names its preset (`template:`) and overrides only what differs; the preset's values are listed per field. \
         Presets: {}. Lists are replaced whole, mappings merge key by key.\n",
        preset_names.join(", ")
    );
    let _ = writeln!(
        out,
        "Check a file with `dealergen check --dealer <slug>`; editors autocomplete it through `dealers/dealer.schema.json`.\n"
    );
    let _ = writeln!(out, "## Contents\n");
    for f in fields.iter().filter(|f| f.segments.len() == 1) {
        let _ = writeln!(out, "- [`{}`](#{})", f.path, anchor(&f.path));
    }
    out.push('\n');
    for f in fields {
        let heading = if f.segments.len() == 1 { "##" } else { "###" };
        let _ = writeln!(out, "{heading} `{}`\n", f.path);
        if !f.description.is_empty() {
            let _ = writeln!(out, "{}\n", f.description.replace('\n', " "));
        }
        let _ = writeln!(out, "- Type: {}", f.kind);
        for (value, what) in &f.values {
            if what.is_empty() {
                let _ = writeln!(out, "  - {value}");
            } else {
                let _ = writeln!(out, "  - {value}: {}", what.replace('\n', " "));
            }
        }
        if f.always {
            let _ = writeln!(out, "- Required");
        } else if f.required {
            let parent = &f.path[..f.path.rfind('.').unwrap_or(0)];
            match parent.strip_suffix("[]") {
                Some(list) => {
                    let _ = writeln!(out, "- Required in each entry of `{list}`");
                }
                None => {
                    let _ = writeln!(out, "- Required when `{parent}` is given");
                }
            }
        }
        if !f.section {
            match &f.default {
                Some(d) => {
                    let _ = writeln!(out, "- Default: `{}`", yaml(d));
                }
                None if !f.required => {
                    let _ = writeln!(out, "- Default: none (left out)");
                }
                None => {}
            }
        }
        if !f.presets.is_empty() {
            let list: Vec<String> = f
                .presets
                .iter()
                .map(|(n, v)| format!("{n}: `{}`", yaml(v)))
                .collect();
            let _ = writeln!(out, "- Presets: {}", list.join("; "));
        }
        if let Some(e) = &f.example {
            let _ = writeln!(out, "\n```yaml\n{}```", snippet(f, e));
        }
        out.push('\n');
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// GitHub's heading anchor of "`path`".
fn anchor(path: &str) -> String {
    path.chars()
        .filter_map(|c| match c {
            'a'..='z' | '0'..='9' | '-' | '_' => Some(c),
            'A'..='Z' => Some(c.to_ascii_lowercase()),
            ' ' => Some('-'),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn examples_come_from_the_description() {
        assert_eq!(
            eg("Feed path, e.g. \"stock/x.json\"."),
            Some(json!("stock/x.json"))
        );
        assert_eq!(
            eg("Makes to hide, e.g. [\"Great Wall\"]."),
            Some(json!(["Great Wall"]))
        );
        assert_eq!(eg("The window, e.g. 3600 for an hour."), Some(json!(3600)));
        assert_eq!(
            eg("A slug, e.g. gold-coast-kia."),
            Some(json!("gold-coast-kia"))
        );
        assert_eq!(
            eg("A preset, e.g. `multi-brand-group`, or"),
            Some(json!("multi-brand-group"))
        );
        assert_eq!(eg("No example here."), None);
    }

    #[test]
    fn yaml_values_read_back_as_written() {
        assert_eq!(yaml(&json!("Brisbane")), "Brisbane");
        assert_eq!(yaml(&json!("#12355b")), "\"#12355b\"");
        assert_eq!(yaml(&json!("08:30-17:30")), "\"08:30-17:30\"");
        assert_eq!(yaml(&json!("yes")), "\"yes\"");
        assert_eq!(yaml(&json!("")), "\"\"");
        assert_eq!(yaml(&json!(["a", "b c"])), "[a, b c]");
        assert_eq!(yaml(&json!({"header": "X-Key"})), "{ header: X-Key }");
    }

    #[test]
    fn snippets_nest_keys_and_list_items() {
        let f = Field {
            path: "locations[].address.suburb".into(),
            segments: vec![
                Seg::Key("locations".into()),
                Seg::Item,
                Seg::Key("address".into()),
                Seg::Key("suburb".into()),
            ],
            description: String::new(),
            kind: String::new(),
            values: vec![],
            default: None,
            required: false,
            always: false,
            presets: vec![],
            example: None,
            section: false,
        };
        assert_eq!(
            snippet(&f, &json!("Newstead")),
            "locations:\n  - address:\n      suburb: Newstead\n"
        );
    }
}
