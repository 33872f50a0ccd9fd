//! Compares two sides of a dealer: pages, cars (with the rule that moved
//! them), every setting the site data and the edge config carry, sorted
//! into the sections a marketer reviews, and the ads feeds' rows.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::feeds::{compare_feeds, FeedChange};
use super::snapshot::{Record, Side, Snapshot, State};

/// Where a changed setting is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Section {
    Buttons,
    PromoTiles,
    Navigation,
    Locations,
    Redirects,
    FinanceDisplay,
    EdgeSettings,
    OtherSettings,
}

impl Section {
    pub fn title(self) -> &'static str {
        match self {
            Section::Buttons => "Buttons",
            Section::PromoTiles => "Promo tiles and popups",
            Section::Navigation => "Navigation and footer",
            Section::Locations => "Locations and hours",
            Section::Redirects => "Redirects of old addresses (`redirects:` and the platform's)",
            Section::FinanceDisplay => "Finance display",
            Section::EdgeSettings => "Edge settings (the worker)",
            Section::OtherSettings => "Other settings",
        }
    }

    /// The section of a site.json path.
    fn of_site_path(path: &str) -> Section {
        let p = path.to_ascii_lowercase();
        if p.contains("button") {
            Section::Buttons
        } else if p.contains("promo") || p.starts_with("popup") {
            Section::PromoTiles
        } else if ["navigation", "footer", "social"]
            .iter()
            .any(|s| p.starts_with(s))
        {
            Section::Navigation
        } else if p.starts_with("locations") {
            Section::Locations
        } else if p.contains("finance") {
            Section::FinanceDisplay
        } else {
            Section::OtherSettings
        }
    }
}

/// One changed value (`None`: not there on that side).
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub path: String,
    pub old: Option<Value>,
    pub new: Option<Value>,
}

/// A car that appears on or disappears from the site.
#[derive(Debug, Clone, PartialEq)]
pub struct CarMove {
    pub slug: String,
    pub name: String,
    pub stocknum: Option<String>,
    /// Its page (on the side where it is shown).
    pub url: String,
    /// The rule responsible: for a car that appears, what kept it off
    /// before; for one that disappears, what keeps it off now.
    pub reason: String,
}

/// A car on the site on both sides whose page changes.
#[derive(Debug, Clone, PartialEq)]
pub struct CarEdit {
    pub slug: String,
    pub name: String,
    pub url: String,
    /// Price text before and after, when it changed.
    pub price: Option<(String, String)>,
    /// Tag banner before and after, when it changed.
    pub tag: Option<(Option<String>, Option<String>)>,
    /// Other fields of its page that changed on it alone (names only).
    pub other: Vec<String>,
    /// How many of the shared changes (`Report::shared`) it also shows.
    pub shared: usize,
}

/// A change several car pages show alike (a location's phone on every car
/// there, a repriced car on the pages that list it among their similar
/// cars): reported once, with how many pages and which setting it comes
/// from, rather than as an unexplained field on each car.
#[derive(Debug, Clone, PartialEq)]
pub struct SharedChange {
    /// The pages' cars (name and URL), in slug order.
    pub cars: Vec<(String, String)>,
    /// What changed, the same on each of them.
    pub changes: Vec<Change>,
    /// The settings whose change this is (the same old and new value).
    pub settings: Vec<String>,
    /// Why, in words, when the fields say it (the similar cars' list).
    pub reason: Option<&'static str>,
}

/// Everything the Markdown shows.
#[derive(Debug, Default)]
pub struct Report {
    /// A sentence when a side is missing or broken.
    pub notes: Vec<String>,
    /// Cars shown before and after (None: that side has no site).
    pub shown: (Option<usize>, Option<usize>),
    pub pages: (Option<usize>, Option<usize>),
    /// Pages other than car pages.
    pub pages_added: Vec<String>,
    pub pages_removed: Vec<String>,
    pub appear: Vec<CarMove>,
    pub disappear: Vec<CarMove>,
    pub edited: Vec<CarEdit>,
    /// Changes shown alike on several car pages.
    pub shared: Vec<SharedChange>,
    /// Cars on the site on both sides whose page changed (those in
    /// `edited` and those changed only through `shared`).
    pub changed_cars: usize,
    pub sections: BTreeMap<Section, Vec<Change>>,
    /// The ads feeds whose rows change (`diff::feeds`).
    pub feeds: Vec<FeedChange>,
}

impl Report {
    pub fn is_empty(&self) -> bool {
        self.notes.is_empty()
            && self.pages_added.is_empty()
            && self.pages_removed.is_empty()
            && self.appear.is_empty()
            && self.disappear.is_empty()
            && self.edited.is_empty()
            && self.shared.is_empty()
            && self.sections.values().all(Vec::is_empty)
            && self.feeds.is_empty()
    }
}

/// site.json paths left out of the settings sections: derived from the
/// stock (reported as cars and pages) or from the moment of the build.
const DERIVED: [&str; 4] = ["built_at", "stock_summary", "search.landing_pages", "pages"];

pub fn compare(base: &Side, head: &Side) -> Report {
    let mut report = Report::default();
    let empty = Snapshot {
        site: Value::Null,
        edge: Value::Null,
        pages: Vec::new(),
        records: BTreeMap::new(),
        cars: BTreeMap::new(),
        feeds: BTreeMap::new(),
        redirects: BTreeMap::new(),
    };
    let built = |side: &Side, which: &str, notes: &mut Vec<String>| -> Option<()> {
        match side {
            Side::Built(_) => Some(()),
            Side::Absent if which == "base" => {
                notes.push("This dealer is new: it has no site at the base revision.".into());
                None
            }
            Side::Absent => {
                notes.push("This change removes the dealer: its site is no longer built.".into());
                None
            }
            Side::Invalid(problems) => {
                notes.push(format!(
                    "The {which} version of the dealer file does not validate ({} problem(s), first: {}); \
                     `dealergen check` lists them. It is compared as a dealer without a site.",
                    problems.len(),
                    problems.first().map(String::as_str).unwrap_or("?")
                ));
                None
            }
            Side::Broken(why) => {
                notes.push(format!(
                    "The {which} version cannot be built: {why}. It is compared as a dealer without a site."
                ));
                None
            }
        }
    };
    let b_ok = built(base, "base", &mut report.notes).is_some();
    let h_ok = built(head, "changed", &mut report.notes).is_some();
    let b = match base {
        Side::Built(s) => s.as_ref(),
        _ => &empty,
    };
    let h = match head {
        Side::Built(s) => s.as_ref(),
        _ => &empty,
    };
    report.shown = (b_ok.then(|| b.shown()), h_ok.then(|| h.shown()));
    report.pages = (b_ok.then_some(b.pages.len()), h_ok.then_some(h.pages.len()));

    let (bp, hp): (BTreeSet<&String>, BTreeSet<&String>) =
        (b.pages.iter().collect(), h.pages.iter().collect());
    let not_car = |p: &&&String| !p.starts_with("/cars/");
    report.pages_added = hp
        .difference(&bp)
        .filter(not_car)
        .map(|p| p.to_string())
        .collect();
    report.pages_removed = bp
        .difference(&hp)
        .filter(not_car)
        .map(|p| p.to_string())
        .collect();

    compare_cars(b, h, &mut report);
    report.feeds = compare_feeds(b, h);

    if b_ok && h_ok {
        let mut site_changes = Vec::new();
        diff_values("", &b.site, &h.site, &mut site_changes);
        for c in site_changes {
            if DERIVED.iter().any(|d| {
                c.path == *d
                    || c.path.starts_with(&format!("{d}."))
                    || c.path.starts_with(&format!("{d}["))
            }) {
                continue;
            }
            report
                .sections
                .entry(Section::of_site_path(&c.path))
                .or_default()
                .push(c);
        }
        let mut edge_changes = Vec::new();
        diff_values("", &b.edge, &h.edge, &mut edge_changes);
        if !edge_changes.is_empty() {
            report
                .sections
                .entry(Section::EdgeSettings)
                .or_default()
                .extend(edge_changes);
        }
        let redirects = redirect_changes(&b.redirects, &h.redirects);
        if !redirects.is_empty() {
            report.sections.insert(Section::Redirects, redirects);
        }
        attribute(&mut report);
    }
    report
}

/// Each old address whose redirect came, went or changed target.
fn redirect_changes(b: &BTreeMap<String, String>, h: &BTreeMap<String, String>) -> Vec<Change> {
    let froms: BTreeSet<&String> = b.keys().chain(h.keys()).collect();
    froms
        .into_iter()
        .filter(|f| b.get(*f) != h.get(*f))
        .map(|f| Change {
            path: f.clone(),
            old: b.get(f).map(|v| Value::String(v.clone())),
            new: h.get(f).map(|v| Value::String(v.clone())),
        })
        .collect()
}

/// Names, for each shared change, the settings that changed from the same
/// value to the same value (a car's `location.phone` and the setting
/// `locations[main].phone`), or to the same value as a car page shows it
/// masked (`features.phone_reveal`: "(07) 3111 XXXX" from "(07) 3111
/// 0002"). Settings of the worker are left out: the site's own setting is
/// the one a marketer edits.
fn attribute(report: &mut Report) {
    let settings: Vec<&Change> = report
        .sections
        .iter()
        .filter(|(section, _)| **section != Section::EdgeSettings)
        .flat_map(|(_, changes)| changes)
        .filter(|c| !c.path.starts_with("cars["))
        .collect();
    for group in &mut report.shared {
        for c in &group.changes {
            for s in &settings {
                let same = (s.old == c.old && s.new == c.new)
                    || (masked(&s.old) == c.old && masked(&s.new) == c.new);
                if same && !group.settings.contains(&s.path) {
                    group.settings.push(s.path.clone());
                }
            }
        }
    }
}

/// A setting's text as a car page shows it where numbers are masked.
fn masked(v: &Option<Value>) -> Option<Value> {
    v.as_ref().map(|v| match v {
        Value::String(t) => Value::String(crate::pipeline::stock::present::mask_phone(t)),
        other => other.clone(),
    })
}

fn compare_cars(b: &Snapshot, h: &Snapshot, report: &mut Report) {
    let shown = |s: &Snapshot, slug: &str| s.cars.contains_key(slug);
    let record_name = |r: Option<&Record>, slug: &str| {
        r.map(|r| (r.name.clone(), r.stocknum.clone()))
            .unwrap_or_else(|| (slug.to_string(), None))
    };
    let url_of = |r: Option<&Record>| match r.map(|r| &r.state) {
        Some(State::Shown { url }) => url.clone(),
        _ => String::new(),
    };
    // Why a car is not on a side's site.
    let absent_reason = |s: &Snapshot, slug: &str, gone: &str| match s.records.get(slug) {
        None if s.site.is_null() => "the dealer has no site there".to_string(),
        None => gone.to_string(),
        Some(r) => match &r.state {
            State::Hidden { rule, why } => format!("{rule}: {why}"),
            State::Skipped { why } => format!("malformed record: {why}"),
            State::Shown { .. } => "shown".into(),
        },
    };
    for slug in h.cars.keys().filter(|s| !shown(b, s)) {
        let rec = h.records.get(slug);
        let (name, stocknum) = record_name(rec, slug);
        report.appear.push(CarMove {
            slug: slug.clone(),
            name,
            stocknum,
            url: url_of(rec),
            reason: absent_reason(b, slug, "new in the feed"),
        });
    }
    for slug in b.cars.keys().filter(|s| !shown(h, s)) {
        let rec = b.records.get(slug);
        let (name, stocknum) = record_name(rec, slug);
        report.disappear.push(CarMove {
            slug: slug.clone(),
            name,
            stocknum,
            url: url_of(rec),
            reason: absent_reason(h, slug, "no longer in the feed"),
        });
    }
    // Each changed car's price, tag and other changes; then the changes
    // several cars show alike are taken out as shared.
    struct Edited<'a> {
        slug: &'a String,
        price: Option<(String, String)>,
        tag: Option<(Option<String>, Option<String>)>,
        /// Each change with its key (the same path, old and new value).
        changes: Vec<(ChangeKey, Change)>,
    }
    let mut edited = Vec::new();
    for (slug, new) in &h.cars {
        let Some(old) = b.cars.get(slug) else {
            continue;
        };
        if old == new {
            continue;
        }
        let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(String::from);
        let price = (text(old, "price_text") != text(new, "price_text")).then(|| {
            (
                text(old, "price_text").unwrap_or_default(),
                text(new, "price_text").unwrap_or_default(),
            )
        });
        let tag = (text(old, "tag_banner") != text(new, "tag_banner"))
            .then(|| (text(old, "tag_banner"), text(new, "tag_banner")));
        let mut fields = Vec::new();
        diff_values("", old, new, &mut fields);
        let mut changes = Vec::new();
        for c in fields {
            let top = top_field(&c.path);
            // Shown in their own columns (`tag` is the feed's tag behind the banner).
            if ["price_text", "tag_banner", "price", "tag"].contains(&top.as_str()) {
                continue;
            }
            if top.contains("finance") {
                // A car's finance figures belong with the finance display.
                report
                    .sections
                    .entry(Section::FinanceDisplay)
                    .or_default()
                    .push(Change {
                        path: format!("cars[{slug}].{}", c.path),
                        old: c.old,
                        new: c.new,
                    });
                continue;
            }
            changes.push((ChangeKey::of(&c), c));
        }
        if price.is_none() && tag.is_none() && changes.is_empty() {
            continue;
        }
        edited.push(Edited {
            slug,
            price,
            tag,
            changes,
        });
    }
    // The cars showing each change (the same path, old and new value).
    let mut showing: BTreeMap<&ChangeKey, Vec<&String>> = BTreeMap::new();
    for e in &edited {
        for (k, _) in &e.changes {
            showing.entry(k).or_default().push(e.slug);
        }
    }
    // Changes shown by the same cars are one shared change.
    let mut groups: BTreeMap<Vec<&String>, Vec<Change>> = BTreeMap::new();
    let mut seen = BTreeSet::new();
    for e in &edited {
        for (k, c) in &e.changes {
            let cars = &showing[k];
            if cars.len() > 1 && seen.insert(k) {
                groups.entry(cars.clone()).or_default().push(c.clone());
            }
        }
    }
    let page_of = |slug: &String| {
        let (name, _) = record_name(h.records.get(slug), slug);
        let name = h.cars[slug]
            .get("name")
            .and_then(Value::as_str)
            .map(String::from)
            .unwrap_or(name);
        (name, url_of(h.records.get(slug)))
    };
    let mut shared: Vec<SharedChange> = groups
        .into_iter()
        .map(|(cars, changes)| SharedChange {
            cars: cars.into_iter().map(page_of).collect(),
            reason: changes
                .iter()
                .all(|c| c.path.starts_with("detail.similar"))
                .then_some(
                    "a car these pages list among their similar cars was repriced, sold or added",
                ),
            changes,
            settings: Vec::new(),
        })
        .collect();
    // The widest first.
    shared.sort_by_key(|g| std::cmp::Reverse(g.cars.len()));
    report.changed_cars = edited.len();
    for e in &edited {
        let mut other: Vec<String> = Vec::new();
        let mut in_shared = BTreeSet::new();
        for (k, c) in &e.changes {
            let cars = &showing[k];
            if cars.len() > 1 {
                in_shared.insert(cars.clone());
                continue;
            }
            let top = top_field(&c.path);
            if !other.contains(&top) {
                other.push(top);
            }
        }
        if e.price.is_none() && e.tag.is_none() && other.is_empty() {
            continue;
        }
        let (name, url) = page_of(e.slug);
        report.edited.push(CarEdit {
            slug: e.slug.clone(),
            name,
            url,
            price: e.price.clone(),
            tag: e.tag.clone(),
            other,
            shared: in_shared.len(),
        });
    }
    report.shared = shared;
}

/// What makes two cars' changes the same change: the path and the old and
/// new values (as JSON text, so they order and compare).
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct ChangeKey(String, String, String);

impl ChangeKey {
    fn of(c: &Change) -> Self {
        let v = |x: &Option<Value>| x.as_ref().map(Value::to_string).unwrap_or_default();
        ChangeKey(c.path.clone(), v(&c.old), v(&c.new))
    }
}

/// The first field of a path (`detail` of `detail.similar[x].price_text`).
fn top_field(path: &str) -> String {
    path.chars()
        .take_while(|ch| *ch != '.' && *ch != '[')
        .collect()
}

/// The key that identifies the items of a list of objects, if they have
/// one: the first of these fields that every item has, as unique text.
fn list_key(a: &[Value], b: &[Value]) -> Option<&'static str> {
    ["id", "slug", "path", "label", "value", "key", "title"]
        .into_iter()
        .find(|k| {
            [a, b].iter().all(|items| {
                let keys: Vec<&str> = items
                    .iter()
                    .filter_map(|v| v.get(*k).and_then(Value::as_str))
                    .collect();
                keys.len() == items.len()
                    && keys.iter().collect::<BTreeSet<_>>().len() == keys.len()
            })
        })
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// Every difference between two JSON values, as paths such as
/// `search.promo_tiles[eofy-2025].expires_at`. Lists of objects are
/// matched by their key (`list_key`), else by position when their lengths
/// agree; lists of plain values are compared whole.
pub fn diff_values(path: &str, a: &Value, b: &Value, out: &mut Vec<Change>) {
    if a == b {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let p = join(path, k);
                match (x.get(k), y.get(k)) {
                    (Some(va), Some(vb)) => diff_values(&p, va, vb, out),
                    (va, vb) => out.push(Change {
                        path: p,
                        old: va.cloned(),
                        new: vb.cloned(),
                    }),
                }
            }
        }
        (Value::Array(x), Value::Array(y))
            if x.iter().chain(y).all(Value::is_object) && !(x.is_empty() && y.is_empty()) =>
        {
            if let Some(k) = list_key(x, y) {
                let id = |v: &Value| v[k].as_str().unwrap_or_default().to_string();
                let old: BTreeMap<String, &Value> = x.iter().map(|v| (id(v), v)).collect();
                let new: BTreeMap<String, &Value> = y.iter().map(|v| (id(v), v)).collect();
                // In the order of the changed list, then the removed ones.
                for v in y {
                    let key = id(v);
                    let p = format!("{path}[{key}]");
                    match old.get(&key) {
                        Some(o) => diff_values(&p, o, v, out),
                        None => out.push(Change {
                            path: p,
                            old: None,
                            new: Some(v.clone()),
                        }),
                    }
                }
                for v in x {
                    let key = id(v);
                    if !new.contains_key(&key) {
                        out.push(Change {
                            path: format!("{path}[{key}]"),
                            old: Some(v.clone()),
                            new: None,
                        });
                    }
                }
                let order = |items: &[Value]| items.iter().map(id).collect::<Vec<_>>();
                let (ox, oy) = (order(x), order(y));
                let common_x: Vec<&String> = ox.iter().filter(|k| new.contains_key(*k)).collect();
                let common_y: Vec<&String> = oy.iter().filter(|k| old.contains_key(*k)).collect();
                if common_x != common_y {
                    out.push(Change {
                        path: format!("{path} (order)"),
                        old: Some(Value::from(ox)),
                        new: Some(Value::from(oy)),
                    });
                }
            } else if x.len() == y.len() {
                for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                    diff_values(&format!("{path}[{i}]"), va, vb, out);
                }
            } else {
                out.push(Change {
                    path: path.to_string(),
                    old: Some(a.clone()),
                    new: Some(b.clone()),
                });
            }
        }
        _ => out.push(Change {
            path: path.to_string(),
            old: Some(a.clone()),
            new: Some(b.clone()),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn paths(a: Value, b: Value) -> Vec<String> {
        let mut out = Vec::new();
        diff_values("", &a, &b, &mut out);
        out.into_iter().map(|c| c.path).collect()
    }

    #[test]
    fn redirects_that_came_went_or_moved_are_listed() {
        let side = |rules: &[(&str, &str)]| -> BTreeMap<String, String> {
            rules
                .iter()
                .map(|(f, t)| (f.to_string(), t.to_string()))
                .collect()
        };
        let b = side(&[
            ("/buying", "/trade-in/ 301"),
            ("/old", "/ 301"),
            ("/same", "/ 301"),
        ]);
        let h = side(&[
            ("/buying", "/finance/ 301"),
            ("/new", "/about-us/ 302"),
            ("/same", "/ 301"),
        ]);
        let got: Vec<(String, Option<Value>, Option<Value>)> = redirect_changes(&b, &h)
            .into_iter()
            .map(|c| (c.path, c.old, c.new))
            .collect();
        let v = |s: &str| Some(Value::String(s.into()));
        assert_eq!(
            got,
            [
                (
                    "/buying".to_string(),
                    v("/trade-in/ 301"),
                    v("/finance/ 301")
                ),
                ("/new".to_string(), None, v("/about-us/ 302")),
                ("/old".to_string(), v("/ 301"), None),
            ]
        );
    }

    #[test]
    fn lists_of_objects_are_matched_by_their_key() {
        let a = json!({"tiles": [{"id": "a", "n": 1}, {"id": "b", "n": 2}]});
        let b = json!({"tiles": [{"id": "b", "n": 3}, {"id": "c", "n": 4}]});
        assert_eq!(paths(a, b), ["tiles[b].n", "tiles[c]", "tiles[a]"]);
        let a = json!({"nav": [{"label": "Home"}, {"label": "Stock"}]});
        let b = json!({"nav": [{"label": "Stock"}, {"label": "Home"}]});
        assert_eq!(paths(a, b), ["nav (order)"]);
    }

    #[test]
    fn plain_lists_and_scalars_are_compared_whole() {
        assert_eq!(
            paths(
                json!({"b": ["a", "b"], "x": 1}),
                json!({"b": ["a"], "x": 1, "y": true})
            ),
            ["b", "y"]
        );
        assert!(paths(json!({"a": [1]}), json!({"a": [1]})).is_empty());
    }

    #[test]
    fn site_paths_land_in_their_section() {
        assert_eq!(Section::of_site_path("cards.buttons"), Section::Buttons);
        assert_eq!(
            Section::of_site_path("search.promo_tiles[x].alt"),
            Section::PromoTiles
        );
        assert_eq!(
            Section::of_site_path("navigation[Home].href"),
            Section::Navigation
        );
        assert_eq!(
            Section::of_site_path("features.finance_quote"),
            Section::FinanceDisplay
        );
        assert_eq!(
            Section::of_site_path("locations[main].hours"),
            Section::Locations
        );
        assert_eq!(
            Section::of_site_path("theme.primary"),
            Section::OtherSettings
        );
    }
}
