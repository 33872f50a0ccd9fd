//! Rules the types cannot express: time zones that exist, opening hours,
//! date windows in order, unique ids, links that go somewhere, files that
//! exist. Each problem points at the value through its key path.

use std::collections::HashMap;
use std::path::Path;
use std::str::FromStr;

use chrono::{Datelike, NaiveDate, NaiveDateTime, Weekday};

use dealer_rules::contact;

use crate::diagnostic::Problem;
use crate::hours::parse_day;
use crate::model::*;
use crate::yaml::Node;

use super::{closest, span_at, KeyPath};

/// Parts of the config the rules must not look at, because the structural
/// check already found problems there (their values are placeholders), and
/// where each kept location stood in the file.
#[derive(Debug, Clone, Default)]
pub struct Skip {
    /// Top-level keys with structural problems.
    pub sections: std::collections::HashSet<String>,
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

struct Ctx<'a> {
    tree: &'a Node,
    out: Vec<Problem>,
    skip: &'a Skip,
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
}

fn root() -> KeyPath {
    KeyPath::default()
}

/// Runs every rule; `dealer_dir` is the folder of the dealer file (the stock
/// feed path is relative to it).
pub fn check(cfg: &DealerConfig, tree: &Node, dealer_dir: &Path, skip: &Skip) -> Vec<Problem> {
    let mut cx = Ctx {
        tree,
        out: Vec::new(),
        skip,
    };
    check_identity(cfg, &mut cx);
    if skip.ok("stock") {
        check_stock(cfg, dealer_dir, &mut cx);
    }
    if skip.ok("theme") {
        check_theme(&cfg.theme, &mut cx);
    }
    check_locations(&cfg.locations, &mut cx);
    if skip.ok("search") {
        check_search(&cfg.search, &mut cx);
    }
    check_links(cfg, &mut cx);
    check_offers(cfg, &mut cx);
    if skip.ok("finance") {
        check_finance(&cfg.finance, &mut cx);
    }
    cx.out
}

fn check_identity(cfg: &DealerConfig, cx: &mut Ctx) {
    if cx.skip.ok("timezone") && chrono_tz::Tz::from_str(&cfg.timezone).is_err() {
        let hint = closest(
            &cfg.timezone,
            chrono_tz::TZ_VARIANTS.iter().map(|t| t.name()),
        )
        .map(|s| format!("did you mean `{s}`?"))
        .unwrap_or_else(|| {
            "use an IANA name such as Australia/Brisbane, Australia/Sydney or Australia/Perth"
                .into()
        });
        cx.err(
            &root().key("timezone"),
            format!("time zone `{}` does not exist", cfg.timezone),
        )
        .hint = Some(hint);
    }
    if cx.skip.ok("site_url") {
        check_origin(&cfg.site_url, &root().key("site_url"), cx);
    }
    if cx.skip.ok("edge") {
        for (i, o) in cfg.edge.extra_origins.iter().enumerate() {
            check_origin(o, &root().key("edge").key("extra_origins").index(i), cx);
        }
        if !cfg.edge.api_base.is_empty() {
            check_origin(&cfg.edge.api_base, &root().key("edge").key("api_base"), cx);
        }
    }
    if cx.skip.ok("contact") {
        if !contact::is_valid_email(&cfg.contact.email) {
            cx.err(
                &root().key("contact").key("email"),
                format!("`{}` is not an e-mail address", cfg.contact.email),
            );
        }
        check_phone(&cfg.contact.phone, &root().key("contact").key("phone"), cx);
    }
    if cx.skip.ok("leads") {
        if let Some(v) = &cfg.leads.email {
            if !contact::is_valid_email(v) {
                cx.err(
                    &root().key("leads").key("email"),
                    format!("`{v}` is not an e-mail address"),
                );
            }
        }
        if let Some(url) = &cfg.leads.webhook_url {
            if !url.starts_with("https://") {
                cx.err(
                    &root().key("leads").key("webhook_url"),
                    "the lead webhook must be an https:// URL",
                )
                .hint = Some("leads carry personal details; they only travel encrypted".into());
            }
        }
    }
    let routes: &[String] = if cx.skip.ok("gated_routes") {
        &cfg.gated_routes
    } else {
        &[]
    };
    for (i, route) in routes.iter().enumerate() {
        if !route.starts_with('/') {
            cx.err(
                &root().key("gated_routes").index(i),
                format!("`{route}` is not a site path"),
            )
            .hint = Some(
                "gated routes are paths starting with /, e.g. /finance or /cars/{slug}/checkout"
                    .into(),
            );
        }
    }
}

fn check_origin(url: &str, path: &KeyPath, cx: &mut Ctx) {
    let ok_scheme = url.starts_with("https://")
        || url.starts_with("http://localhost")
        || url.starts_with("http://127.0.0.1");
    let host = url.split("://").nth(1).unwrap_or("");
    if !ok_scheme || host.is_empty() || host.contains('/') && !host.ends_with('/') {
        cx.err(path, format!("`{url}` is not a site address"))
            .expected = Some("an origin like https://www.example.com.au (no path)".into());
    } else if url.ends_with('/') {
        cx.err(path, format!("`{url}` ends with a slash")).hint =
            Some(format!("write `{}`", url.trim_end_matches('/')));
    }
}

fn check_phone(phone: &str, path: &KeyPath, cx: &mut Ctx) {
    // The lead forms' own parser (rules::contact), plus the 13/1300/1800
    // numbers a dealer may publish but a shopper never types as their own.
    let ok = contact::parse_au_phone(phone).is_some() || contact::is_au_service_number(phone);
    if !ok {
        cx.err(path, format!("`{phone}` is not an Australian phone number"))
            .expected = Some("e.g. (07) 3555 0100, 0412 345 678, 1300 555 010 or 13 22 33".into());
    }
}

fn check_stock(cfg: &DealerConfig, dealer_dir: &Path, cx: &mut Ctx) {
    let feed = dealer_dir.join(&cfg.stock.feed);
    if !feed.is_file() {
        cx.err(
            &root().key("stock").key("feed"),
            format!("stock feed `{}` does not exist", cfg.stock.feed),
        )
        .hint = Some(format!(
            "the path is relative to the dealer file's folder; looked for {}",
            feed.display()
        ));
    }
}

fn check_theme(theme: &Theme, cx: &mut Ctx) {
    for (key, value) in [
        ("primary", &theme.primary),
        ("on_primary", &theme.on_primary),
        ("accent", &theme.accent),
        ("background", &theme.background),
        ("text", &theme.text),
    ] {
        let hex = value.strip_prefix('#').unwrap_or("");
        if !(matches!(hex.len(), 3 | 6) && hex.chars().all(|c| c.is_ascii_hexdigit())) {
            cx.err(
                &root().key("theme").key(key),
                format!("`{value}` is not a colour"),
            )
            .expected = Some(
                "a hex colour such as \"#0b3d91\" (in quotes: # starts a YAML comment)".into(),
            );
        }
    }
}

fn check_locations(locations: &[Location], cx: &mut Ctx) {
    let base = root().key("locations");
    let written =
        matches!(cx.tree.get("locations"), Some(Node::Seq(items, _)) if !items.is_empty());
    if locations.is_empty() && !written && cx.skip.ok("locations") {
        cx.err(&base, "a dealer needs at least one location").hint =
            Some("locations hold the address, phone and hours shown on the contact page".into());
    }
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut slugs: HashMap<String, usize> = HashMap::new();
    for (k, loc) in locations.iter().enumerate() {
        let i = cx.skip.location(k);
        let p = base.clone().index(i);
        if let Some(first) = ids.insert(&loc.id, i) {
            cx.err(
                &p.clone().key("id"),
                format!("location id `{}` is used twice", loc.id),
            )
            .hint = Some(format!(
                "locations[{first}] has the same id; ids must be unique"
            ));
        }
        let slug = location_slug(loc);
        if let Some(first) = slugs.insert(slug.clone(), i) {
            cx.err(
                &p.clone().key("name"),
                format!("location page /contact-us/{slug} would be made twice"),
            )
            .hint = Some(format!(
                "locations[{first}] gets the same slug; set `slug` on one of them"
            ));
        }
        check_phone(&loc.phone, &p.clone().key("phone"), cx);
        for (key, v) in [("email", &loc.email), ("lead_email", &loc.lead_email)] {
            if let Some(v) = v {
                if !contact::is_valid_email(v) {
                    cx.err(
                        &p.clone().key(key),
                        format!("`{v}` is not an e-mail address"),
                    );
                }
            }
        }
        let pc = &loc.address.postcode;
        if !contact::is_valid_postcode(pc) {
            cx.err(
                &p.clone().key("address").key("postcode"),
                format!("`{pc}` is not a postcode"),
            )
            .expected = Some("exactly 4 digits, in quotes, e.g. \"4006\"".into());
        }
        if loc
            .address
            .lat
            .is_some_and(|l| !(-45.0..=-9.0).contains(&l))
            || loc
                .address
                .lng
                .is_some_and(|l| !(112.0..=155.0).contains(&l))
        {
            cx.err(
                &p.clone().key("address"),
                "latitude/longitude are outside Australia",
            )
            .hint = Some(
                "latitude is negative in Australia (e.g. -27.45), longitude about 113 to 154"
                    .into(),
            );
        }
        for (dept, week) in [
            ("sales", &loc.hours.sales),
            ("service", &loc.hours.service),
            ("parts", &loc.hours.parts),
        ] {
            let Some(week) = week else { continue };
            for (day, value) in week.days() {
                if let Some(v) = value {
                    if let Err(e) = parse_day(v) {
                        cx.err(
                            &p.clone().key("hours").key(dept).key(day),
                            format!("opening hours: {e}"),
                        )
                        .expected = Some("\"08:30-17:30\" (24-hour) or \"closed\"".into());
                    }
                }
            }
        }
        for (j, sh) in loc.special_hours.iter().enumerate() {
            let sp = p.clone().key("special_hours").index(j);
            if NaiveDate::parse_from_str(&sh.date, "%Y-%m-%d").is_err() {
                cx.err(
                    &sp.clone().key("date"),
                    format!("`{}` is not a date", sh.date),
                )
                .expected = Some("a date like \"2026-12-25\"".into());
            }
            if let Err(e) = parse_day(&sh.hours) {
                cx.err(&sp.clone().key("hours"), format!("special hours: {e}"))
                    .expected = Some("\"09:00-13:00\" or \"closed\"".into());
            }
        }
        if let Some(alt) = &loc.alternate_saturdays {
            let ap = p.clone().key("alternate_saturdays").key("from");
            match NaiveDate::parse_from_str(&alt.from, "%Y-%m-%d") {
                Ok(d) if d.weekday() != Weekday::Sat => {
                    cx.err(
                        &ap,
                        format!("{} is a {:?}, not a Saturday", alt.from, d.weekday()),
                    );
                }
                Ok(_) => {}
                Err(_) => {
                    cx.err(&ap, format!("`{}` is not a date", alt.from))
                        .expected = Some("a Saturday like \"2025-06-14\"".into());
                }
            }
        }
    }
    let primaries = locations.iter().filter(|l| l.primary).count();
    if primaries > 1 {
        let second = locations
            .iter()
            .enumerate()
            .filter(|(_, l)| l.primary)
            .nth(1)
            .map(|(k, _)| cx.skip.location(k))
            .unwrap_or(0);
        cx.err(
            &base.clone().index(second).key("primary"),
            "only one location can be primary",
        );
    }
}

/// /contact-us/{slug}: the explicit slug, else the name without a trailing
/// Sales, Service or Parts (spec 002 §2.4), in kebab case.
pub fn location_slug(loc: &Location) -> String {
    if let Some(s) = &loc.slug {
        return s.clone();
    }
    let mut name = loc.name.trim();
    for suffix in [" Sales", " Service", " Parts"] {
        if let Some(stripped) = name.strip_suffix(suffix) {
            name = stripped.trim_end();
            break;
        }
    }
    kebab(name)
}

/// "Brisbane Motor Group Newstead" → "brisbane-motor-group-newstead".
pub fn kebab(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// "2025-07-01" (whole day from 00:00) or "2025-08-21 08:30".
pub fn parse_moment(s: &str, end_of_day: bool) -> Option<NaiveDateTime> {
    if let Ok(dt) = NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M") {
        return Some(dt);
    }
    let d = NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()?;
    if end_of_day {
        d.and_hms_opt(23, 59, 59)
    } else {
        d.and_hms_opt(0, 0, 0)
    }
}

fn check_window(
    start: &str,
    end: &str,
    path: &KeyPath,
    start_key: &str,
    end_key: &str,
    cx: &mut Ctx,
) {
    let s = parse_moment(start, false);
    let e = parse_moment(end, true);
    for (value, key, parsed) in [(start, start_key, s), (end, end_key, e)] {
        if parsed.is_none() {
            cx.err(&path.clone().key(key), format!("`{value}` is not a date"))
                .expected = Some("\"2025-07-01\" or \"2025-08-21 08:30\" (local time)".into());
        }
    }
    if let (Some(s), Some(e)) = (s, e) {
        if e < s {
            cx.err(
                &path.clone().key(end_key),
                format!("`{end_key}` {end} is before `{start_key}` {start}"),
            )
            .hint = Some("the window would never be open; swap the dates or fix the year".into());
        }
    }
}

fn check_search(search: &SearchConfig, cx: &mut Ctx) {
    let base = root().key("search");
    let mut seen = Vec::new();
    for (i, s) in search.sort_options.iter().enumerate() {
        if seen.contains(s) {
            cx.err(
                &base.clone().key("sort_options").index(i),
                format!("sort option `{}` is listed twice", s.key()),
            );
        }
        seen.push(*s);
    }
    // Two orders on one index name: the URL could not tell them apart.
    let mut names: HashMap<String, SortOption> = HashMap::new();
    for s in &search.sort_options {
        if let Some(other) = names.insert(search.sort_index(*s), *s) {
            // Relevance is the index itself, not a key of sort_replicas.
            let named = if *s == SortOption::Relevance {
                other
            } else {
                *s
            };
            cx.err(
                &base.clone().key("sort_replicas").key(named.key()),
                format!(
                    "sort orders `{}` and `{}` both use the index `{}`",
                    other.key(),
                    s.key(),
                    search.sort_index(*s)
                ),
            )
            .hint = Some("give each sort order its own replica name".into());
        }
    }
    if search.sort_options.is_empty() {
        cx.err(
            &base.clone().key("sort_options"),
            "at least one sort option is needed",
        );
    }
    let mut ids: HashMap<&str, usize> = HashMap::new();
    for (i, tile) in search.promo_tiles.iter().enumerate() {
        let p = base.clone().key("promo_tiles").index(i);
        if ids.insert(&tile.id, i).is_some() {
            cx.err(
                &p.clone().key("id"),
                format!("promo tile id `{}` is used twice", tile.id),
            );
        }
        check_window(&tile.start, &tile.expiry, &p, "start", "expiry", cx);
        if tile.positions.is_empty() || tile.positions.contains(&0) {
            cx.err(
                &p.clone().key("positions"),
                "positions are 1-based result slots, e.g. [8, 17]",
            );
        }
        if let Some(h) = &tile.daily_hours {
            if let Err(e) = parse_day(h) {
                cx.err(&p.clone().key("daily_hours"), format!("daily hours: {e}"))
                    .expected = Some("\"08:30-17:30\"".into());
            }
        }
    }
}

fn check_href(href: &str, path: &KeyPath, cx: &mut Ctx) {
    let ok = href.starts_with('/')
        || href.starts_with("https://")
        || href.starts_with("tel:")
        || href.starts_with("mailto:")
        || href.starts_with('#');
    if !ok {
        let hint = if href.starts_with("http://") {
            "use https:// so the link is not blocked as insecure".to_string()
        } else {
            format!(
                "a site path starts with /, e.g. /{}",
                href.trim_start_matches("./")
            )
        };
        cx.err(path, format!("link `{href}` goes nowhere")).hint = Some(hint);
    }
}

fn check_links(cfg: &DealerConfig, cx: &mut Ctx) {
    let nav: &[NavItem] = if cx.skip.ok("navigation") {
        &cfg.navigation
    } else {
        &[]
    };
    for (i, item) in nav.iter().enumerate() {
        let p = root().key("navigation").index(i);
        match &item.href {
            Some(h) => check_href(h, &p.clone().key("href"), cx),
            None if item.children.is_empty() => {
                cx.err(
                    &p,
                    format!(
                        "menu entry `{}` has neither `href` nor `children`",
                        item.label
                    ),
                );
            }
            None => {}
        }
        for (j, c) in item.children.iter().enumerate() {
            check_href(&c.href, &p.clone().key("children").index(j).key("href"), cx);
        }
    }
    let groups: &[FooterGroup] = if cx.skip.ok("footer") {
        &cfg.footer.groups
    } else {
        &[]
    };
    for (i, g) in groups.iter().enumerate() {
        for (j, l) in g.links.iter().enumerate() {
            check_href(
                &l.href,
                &root()
                    .key("footer")
                    .key("groups")
                    .index(i)
                    .key("links")
                    .index(j)
                    .key("href"),
                cx,
            );
        }
    }
    if cx.skip.ok("home") {
        check_href(&cfg.home.cta_href, &root().key("home").key("cta_href"), cx);
    }
    if cx.skip.ok("sell_your_car") {
        check_href(
            &cfg.sell_your_car.href,
            &root().key("sell_your_car").key("href"),
            cx,
        );
    }
    if let Some(url) = cfg
        .service
        .booking_url
        .as_ref()
        .filter(|_| cx.skip.ok("service"))
    {
        if !url.starts_with("https://") {
            cx.err(
                &root().key("service").key("booking_url"),
                format!("`{url}` is not an https:// link"),
            );
        }
    }
    if !cx.skip.ok("social") {
        return;
    }
    for (key, v) in [
        ("facebook_url", &cfg.social.facebook_url),
        ("instagram_url", &cfg.social.instagram_url),
        ("youtube_url", &cfg.social.youtube_url),
        ("linkedin_url", &cfg.social.linkedin_url),
    ] {
        if let Some(v) = v {
            if !v.starts_with("https://") {
                cx.err(
                    &root().key("social").key(key),
                    format!("`{v}` is not an https:// link"),
                );
            }
        }
    }
}

fn check_offers(cfg: &DealerConfig, cx: &mut Ctx) {
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let offers: &[Offer] = if cx.skip.ok("offers") {
        &cfg.offers
    } else {
        &[]
    };
    for (i, offer) in offers.iter().enumerate() {
        let p = root().key("offers").index(i);
        if ids.insert(&offer.id, i).is_some() {
            cx.err(
                &p.clone().key("id"),
                format!("offer id `{}` is used twice", offer.id),
            );
        }
        if let (Some(s), Some(e)) = (&offer.start, &offer.expiry) {
            check_window(s, e, &p, "start", "expiry", cx);
        } else {
            for (key, v) in [("start", &offer.start), ("expiry", &offer.expiry)] {
                if let Some(v) = v {
                    if parse_moment(v, false).is_none() {
                        cx.err(&p.clone().key(key), format!("`{v}` is not a date"));
                    }
                }
            }
        }
    }
    if let Some(popup) = cfg.popup.as_ref().filter(|_| cx.skip.ok("popup")) {
        if parse_moment(&popup.expiry, true).is_none() {
            cx.err(
                &root().key("popup").key("expiry"),
                format!("`{}` is not a date", popup.expiry),
            );
        }
        check_href(
            &popup.button_href,
            &root().key("popup").key("button_href"),
            cx,
        );
    }
}

fn check_finance(f: &FinanceConfig, cx: &mut Ctx) {
    let c = &f.calculator;
    let p = root().key("finance").key("calculator");
    if c.min_price >= c.max_price {
        cx.err(
            &p.clone().key("max_price"),
            "max_price must be above min_price",
        );
    }
    if c.min_interest_rate >= c.max_interest_rate {
        cx.err(
            &p.clone().key("max_interest_rate"),
            "max_interest_rate must be above min_interest_rate",
        );
    }
    if !(c.min_interest_rate..=c.max_interest_rate).contains(&c.default_interest_rate) {
        cx.err(
            &p.clone().key("default_interest_rate"),
            format!(
                "default rate {}% is outside {}% to {}%",
                c.default_interest_rate, c.min_interest_rate, c.max_interest_rate
            ),
        );
    }
    if !(1.0..=7.0).contains(&c.default_term_years) {
        cx.err(
            &p.clone().key("default_term_years"),
            "loan terms run from 1 to 7 years",
        );
    }
    if let Some(q) = &f.quote_provider {
        if !q.url.starts_with("https://") {
            cx.err(
                &root().key("finance").key("quote_provider").key("url"),
                "the quote provider must be an https:// URL",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn location_slugs_drop_department_suffixes() {
        let mut loc: Location = serde_json::from_value(serde_json::json!({
            "id": "a", "name": "Sunshine Toyota Maroochydore Service", "phone": "(07) 5400 0000",
            "address": {"street": "1 A St", "suburb": "Maroochydore", "state": "QLD", "postcode": "4558"}
        }))
        .unwrap();
        assert_eq!(location_slug(&loc), "sunshine-toyota-maroochydore");
        loc.name = "Newstead Sales".into();
        assert_eq!(location_slug(&loc), "newstead");
        loc.slug = Some("custom".into());
        assert_eq!(location_slug(&loc), "custom");
    }

    #[test]
    fn two_sort_orders_on_one_index_are_refused() {
        let yaml = "search:\n  sort_replicas:\n    price_asc: cars\n    km_asc: cars_latest\n";
        let tree = crate::yaml::parse(yaml, 0).unwrap();
        let mut search: SearchConfig = serde_json::from_value(serde_json::json!({
            "sort_options": ["relevance", "latest", "price_asc", "km_asc"],
            "engine": {"hosted": {"host": "h", "app_id": "a", "index": "cars", "public_key": "k"}},
            "sort_replicas": {"price_asc": "cars", "km_asc": "cars_latest"}
        }))
        .unwrap();
        let skip = Skip::default();
        let run = |search: &SearchConfig| {
            let mut cx = Ctx {
                tree: &tree,
                out: Vec::new(),
                skip: &skip,
            };
            check_search(search, &mut cx);
            cx.out
        };
        let out = run(&search);
        let found: Vec<_> = out
            .iter()
            .map(|p| (p.key.as_str(), p.message.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                (
                    "search.sort_replicas.price_asc",
                    "sort orders `relevance` and `price_asc` both use the index `cars`"
                ),
                (
                    "search.sort_replicas.km_asc",
                    "sort orders `latest` and `km_asc` both use the index `cars_latest`"
                ),
            ]
        );
        assert_eq!(out[0].span.line, 3, "points at the price_asc line");
        search.sort_replicas = SortReplicas::default();
        assert!(run(&search).is_empty());
    }

    #[test]
    fn moments_accept_dates_and_local_times() {
        assert_eq!(
            parse_moment("2025-07-24", true).unwrap().to_string(),
            "2025-07-24 23:59:59"
        );
        assert_eq!(
            parse_moment("2025-08-21 08:30", false).unwrap().to_string(),
            "2025-08-21 08:30:00"
        );
        assert!(parse_moment("21/08/2025", false).is_none());
    }
}
