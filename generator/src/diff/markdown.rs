//! The report as GitHub-flavoured Markdown, fit for a pull-request
//! comment: a summary line, then one section per kind of change, long
//! lists cut with a count of the rest.

use std::fmt::Write;

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::compare::{CarMove, Change, Report, SharedChange};
use super::feeds::FeedChange;

/// Rows shown per list before "... and N more".
const MAX_ROWS: usize = 30;
/// Changes listed per shared change, and cars named as its examples.
const MAX_SHARED_LINES: usize = 5;
const EXAMPLES: usize = 3;

/// The first line of every comment: the workflow finds and updates its
/// earlier comment by it.
pub const MARKER: &str = "<!-- dealergen-diff -->";

pub fn render(slug: &str, base: &str, now: DateTime<Utc>, r: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{MARKER}");
    let _ = writeln!(out, "## dealergen diff: `{slug}`\n");
    let _ = writeln!(
        out,
        "Compared with `{}`, judged at {}.\n",
        code_safe(base),
        now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
    );
    for n in &r.notes {
        let _ = writeln!(out, "> {}\n", inline(n));
    }
    let count = |v: Option<usize>| v.map(|n| n.to_string()).unwrap_or_else(|| "none".into());
    let _ = writeln!(
        out,
        "**Cars shown: {} → {}. Pages: {} → {}.**\n",
        count(r.shown.0),
        count(r.shown.1),
        count(r.pages.0),
        count(r.pages.1)
    );
    if r.is_empty() {
        let _ = writeln!(out, "No change to the site.");
        return out;
    }

    if !r.pages_added.is_empty() || !r.pages_removed.is_empty() {
        let _ = writeln!(out, "### Pages\n");
        list(&mut out, "Added", &r.pages_added);
        list(&mut out, "Removed", &r.pages_removed);
        let _ = writeln!(out, "\nCar pages follow the cars below.\n");
    }

    if !r.appear.is_empty()
        || !r.disappear.is_empty()
        || !r.edited.is_empty()
        || !r.shared.is_empty()
    {
        let _ = writeln!(out, "### Cars\n");
        moves(
            &mut out,
            &format!("Appear on the site ({})", r.appear.len()),
            "What kept it off before",
            &r.appear,
        );
        moves(
            &mut out,
            &format!("Disappear from the site ({})", r.disappear.len()),
            "The rule that hides it now",
            &r.disappear,
        );
        if r.changed_cars > 0 {
            let through_shared = r.changed_cars - r.edited.len();
            let _ = writeln!(
                out,
                "**Changed ({})**: {} with changes of their own{}.\n",
                r.changed_cars,
                r.edited.len(),
                if through_shared > 0 {
                    format!(", {through_shared} only through the shared changes below")
                } else {
                    String::new()
                }
            );
        }
        if !r.edited.is_empty() {
            let _ = writeln!(out, "| Car | Price | Tag | Also changed |");
            let _ = writeln!(out, "|---|---|---|---|");
            for e in r.edited.iter().take(MAX_ROWS) {
                let price = e
                    .price
                    .as_ref()
                    .map(|(a, b)| format!("{} → {}", cell(a), cell(b)))
                    .unwrap_or_default();
                let tag = e
                    .tag
                    .as_ref()
                    .map(|(a, b)| {
                        let t = |x: &Option<String>| {
                            x.as_deref().map(cell).unwrap_or_else(|| "none".into())
                        };
                        format!("{} → {}", t(a), t(b))
                    })
                    .unwrap_or_default();
                let mut also = cell(&e.other.join(", "));
                if e.shared > 0 {
                    if !also.is_empty() {
                        also.push_str("; ");
                    }
                    also.push_str("shared changes below");
                }
                let _ = writeln!(
                    out,
                    "| {} | {price} | {tag} | {also} |",
                    car_link(&e.name, &e.url),
                );
            }
            more(&mut out, r.edited.len());
            out.push('\n');
        }
        if !r.shared.is_empty() {
            let _ = writeln!(out, "**Shared changes** (the same on several car pages)\n");
            for g in r.shared.iter().take(MAX_ROWS) {
                shared(&mut out, g);
            }
            more(&mut out, r.shared.len());
            out.push('\n');
        }
    }

    if !r.feeds.is_empty() {
        let _ = writeln!(out, "### Ads feeds\n");
        for f in &r.feeds {
            feed(&mut out, f);
        }
    }

    for (section, changes) in &r.sections {
        if changes.is_empty() {
            continue;
        }
        let _ = writeln!(out, "### {}\n", section.title());
        for c in changes.iter().take(MAX_ROWS) {
            let _ = writeln!(out, "- {}", change(c));
        }
        more(&mut out, changes.len());
        out.push('\n');
    }
    out
}

/// One ads feed: its rows before and after, then the rows added, removed
/// (with why) and changed (which columns, how many rows each).
fn feed(out: &mut String, f: &FeedChange) {
    let rows = |n: Option<usize>| match n {
        Some(n) => format!("{n} rows"),
        None => "not published".into(),
    };
    let _ = writeln!(
        out,
        "**{}** (`/feeds/{}`): {} → {}.\n",
        f.title,
        f.file,
        rows(f.rows.0),
        rows(f.rows.1)
    );
    if !f.added.is_empty() {
        let _ = writeln!(out, "Rows added ({}):\n", f.added.len());
        let _ = writeln!(out, "| Car | Vehicle id |");
        let _ = writeln!(out, "|---|---|");
        for a in f.added.iter().take(MAX_ROWS) {
            let _ = writeln!(out, "| {} | {} |", car_link(&a.name, &a.url), cell(&a.id));
        }
        more(out, f.added.len());
        out.push('\n');
    }
    if !f.removed.is_empty() {
        let _ = writeln!(out, "Rows removed ({}):\n", f.removed.len());
        let _ = writeln!(out, "| Car | Vehicle id | Why it is left out now |");
        let _ = writeln!(out, "|---|---|---|");
        for r in f.removed.iter().take(MAX_ROWS) {
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                car_link(&r.name, &r.url),
                cell(&r.id),
                cell(r.why.as_deref().unwrap_or(""))
            );
        }
        more(out, f.removed.len());
        out.push('\n');
    }
    if !f.changed.is_empty() {
        let columns: Vec<String> = f
            .columns()
            .iter()
            .map(|(c, n)| format!("`{}` ({n})", code_safe(c)))
            .collect();
        let _ = writeln!(
            out,
            "Rows changed ({}); columns: {}.\n",
            f.changed.len(),
            columns.join(", ")
        );
        let _ = writeln!(out, "| Car | Changed cells |");
        let _ = writeln!(out, "|---|---|");
        for e in f.changed.iter().take(MAX_ROWS) {
            let cells: Vec<String> = e
                .cells
                .iter()
                .take(MAX_SHARED_LINES)
                .map(|(c, a, b)| {
                    let (a, b) = differing(a, b);
                    format!("`{}`: {} → {}", code_safe(c), feed_cell(&a), feed_cell(&b))
                })
                .collect();
            let rest = e.cells.len().saturating_sub(MAX_SHARED_LINES);
            let tail = if rest > 0 {
                format!("; and {rest} more")
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "| {} | {}{tail} |",
                car_link(&e.name, &e.url),
                cell(&cells.join("; "))
            );
        }
        more(out, f.changed.len());
        out.push('\n');
    }
}

/// Two long cells from a little before where they first differ (a link
/// whose tracking parameter changed reads as its end, not its start).
fn differing(a: &str, b: &str) -> (String, String) {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let same = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let from = same.saturating_sub(20);
    let part = |v: &[char]| {
        let tail: String = v[from.min(v.len())..].iter().collect();
        if from > 0 {
            format!("…{tail}")
        } else {
            tail
        }
    };
    (part(&a), part(&b))
}

/// A feed cell in one line: cut, in backticks ("none" when empty).
fn feed_cell(s: &str) -> String {
    if s.is_empty() {
        return "none".into();
    }
    format!("`{}`", code_safe(&cut(s, 80)))
}

fn list(out: &mut String, what: &str, items: &[String]) {
    if items.is_empty() {
        return;
    }
    let shown: Vec<String> = items
        .iter()
        .take(MAX_ROWS)
        .map(|p| format!("`{}`", code_safe(p)))
        .collect();
    let rest = items.len().saturating_sub(MAX_ROWS);
    let tail = if rest > 0 {
        format!(" and {rest} more")
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "- {what} ({}): {}{tail}",
        items.len(),
        shown.join(", ")
    );
}

fn moves(out: &mut String, title: &str, why: &str, cars: &[CarMove]) {
    if cars.is_empty() {
        return;
    }
    let _ = writeln!(out, "**{title}**\n");
    let _ = writeln!(out, "| Car | Stock no. | {why} |");
    let _ = writeln!(out, "|---|---|---|");
    for c in cars.iter().take(MAX_ROWS) {
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            car_link(&c.name, &c.url),
            cell(c.stocknum.as_deref().unwrap_or("")),
            cell(&c.reason)
        );
    }
    more(out, cars.len());
    out.push('\n');
}

/// One shared change: how many car pages, what changed on them, the
/// setting it comes from, and a few of the cars.
fn shared(out: &mut String, g: &SharedChange) {
    let what: Vec<String> = g
        .changes
        .iter()
        .take(MAX_SHARED_LINES)
        .map(change)
        .collect();
    let rest = g.changes.len().saturating_sub(MAX_SHARED_LINES);
    let why = g.reason.map(|r| format!(" ({r})")).unwrap_or_default();
    let mut line = format!("- **{} car pages**{why}: {}", g.cars.len(), what.join("; "));
    if rest > 0 {
        let _ = write!(line, "; and {rest} more field(s)");
    }
    if !g.settings.is_empty() {
        let names: Vec<String> = g
            .settings
            .iter()
            .map(|p| format!("`{}`", code_safe(p)))
            .collect();
        let _ = write!(line, ". From the setting {}", names.join(", "));
    }
    let examples: Vec<String> = g
        .cars
        .iter()
        .take(EXAMPLES)
        .map(|(name, url)| car_link(name, url))
        .collect();
    let _ = write!(line, ". For example {}", examples.join(", "));
    if g.cars.len() > EXAMPLES {
        let _ = write!(line, " and {} more", g.cars.len() - EXAMPLES);
    }
    let _ = writeln!(out, "{line}.");
}

fn more(out: &mut String, total: usize) {
    if total > MAX_ROWS {
        let _ = writeln!(out, "\n… and {} more.", total - MAX_ROWS);
    }
}

fn change(c: &Change) -> String {
    let path = format!("`{}`", code_safe(&c.path));
    match (&c.old, &c.new) {
        (None, Some(v)) => format!("{path} added: {}", value(&c.path, v)),
        (Some(v), None) => format!("{path} removed (was {})", value(&c.path, v)),
        (Some(a), Some(b)) => format!("{path}: {} → {}", value(&c.path, a), value(&c.path, b)),
        (None, None) => path,
    }
}

/// A value in one line: times (unix seconds of `*_at` fields) as dates,
/// long values cut.
fn value(path: &str, v: &Value) -> String {
    if path.ends_with("_at") {
        if let Some(t) = v.as_i64().and_then(|s| DateTime::from_timestamp(s, 0)) {
            return format!("`{}`", t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
        }
    }
    let text = serde_json::to_string(v).unwrap_or_default();
    format!("`{}`", code_safe(&cut(&text, 120)))
}

/// The first `max` characters of `text`, with "…" when it is longer.
fn cut(text: &str, max: usize) -> String {
    let mut out: String = text.chars().take(max).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

fn car_link(name: &str, url: &str) -> String {
    if url.is_empty() {
        cell(name)
    } else {
        format!("[{}]({url})", cell(&name.replace(['[', ']'], "")))
    }
}

/// Text in a table cell: no line breaks, no cell separators, no HTML.
fn cell(s: &str) -> String {
    inline(s).replace('|', "\\|")
}

/// Text on one line of Markdown, with dealer text unable to open HTML.
fn inline(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Text inside backticks cannot close them.
fn code_safe(s: &str) -> String {
    s.replace('`', "'").replace(['\n', '\r'], " ")
}
