//! The vehicle ads feeds (`syndication:` in the dealer file): Google's
//! vehicle ads primary feed and Meta's automotive inventory catalogue,
//! made from the cars the site shows (`present::Car`), never from the
//! stock feed again, so an ad cannot show a car or a price the site does
//! not. A car is in a feed when it is on sale on the site, not left out by
//! `syndication.exclude`, of a vehicle type the platform takes, and has
//! every value the platform requires; any other car is named in the build
//! (the stock feed report), with why. docs/behaviour/syndication.md.
//!
//! `google` and `meta` are each platform's columns and words; `cells` is
//! how a value becomes a cell safely.

pub mod cells;
pub mod google;
pub mod meta;

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use dealer_config::model::{CarType, CustomLabel};
use dealer_config::DealerConfig;

use super::stock::money::dollars;
use super::stock::present::{self, Car, CarStatus};

/// An ads platform the site can publish a feed for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Platform {
    Google,
    Meta,
}

impl Platform {
    pub const ALL: [Platform; 2] = [Platform::Google, Platform::Meta];

    /// The file under the site's `/feeds/`.
    pub fn file(self) -> &'static str {
        match self {
            Platform::Google => "google-vehicle-ads.tsv",
            Platform::Meta => "meta-vehicles.csv",
        }
    }

    /// How messages name the feed.
    pub fn title(self) -> &'static str {
        match self {
            Platform::Google => "Google vehicle ads feed",
            Platform::Meta => "Meta vehicles feed",
        }
    }

    /// The feeds the dealer publishes, in order.
    pub fn published(cfg: &DealerConfig) -> impl Iterator<Item = Platform> + '_ {
        Platform::ALL.into_iter().filter(|p| p.enabled(cfg))
    }

    /// The dealer publishes this feed.
    pub fn enabled(self, cfg: &DealerConfig) -> bool {
        match self {
            Platform::Google => cfg.syndication.google_vehicle_ads.is_some(),
            Platform::Meta => cfg.syndication.meta_vehicles.is_some(),
        }
    }

    /// The feed's column that holds each row's link to the car's page.
    fn link_column(self) -> &'static str {
        match self {
            Platform::Google => "link",
            Platform::Meta => "url",
        }
    }
}

/// Why a car the site shows is not in a feed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Not on sale on the site: "sold", "reserved", "coming soon".
    NotOnSale(&'static str),
    /// `syndication.exclude` leaves it out: the key that did.
    Excluded(&'static str),
    /// The platform does not take this kind of vehicle (the feed's item_type).
    NotAccepted(String),
    /// Values the platform requires that this car lacks, each in words.
    Missing(Vec<String>),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::NotOnSale(why) => write!(f, "not on sale ({why})"),
            Refusal::Excluded(key) => write!(f, "left out by syndication.exclude.{key}"),
            Refusal::NotAccepted(kind) => write!(f, "the platform takes no {kind}s"),
            Refusal::Missing(what) => write!(f, "{}", what.join("; ")),
        }
    }
}

/// What the feeds are made from: the dealer (its `site_url` is the
/// links' address) and the instant the stock was judged at.
pub struct Context<'a> {
    pub cfg: &'a DealerConfig,
    pub now: DateTime<Utc>,
}

impl Context<'_> {
    /// `site_url`, without a trailing slash.
    fn base_url(&self) -> &str {
        self.cfg.site_url.trim_end_matches('/')
    }

    /// The car's page, as the site links it.
    pub fn page_path(&self, car: &Car) -> String {
        format!("/cars/{}/", car.slug)
    }

    /// The car's page with the feed's tracking parameters.
    fn link(&self, car: &Car, utm: &dealer_config::model::Utm) -> String {
        let mut url = format!("{}{}", self.base_url(), self.page_path(car));
        let params: Vec<String> = [
            ("utm_source", &utm.source),
            ("utm_medium", &utm.medium),
            ("utm_campaign", &utm.campaign),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}={v}")))
        .collect();
        if !params.is_empty() {
            url.push('?');
            url.push_str(&params.join("&"));
        }
        url
    }

    /// A photo's address as the car's page resolves it (the structured
    /// data's `image`, `lib/seo.ts`): relative to the site.
    fn image(&self, src: &str) -> String {
        let abs = if src.starts_with("https://") || src.starts_with("http://") {
            src.to_string()
        } else if let Some(rest) = src.strip_prefix("//") {
            format!("https://{rest}")
        } else if src.starts_with('/') {
            format!("{}{src}", self.base_url())
        } else {
            format!("{}/{src}", self.base_url())
        };
        // A comma separates repeated image links; a space ends nothing but
        // is no URL character.
        abs.replace(',', "%2C").replace(' ', "%20")
    }

    /// The dealer's location the car is at (the primary one when the car names none).
    fn location(&self, car: &Car) -> Option<&dealer_config::model::Location> {
        self.cfg.locations.iter().find(|l| l.id == car.location.id)
    }

    /// The price the car's page shows, in whole dollars, when it shows one
    /// (not a weekly price, PREORDER or the dealer's no-price text).
    fn shown_price(&self, car: &Car) -> Option<i64> {
        (car.price > 0.0 && car.price_text == dollars(car.price)).then(|| car.price.round() as i64)
    }

    /// What one custom label says of a car.
    fn label(&self, label: CustomLabel, car: &Car) -> String {
        match label {
            CustomLabel::CarType => car.car_type.as_str().to_string(),
            CustomLabel::Location => car.location.id.clone(),
            CustomLabel::Make => car.make.clone(),
            CustomLabel::Tag => car.tag.clone().unwrap_or_default(),
            CustomLabel::DaysListed => {
                let days = present::parse_time(&car.created_at)
                    .map(|t| (self.now - t).num_days().max(0))
                    .unwrap_or(0);
                match days {
                    0..=30 => "0-30 days",
                    31..=60 => "31-60 days",
                    61..=90 => "61-90 days",
                    _ => "90+ days",
                }
                .to_string()
            }
            CustomLabel::PriceBand => match car.price {
                p if p < 20_000.0 => "under 20k",
                p if p < 40_000.0 => "20k-40k",
                p if p < 60_000.0 => "40k-60k",
                _ => "60k+",
            }
            .to_string(),
        }
    }

    fn labels(&self, car: &Car) -> Vec<String> {
        self.cfg
            .syndication
            .custom_labels
            .iter()
            .map(|l| cells::text(&self.label(*l, car)))
            .collect()
    }
}

/// The site's own decision first: a car the page shows as sold, reserved
/// or not yet arrived is not advertised; then the dealer's exclusions.
fn on_sale(car: &Car, cfg: &DealerConfig) -> Result<(), Refusal> {
    match car.status {
        CarStatus::Sold => return Err(Refusal::NotOnSale("sold")),
        CarStatus::ComingSoon => return Err(Refusal::NotOnSale("coming soon")),
        CarStatus::InStock => {}
    }
    if car.reserved {
        return Err(Refusal::NotOnSale("reserved"));
    }
    let ex = &cfg.syndication.exclude;
    if ex.makes.iter().any(|m| m.eq_ignore_ascii_case(&car.make)) {
        return Err(Refusal::Excluded("makes"));
    }
    if ex.car_types.contains(&car.car_type) {
        return Err(Refusal::Excluded("car_types"));
    }
    if car
        .stocknum
        .as_deref()
        .is_some_and(|s| ex.stock_numbers.iter().any(|x| x.eq_ignore_ascii_case(s)))
    {
        return Err(Refusal::Excluded("stock_numbers"));
    }
    Ok(())
}

/// Whether `car` is in `platform`'s feed, and if not, why.
pub fn judge(platform: Platform, car: &Car, cx: &Context) -> Result<(), Refusal> {
    on_sale(car, cx.cfg)?;
    let kind = car
        .item_type
        .as_deref()
        .unwrap_or("car")
        .to_ascii_lowercase();
    if kind != "car" {
        // Google vehicle ads take passenger cars and utes (no RVs, trucks,
        // boats); Meta's body styles and vehicle fields are a car's too.
        return Err(Refusal::NotAccepted(kind));
    }
    let mut missing = Vec::new();
    if cx.shown_price(car).is_none() {
        missing.push(format!(
            "its page shows no price (\"{}\"); the feed needs the price the page shows",
            car.price_text
        ));
    }
    if !car.vin.as_deref().is_some_and(is_vin) {
        missing.push(match &car.vin {
            Some(v) => format!(
                "VIN `{v}` is not a VIN: 17 digits and capital letters other than I, O and Q"
            ),
            None => "no VIN".into(),
        });
    }
    if car.images.is_empty() {
        missing.push("no photo".into());
    }
    if car.colour.as_deref().is_none_or(|c| c.trim().is_empty()) {
        missing.push("no colour".into());
    }
    match platform {
        Platform::Google => google::requirements(car, cx, &mut missing),
        Platform::Meta => meta::requirements(car, cx, &mut missing),
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(Refusal::Missing(missing))
    }
}

/// A VIN both platforms take: 17 characters, letters (not I, O or Q) and digits.
fn is_vin(vin: &str) -> bool {
    vin.len() == 17
        && vin
            .chars()
            .all(|c| c.is_ascii_digit() || (c.is_ascii_uppercase() && !"IOQ".contains(c)))
}

/// The condition words: a demo car is registered, so it is used.
fn is_new(car: &Car) -> bool {
    car.car_type == CarType::New
}

/// One feed as the release publishes it under `/feeds/`.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedFile {
    pub platform: Platform,
    /// File name under `/feeds/`.
    pub name: &'static str,
    pub text: String,
    /// The site path of every row's car page, in row order.
    pub pages: Vec<String>,
    /// Every car given to the feed that is not a row, by feed id: why
    /// (`Refusal`'s words), for `dealergen diff`.
    pub left_out: BTreeMap<String, String>,
}

/// The dealer's feeds and what the build says of them.
#[derive(Debug, Default)]
pub struct Feeds {
    pub files: Vec<FeedFile>,
    /// One line per car left out for a missing value, then one summary
    /// line per feed (the stock feed report and the build's warnings).
    pub lines: Vec<String>,
}

/// Every feed the dealer publishes, from the cars the site shows.
pub fn build(cars: &[Car], cx: &Context) -> Feeds {
    let mut out = Feeds::default();
    for platform in Platform::published(cx.cfg) {
        let mut rows = Vec::new();
        let mut pages = Vec::new();
        let mut left_out = BTreeMap::new();
        let mut left: BTreeMap<String, usize> = BTreeMap::new();
        let mut missing = 0;
        for car in cars {
            let refusal = match judge(platform, car, cx) {
                Ok(()) => {
                    rows.push(car);
                    pages.push(cx.page_path(car));
                    continue;
                }
                Err(r) => r,
            };
            match &refusal {
                Refusal::Missing(what) => {
                    missing += 1;
                    out.lines.push(format!(
                        "{}: left out of the {}: {}",
                        car_name(car),
                        platform.title(),
                        what.join("; ")
                    ));
                }
                other => *left.entry(summary_word(other)).or_default() += 1,
            }
            left_out.insert(car.id.clone(), refusal.to_string());
        }
        let text = match platform {
            Platform::Google => google::render(&rows, cx),
            Platform::Meta => meta::render(&rows, cx),
        };
        let mut parts: Vec<String> = left.iter().map(|(w, n)| format!("{n} {w}")).collect();
        if missing > 0 {
            parts.push(format!("{missing} for a missing value (listed above)"));
        }
        out.lines.push(format!(
            "{}: {} car(s){}",
            platform.title(),
            rows.len(),
            if parts.is_empty() {
                String::new()
            } else {
                format!("; left out: {}", parts.join(", "))
            }
        ));
        out.files.push(FeedFile {
            platform,
            name: platform.file(),
            text,
            pages,
            left_out,
        });
    }
    out
}

fn summary_word(r: &Refusal) -> String {
    match r {
        Refusal::NotOnSale(why) => (*why).to_string(),
        Refusal::Excluded(key) => format!("by syndication.exclude.{key}"),
        Refusal::NotAccepted(kind) => {
            format!("{kind}(s): the platform takes passenger cars and utes only")
        }
        Refusal::Missing(_) => "for a missing value".into(),
    }
}

/// How the report names a car: its stock number and slug.
fn car_name(car: &Car) -> String {
    match &car.stocknum {
        Some(s) => format!("stock number {s} (slug {})", car.slug),
        None => format!("car {} (slug {})", car.id, car.slug),
    }
}

/// The rows of a feed file, each a map from column to cell, keyed by the
/// row's vehicle id (for `dealergen diff` and the tests).
pub fn parse_rows(platform: Platform, text: &str) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut lines = match platform {
        Platform::Google => text
            .lines()
            .map(|l| l.split('\t').map(String::from).collect::<Vec<_>>())
            .collect::<Vec<_>>(),
        Platform::Meta => parse_csv(text),
    }
    .into_iter();
    let Some(header) = lines.next() else {
        return BTreeMap::new();
    };
    lines
        .map(|cells| {
            let row: BTreeMap<String, String> = header.iter().cloned().zip(cells).collect();
            let id = row
                .get(match platform {
                    Platform::Google => "id",
                    Platform::Meta => "vehicle_id",
                })
                .cloned()
                .unwrap_or_default();
            (id, row)
        })
        .collect()
}

/// The link column of a parsed row.
pub fn row_link(platform: Platform, row: &BTreeMap<String, String>) -> Option<&str> {
    row.get(platform.link_column()).map(String::as_str)
}

/// RFC 4180 rows (quoted cells, doubled quotes).
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => cell.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut cell)),
            (false, '\n') => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => cell.push(c),
        }
    }
    if !cell.is_empty() || !row.is_empty() {
        row.push(cell);
        rows.push(row);
    }
    rows
}

/// A description both platforms accept: the dealer's comments as text,
/// or the car's facts when it has none.
fn description(car: &Car, max: usize) -> String {
    let text = if car.comment_paragraphs.is_empty() {
        let mut facts = vec![car.name.clone(), format!("{} km", car.km)];
        facts.extend(car.colour.clone());
        facts.extend(car.transmission.clone());
        facts.extend(car.fuel.clone());
        if !car.location.name.is_empty() {
            facts.push(format!("at {}", car.location.name));
        }
        facts.join(", ")
    } else {
        car.comment_paragraphs.join(" ")
    };
    cells::cut(cells::text(&text), max)
}

#[cfg(test)]
mod tests;
