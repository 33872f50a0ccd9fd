//! No dead config field: every leaf of the dealer JSON Schema
//! (`dealers/dealer.schema.json`) must change what the build produces.
//!
//! How: the fixture dealer `everything.yaml` sets every field so that it
//! matters. For each schema leaf the test takes the first place the fixture
//! sets it, tries mutations of the right type (flip a bool, step a number,
//! another enum value, a shifted date or time, an edited text, a list
//! reordered, shortened or grown), keeps the first one the dealer checks
//! accept, and generates the site's data in memory (`build::generate`, no
//! Astro): site.json, cars.json, search-index.json, edge-config.json,
//! edge-kv.json and the redirects. A leaf none of whose valid mutations
//! changes any of them is dead. A second stage (scripts/site-data-reads.mjs,
//! run by scripts/test.sh) builds the same fixture with Astro and checks
//! that every site.json leaf is read by some page.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use chrono::{DateTime, Duration, NaiveDate, NaiveDateTime, Utc};
use dealer_config::Loader;
use rayon::prelude::*;
use serde_json::Value;

const AS_OF: &str = "2026-11-20T00:00:00Z";

/// Leaves that no mutation can show in the generated data, each with why,
/// and how the test still holds them to account. Keep this list short: a
/// field that cannot be honoured is removed from the schema instead.
const CANNOT_BE_OBSERVED: &[(&str, &str)] = &[
    (
        "detail_page.service_advantage.models[].interval_unknown",
        "true only on a row without an interval (a row with one is refused), and the fixture's \
         one row that a shown car takes gives one; generator/src/pipeline/stock/detail.rs \
         `service_advantage_shows_the_plan_of_the_cars_model` shows the row's Service interval \
         left out, and the single-manufacturer preset's LandCruiser 70 uses it",
    ),
    (
        "stock.max_age_hours",
        "a warning, not output: read by `build` and `stock pull` when the feed has stopped updating \
         (tests/integration/build.rs `a_feed_that_stopped_updating_is_said_by_the_build`: 48 warns, \
         168 does not; stock_pull.rs `a_pulled_feed_that_stopped_updating_is_said`)",
    ),
    (
        "migration.accept_missing",
        "read by `dealergen migrate-check` only (scripts/e2e/migrate.mjs: an address it names is \
         listed as accepted and the run passes; generator/src/migrate `accepted_missing`)",
    ),
    (
        "template",
        "the resolved fixture sets every field, so the preset under it changes nothing; \
         `a_dealers_template_decides_its_defaults` shows a preset's values reaching the output",
    ),
    (
        "features.checkout.payment.provider",
        "it has one value (stripe), so nothing can be changed to; edge-config.json carries it \
         (checkout.payment.provider), and the payment block's secret names change the output here",
    ),
    (
        "stock.source.auth.env",
        "read by `dealergen stock pull` only (tests/integration/stock_pull.rs: the secret header comes from the environment)",
    ),
    (
        "stock.source.auth.header",
        "read by `dealergen stock pull` only (tests/integration/stock_pull.rs: the secret header comes from the environment)",
    ),
    (
        "stock.source.file",
        "read by `dealergen stock pull` only (tests/integration/stock_pull.rs: a file source is copied after the same checks)",
    ),
    (
        "stock.source.max_drop_percent",
        "read by `dealergen stock pull` only (tests/integration/stock_pull.rs: the drop guard follows max_drop_percent)",
    ),
    (
        "stock.source.retries",
        "read by `dealergen stock pull` only (tests/integration/stock_pull.rs: server errors are retried with backoff)",
    ),
    (
        "stock.source.timeout_secs",
        "read by `dealergen stock pull` only (tests/integration/stock_pull.rs: a slow server times out quickly)",
    ),
    (
        "stock.source.url",
        "read by `dealergen stock pull` only (tests/integration/stock_pull.rs: a good feed is written with its validators)",
    ),
];

/// Leaves another part of the work is still wiring, each with its owner;
/// the test fails when one of them starts changing the output ("stale
/// entry"), so the list only shrinks. Empty since the phase's merges. Do
/// not add to it: consume a new field, or leave it out of the schema.
const PENDING: &[(&str, &str)] = &[];

/// Leaves judged at the first instance holding this value instead of the
/// first instance: `locations[].visible` at the hidden yard (the fixture's
/// first location is the primary one, which must stay visible).
const INSTANCE_WITH: &[(&str, Value)] = &[("locations[].visible", Value::Bool(false))];

/// Leaves that matter only when another field has a certain value the
/// fixture cannot have (it needs the other value for other leaves): each is
/// judged on the fixture with these values set (pointer, value), against
/// that variant's own output.
fn context(path: &str) -> Vec<(&'static str, Value)> {
    match path {
        // Synonyms apply to the embedded search; the fixture searches a
        // hosted index (search.engine.hosted.*).
        "search.synonyms" => vec![
            ("/search/engine", "embedded".into()),
            (
                "/search/synonyms",
                serde_json::json!([["wagon", "suv"], ["ute", "pickup"]]),
            ),
        ],
        // A call card shows the dealer's number, which the fixture masks
        // (features.phone_reveal); judged with the numbers shown.
        "search.cta_card" => vec![("/features/phone_reveal", false.into())],
        _ => Vec::new(),
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The site's public files the fixtures' photos are in.
fn public() -> PathBuf {
    root().join("astro-app/public")
}

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dealers")
}

fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(AS_OF)
        .unwrap()
        .with_timezone(&Utc)
}

// ------------------------------------------------------------ schema ---

/// What a leaf holds, as far as mutations care.
#[derive(Debug, Clone)]
enum Kind {
    Bool,
    Integer {
        min: Option<f64>,
        max: Option<f64>,
    },
    Number,
    /// A string from a fixed set (an enum, or the string variants of a oneOf).
    Enum(Vec<String>),
    Text,
    /// A list of scalars (of this kind).
    List(Box<Kind>),
}

/// A schema leaf: "locations[].hours.sales.mon".
#[derive(Debug, Clone)]
struct Leaf {
    path: String,
    kind: Kind,
}

fn resolve<'a>(schema: &'a Value, node: &'a Value) -> &'a Value {
    let mut n = node;
    while let Some(r) = n.get("$ref").and_then(Value::as_str) {
        let name = r.rsplit('/').next().unwrap();
        n = &schema["$defs"][name];
    }
    n
}

fn types(node: &Value) -> Vec<String> {
    match node.get("type") {
        Some(Value::String(t)) => vec![t.clone()],
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(|t| t.as_str().map(String::from))
            .collect(),
        _ => Vec::new(),
    }
}

/// The scalar kind of a node, or None when it is an object or a list of objects.
fn scalar_kind(schema: &Value, node: &Value) -> Option<Kind> {
    let node = resolve(schema, node);
    if let Some(values) = node.get("enum").and_then(Value::as_array) {
        return Some(Kind::Enum(
            values
                .iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect(),
        ));
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(options) = node.get(key).and_then(Value::as_array) {
            let options: Vec<&Value> = options
                .iter()
                .map(|o| resolve(schema, o))
                .filter(|o| types(o) != ["null"])
                .collect();
            let consts: Vec<String> = options
                .iter()
                .filter_map(|o| {
                    o.get("const")
                        .or(o.get("enum").and_then(|e| e.get(0)))
                        .and_then(Value::as_str)
                        .map(String::from)
                })
                .collect();
            if !consts.is_empty() && consts.len() == options.len() {
                return Some(Kind::Enum(consts));
            }
            if options.len() == 1 {
                return scalar_kind(schema, options[0]);
            }
            return None;
        }
    }
    let t = types(node);
    let t: Vec<&str> = t
        .iter()
        .map(String::as_str)
        .filter(|t| *t != "null")
        .collect();
    match t.as_slice() {
        ["boolean"] => Some(Kind::Bool),
        ["integer"] => Some(Kind::Integer {
            min: node.get("minimum").and_then(Value::as_f64),
            max: node.get("maximum").and_then(Value::as_f64),
        }),
        ["number"] => Some(Kind::Number),
        ["string"] => Some(Kind::Text),
        ["array"] => scalar_kind(schema, &node["items"]).map(|k| Kind::List(Box::new(k))),
        _ => None,
    }
}

/// Every leaf under `node` at `path`.
fn leaves(schema: &Value, node: &Value, path: &str, out: &mut Vec<Leaf>) {
    let node = resolve(schema, node);
    if let Some(kind) = scalar_kind(schema, node) {
        out.push(Leaf {
            path: path.to_string(),
            kind,
        });
        return;
    }
    let join = |k: &str| {
        if path.is_empty() {
            k.to_string()
        } else {
            format!("{path}.{k}")
        }
    };
    for key in ["oneOf", "anyOf"] {
        if let Some(options) = node.get(key).and_then(Value::as_array) {
            // A choice between a word and an object (search.engine): the
            // word is a leaf, the object's fields are leaves too.
            let consts: Vec<String> = options
                .iter()
                .map(|o| resolve(schema, o))
                .filter_map(|o| o.get("const").and_then(Value::as_str).map(String::from))
                .collect();
            if !consts.is_empty() {
                out.push(Leaf {
                    path: path.to_string(),
                    kind: Kind::Enum(consts),
                });
            }
            for o in options {
                let o = resolve(schema, o);
                if o.get("properties").is_some()
                    || o.get("$ref").is_some()
                    || o.get("items").is_some()
                {
                    leaves(schema, o, path, out);
                }
            }
            return;
        }
    }
    if let Some(props) = node.get("properties").and_then(Value::as_object) {
        for (k, v) in props {
            leaves(schema, v, &join(k), out);
        }
    } else if let Some(values) = node.get("additionalProperties").filter(|v| v.is_object()) {
        // A map (search.colour_families): each of its keys in the fixture is
        // one value of this schema, "*" in the leaf's path.
        leaves(schema, values, &join("*"), out);
    } else if types(node).contains(&"array".to_string()) {
        leaves(schema, &node["items"], &format!("{path}[]"), out);
    }
}

// --------------------------------------------------------- instances ---

/// Concrete JSON pointers of a leaf path in `config`, in document order:
/// "locations[].hours.sales.mon" -> "/locations/0/hours/sales/mon", ...;
/// "*" is each key of a map ("search.colour_families.*[]").
fn instances(config: &Value, path: &str) -> Vec<String> {
    let mut found = vec![(String::new(), config)];
    for seg in path.split('.') {
        let (key, each) = match seg.strip_suffix("[]") {
            Some(k) => (k, true),
            None => (seg, false),
        };
        let mut next = Vec::new();
        for (ptr, v) in found {
            let children: Vec<(String, &Value)> = if key == "*" {
                v.as_object()
                    .into_iter()
                    .flatten()
                    .map(|(k, c)| (format!("{ptr}/{k}"), c))
                    .collect()
            } else {
                v.get(key)
                    .map(|c| (format!("{ptr}/{key}"), c))
                    .into_iter()
                    .collect()
            };
            for (ptr, child) in children {
                if each {
                    if let Some(items) = child.as_array() {
                        for (i, item) in items.iter().enumerate() {
                            next.push((format!("{ptr}/{i}"), item));
                        }
                    }
                } else {
                    next.push((ptr, child));
                }
            }
        }
        found = next;
    }
    found
        .into_iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(p, _)| p)
        .collect()
}

// ---------------------------------------------------------- mutation ---

/// Values some text leaves must take to stay valid (a file that exists, a
/// preset or time zone that exists).
fn alternates(path: &str) -> Vec<Value> {
    match path {
        "template" => vec!["franchise-group".into()],
        "timezone" => vec!["Australia/Perth".into()],
        "stock.feed" => vec!["stock/everything-alt.json".into()],
        "locations[].timezone" => vec!["Australia/Adelaide".into()],
        // Another word, another kind, another make or subtype a location has.
        "home.blocks[].locations.show" => vec!["sales".into()],
        "home.blocks[].locations.manufacturer" => vec!["MG".into()],
        "home.blocks[].locations.subtype" => vec!["workshop".into()],
        // The workshop becomes a buying centre: the "Sell us your car" block lists it.
        "locations[].subtype" => vec!["buying".into()],
        // The offer shared with the group's other site is excluded from this one.
        "offers[].excluded_website_ids" => vec![serde_json::json!(["everything"])],
        // Another location of the dealer: its cars go into Google's feed instead.
        "syndication.google_vehicle_ads.store_codes[].location" => vec!["ev-newstead".into()],
        _ => Vec::new(),
    }
}

/// Edited versions of a text that keep its shape (a date stays a date).
fn text_mutations(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(d) = NaiveDate::parse_from_str(s, "%Y-%m-%d") {
        for days in [1, -1, 7, -7] {
            out.push((d + Duration::days(days)).format("%Y-%m-%d").to_string());
        }
        return out;
    }
    if let Ok(t) = NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M") {
        for mins in [1, -1, 60 * 24] {
            out.push(
                (t + Duration::minutes(mins))
                    .format("%Y-%m-%d %H:%M")
                    .to_string(),
            );
        }
        return out;
    }
    let b = s.as_bytes();
    if s.len() == 11 && b[2] == b':' && b[5] == b'-' && b[8] == b':' {
        // "08:30-17:30": end a minute earlier, start a minute later.
        let end_min: u32 = s[9..].parse().unwrap_or(0);
        let end_h = &s[6..8];
        let new_end = if end_min > 0 {
            format!("{end_h}:{:02}", end_min - 1)
        } else {
            format!("{end_h}:01")
        };
        out.push(format!("{}-{new_end}", &s[..5]));
        return out;
    }
    if s == "closed" {
        return vec!["09:00-13:00".into()];
    }
    if s.starts_with('#') && s.len() == 7 {
        let last = if s.ends_with('0') { '1' } else { '0' };
        return vec![format!("{}{last}", &s[..6])];
    }
    if s.chars().filter(char::is_ascii_digit).count() >= 4
        && s.chars().all(|c| c.is_ascii_digit() || " ()+-".contains(c))
    {
        // A phone number or postcode: another last digit.
        let mut chars: Vec<char> = s.chars().collect();
        if let Some(i) = chars.iter().rposition(char::is_ascii_digit) {
            chars[i] = if chars[i] == '9' {
                '8'
            } else {
                char::from(chars[i] as u8 + 1)
            };
        }
        return vec![chars.into_iter().collect()];
    }
    if let Some((user, host)) = s.split_once('@') {
        out.push(format!("x{user}@{host}"));
    }
    if s.starts_with("https://") {
        out.push(format!("{}/x", s.trim_end_matches('/')));
        out.push(s.replacen("https://", "https://x", 1));
    }
    if s.starts_with('/') && !s.contains('.') {
        // A site path: another page every site has.
        out.extend(
            ["/contact-us/", "/search/", "/"]
                .iter()
                .filter(|p| *p != &s)
                .map(|p| p.to_string()),
        );
    }
    out.push(format!("{s}x"));
    out.push(format!("x {s}"));
    out
}

/// Candidate values for the value `v` of a leaf of kind `kind`.
fn mutations(path: &str, kind: &Kind, v: &Value) -> Vec<Value> {
    let mut out = alternates(path);
    match (kind, v) {
        (Kind::Bool, Value::Bool(b)) => out.push(Value::Bool(!b)),
        (Kind::Integer { min, max }, n) if n.is_number() => {
            let x = n.as_f64().unwrap();
            for d in [1.0, -1.0, 10.0] {
                let y = x + d;
                if min.is_none_or(|m| y >= m) && max.is_none_or(|m| y <= m) && y >= 0.0 {
                    out.push(Value::from(y as i64));
                }
            }
        }
        (Kind::Number, n) if n.is_number() => {
            let x = n.as_f64().unwrap();
            out.push(serde_json::json!(x + 0.5));
            out.push(serde_json::json!(x - 0.5));
        }
        (Kind::Enum(values), Value::String(s)) => out.extend(
            values
                .iter()
                .filter(|o| *o != s)
                .map(|o| Value::String(o.clone())),
        ),
        // An enum given as an object variant (search.engine: {hosted: ...}): each word.
        (Kind::Enum(values), Value::Object(_)) => {
            out.extend(values.iter().map(|o| Value::String(o.clone())))
        }
        (Kind::Text, Value::String(s)) => {
            out.extend(text_mutations(s).into_iter().map(Value::String))
        }
        (Kind::List(item), Value::Array(items)) => {
            if items.len() >= 2 {
                out.push(Value::Array(items.iter().rev().cloned().collect()));
            }
            if !items.is_empty() {
                out.push(Value::Array(items[..items.len() - 1].to_vec()));
                out.push(Value::Array(items[1..].to_vec()));
            }
            let extra: Vec<Value> = match &**item {
                Kind::Enum(values) => values
                    .iter()
                    .map(|o| Value::String(o.clone()))
                    .filter(|o| !items.contains(o))
                    .collect(),
                _ => items
                    .first()
                    .map(|first| mutations(path, item, first))
                    .unwrap_or_default(),
            };
            for e in extra.into_iter().take(3) {
                let mut grown = items.clone();
                grown.push(e);
                out.push(Value::Array(grown));
            }
        }
        _ => {}
    }
    out.retain(|m| m != v);
    out
}

// -------------------------------------------------------- generation ---

/// The generated data of a dealer written as `config` (JSON is YAML),
/// next to the fixture's stock and pages; Err with the first problem when
/// the dealer checks refuse it.
fn generate(config: &Value, loader: &Loader) -> Result<Vec<(&'static str, String)>, String> {
    let dir = tempfile::tempdir().unwrap();
    for link in ["stock", "everything"] {
        std::os::unix::fs::symlink(fixture_dir().join(link), dir.path().join(link)).unwrap();
    }
    let file = dir.path().join("everything.yaml");
    std::fs::write(&file, serde_json::to_string_pretty(config).unwrap()).unwrap();
    let dealer = loader.load(&file).map_err(|r| {
        r.diagnostics
            .iter()
            .find(|d| d.severity == dealer_config::Severity::Error)
            .map(|d| format!("{}: {}", d.key, d.message))
            .unwrap_or_default()
    })?;
    dealergen::run::build::generate(&dealer, &public(), now())
        .map(|g| g.files)
        .map_err(|e| format!("{e:#}"))
}

/// What happened to one leaf.
#[derive(Debug)]
enum Verdict {
    /// A mutation changed these outputs.
    Changes(Vec<&'static str>),
    /// Valid mutations changed nothing.
    Dead(Vec<String>),
    /// The fixture does not set it.
    NotSet,
    /// No mutation passed the dealer checks.
    NoValidMutation(Vec<String>),
}

fn judge(
    leaf: &Leaf,
    config: &Value,
    baseline: &[(&'static str, String)],
    loader: &Loader,
) -> Verdict {
    let context = context(&leaf.path);
    if context.is_empty() {
        return judge_on(leaf, config, baseline, loader);
    }
    let mut varied = config.clone();
    for (ptr, value) in context {
        *varied.pointer_mut(ptr).unwrap() = value;
    }
    match generate(&varied, loader) {
        Ok(files) => judge_on(leaf, &varied, &files, loader),
        Err(why) => Verdict::NoValidMutation(vec![format!("the context of the leaf: {why}")]),
    }
}

/// A leaf's verdict on `config`, whose output is `baseline`.
fn judge_on(
    leaf: &Leaf,
    config: &Value,
    baseline: &[(&'static str, String)],
    loader: &Loader,
) -> Verdict {
    let found = instances(config, &leaf.path);
    // A leaf whose every instance but one is held to one value by a rule
    // (the primary location is visible) is judged where the fixture sets
    // the other value.
    let ptr = match INSTANCE_WITH.iter().find(|(path, _)| *path == leaf.path) {
        Some((_, value)) => found
            .iter()
            .find(|p| config.pointer(p) == Some(value))
            .cloned(),
        None => found.first().cloned(),
    };
    let Some(ptr) = ptr else {
        return Verdict::NotSet;
    };
    let original = config.pointer(&ptr).unwrap().clone();
    let mut tried = Vec::new();
    let mut refused = Vec::new();
    for candidate in mutations(&leaf.path, &leaf.kind, &original) {
        let mut mutated = config.clone();
        *mutated.pointer_mut(&ptr).unwrap() = candidate.clone();
        match generate(&mutated, loader) {
            Err(why) => refused.push(format!("{candidate}: {why}")),
            Ok(files) => {
                let changed: Vec<&'static str> = files
                    .iter()
                    .zip(baseline)
                    .filter(|((_, a), (_, b))| a != b)
                    .map(|((name, _), _)| *name)
                    .collect();
                if !changed.is_empty() {
                    return Verdict::Changes(changed);
                }
                tried.push(candidate.to_string());
            }
        }
    }
    if tried.is_empty() {
        Verdict::NoValidMutation(refused)
    } else {
        Verdict::Dead(tried)
    }
}

#[test]
fn every_dealer_field_changes_the_generated_site_or_the_worker() {
    let started = Instant::now();
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("dealers/dealer.schema.json")).unwrap(),
    )
    .unwrap();
    let mut all = Vec::new();
    leaves(&schema, &schema, "", &mut all);
    assert!(
        all.len() > 150,
        "the schema walk found only {} leaves",
        all.len()
    );

    let loader = Loader::new(root().join("templates/presets"));
    let fixture = loader
        .load(&fixture_dir().join("everything.yaml"))
        .unwrap_or_else(|r| panic!("the everything fixture must validate: {:#?}", r.diagnostics));
    // The resolved config (preset merged) is the baseline: written back as
    // the dealer file, it must give exactly what the fixture gives.
    let config = fixture.config.as_written();
    let from_file = dealergen::run::build::generate(&fixture, &public(), now())
        .unwrap()
        .files;
    let baseline = generate(&config, &loader)
        .unwrap_or_else(|e| panic!("the resolved fixture does not validate: {e}"));
    assert_eq!(
        from_file
            .iter()
            .map(|(n, t)| (*n, t.len()))
            .collect::<Vec<_>>(),
        baseline
            .iter()
            .map(|(n, t)| (*n, t.len()))
            .collect::<Vec<_>>(),
        "writing the resolved config back must not change the output"
    );

    let verdicts: Vec<(Leaf, Verdict)> = all
        .par_iter()
        .map(|leaf| (leaf.clone(), judge(leaf, &config, &baseline, &loader)))
        .collect();

    let exempt: BTreeMap<&str, &str> = CANNOT_BE_OBSERVED.iter().chain(PENDING).copied().collect();
    let mut failures = Vec::new();
    let mut covered = 0;
    let mut by_output: BTreeMap<&str, usize> = BTreeMap::new();
    for (leaf, verdict) in &verdicts {
        let listed = exempt.get(leaf.path.as_str());
        match (verdict, listed) {
            (Verdict::Changes(files), None) => {
                covered += 1;
                for f in files {
                    *by_output.entry(f).or_default() += 1;
                }
            }
            (Verdict::Changes(files), Some(_)) => failures.push(format!(
                "{}: now changes {} — remove it from the test's allow-list (CANNOT_BE_OBSERVED / PENDING)",
                leaf.path,
                files.join(", ")
            )),
            (_, Some(_)) => {}
            (Verdict::Dead(tried), None) => failures.push(format!(
                "{}: changing it ({}) changed nothing the site or the worker gets. Consume it (carry it into site data, the pages or the edge config), or remove it from the schema",
                leaf.path,
                tried.join(", ")
            )),
            (Verdict::NotSet, None) => failures.push(format!(
                "{}: generator/tests/fixtures/dealers/everything.yaml does not set it; set it there so that it matters",
                leaf.path
            )),
            (Verdict::NoValidMutation(refused), None) => failures.push(format!(
                "{}: no mutation passed the dealer checks ({}); teach the test a valid one (alternates / text_mutations)",
                leaf.path,
                refused.join("; ")
            )),
        }
    }
    for (path, _) in CANNOT_BE_OBSERVED.iter().chain(PENDING) {
        if !all.iter().any(|l| l.path == *path) {
            failures.push(format!(
                "{path}: allow-listed but not in the schema any more; remove the entry"
            ));
        }
    }
    println!(
        "config fields: {} schema leaves, {covered} change the output ({}), {} allow-listed ({} cannot be observed, {} pending), {} failing; {:.1} s",
        all.len(),
        by_output.iter().map(|(f, n)| format!("{f} {n}")).collect::<Vec<_>>().join(", "),
        CANNOT_BE_OBSERVED.len() + PENDING.len(),
        CANNOT_BE_OBSERVED.len(),
        PENDING.len(),
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} dead or untested config field(s):\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}

/// `template` (CANNOT_BE_OBSERVED above): the same dealer file on two
/// presets gives two different sites.
#[test]
fn a_dealers_template_decides_its_defaults() {
    let loader = Loader::new(root().join("templates/presets"));
    let files = ["multi-brand-group", "franchise-group"].map(|template| {
        let text = std::fs::read_to_string(fixture_dir().join("tiny-dealer.yaml"))
            .unwrap()
            .replace(
                "template: multi-brand-group",
                &format!("template: {template}"),
            );
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(fixture_dir().join("stock"), dir.path().join("stock")).unwrap();
        std::fs::write(dir.path().join("tiny-dealer.yaml"), text).unwrap();
        let dealer = loader.load(&dir.path().join("tiny-dealer.yaml")).unwrap();
        dealergen::run::build::generate(&dealer, &public(), now())
            .unwrap()
            .files
    });
    let site = |f: &[(&str, String)]| f.iter().find(|(n, _)| *n == "site.json").unwrap().1.clone();
    assert_ne!(
        site(&files[0]),
        site(&files[1]),
        "the preset's card buttons and sort options differ"
    );
}

#[test]
fn the_schema_walk_reaches_every_kind_of_leaf() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("dealers/dealer.schema.json")).unwrap(),
    )
    .unwrap();
    let mut all = Vec::new();
    leaves(&schema, &schema, "", &mut all);
    let kind_of = |p: &str| {
        all.iter()
            .find(|l| l.path == p)
            .map(|l| format!("{:?}", l.kind))
            .unwrap_or_else(|| panic!("{p} not found"))
    };
    assert_eq!(kind_of("features.watchlist"), "Bool");
    assert!(kind_of("search.page_size").starts_with("Integer { min: Some(3.0), max: Some(99.0)"));
    assert!(kind_of("locations[].kind").starts_with("Enum"));
    assert!(kind_of("search.engine").contains("embedded"));
    assert_eq!(kind_of("search.engine.hosted.host"), "Text");
    assert_eq!(kind_of("locations[].hours.sales.mon"), "Text");
    assert!(kind_of("search.sort_options").starts_with("List(Enum"));
    assert_eq!(kind_of("popup.title"), "Text");
    assert_eq!(kind_of("locations[].address.lat"), "Number");
}

#[test]
fn mutations_keep_the_shape_of_a_value() {
    assert_eq!(text_mutations("2026-11-01")[0], "2026-11-02");
    assert_eq!(text_mutations("08:30-17:30"), ["08:30-17:29"]);
    assert_eq!(text_mutations("(07) 3000 5001"), ["(07) 3000 5002"]);
    assert_eq!(text_mutations("#12355b"), ["#123550"]);
    assert!(text_mutations("sales@x.com.au").contains(&"xsales@x.com.au".to_string()));
    let config =
        serde_json::json!({"locations": [{"hours": {}}, {"hours": {"sales": {"mon": "x"}}}]});
    assert_eq!(
        instances(&config, "locations[].hours.sales.mon"),
        ["/locations/1/hours/sales/mon"]
    );
}
