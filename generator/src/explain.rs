//! `dealergen explain`: why one car is, or is not, on a dealer's site. It
//! asks the same functions the build uses (the feed decoder, `stock::judge`
//! over `rules::visibility`, `present::price_choice`/`tag_choice`) and only
//! words their answers; no rule is decided a second time here. The ads
//! feeds likewise: the car as its page presents it, asked of
//! `pipeline::syndication::judge`.

use std::path::Path;

use chrono::{DateTime, Utc};
use dealer_config::DealerConfig;
use dealer_rules::visibility::Hidden;

use crate::pipeline::stock::feed::{Feed, FeedCar, RecordRef};
use crate::pipeline::stock::{self, present, status, Verdict};
use crate::pipeline::syndication::{self, Platform};

/// What became of one feed record that matched the query.
#[derive(Debug, Clone, PartialEq)]
pub struct CarExplanation {
    /// How the record is named in messages (stock number, position, id, slug).
    pub record: String,
    pub site: OnSite,
    /// Fields of this car the feed decoder left out, and other feed
    /// warnings about it (as the build prints them).
    pub feed_warnings: Vec<String>,
    /// Whether the dealer publishes an ads feed (`syndication:`): a car
    /// the site does not show is then said to be in none.
    pub ads_feeds: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum OnSite {
    /// On the site at `url`.
    Shown {
        url: String,
        price: String,
        price_why: &'static str,
        /// The tag banner and why; `None` when no tag rule applies.
        tag: Option<(String, &'static str)>,
        finance: String,
        /// Each ads feed the dealer publishes (`syndication:`): the feed's
        /// title, and Ok when the car is a row of it or why it is not.
        feeds: Vec<(&'static str, Result<(), String>)>,
    },
    /// Decoded, but a rule keeps it off the site.
    Hidden {
        /// The rule's short name ("sold window", "photo rule"...).
        rule: &'static str,
        /// The rule applied to this car's values.
        why: String,
    },
    /// The record is not a car the site can show (missing essentials,
    /// malformed values, a slug used twice): the decoder's skip reason.
    Skipped { why: String },
}

/// Every record of `feed` that `query` names: a stock number (any case),
/// a feed id or a slug. `public` is the site's public folder (local
/// photos that are not there are dropped, as the build drops them).
pub fn explain(
    query: &str,
    feed: &Feed,
    cfg: &DealerConfig,
    now: DateTime<Utc>,
    public: &Path,
) -> Vec<CarExplanation> {
    let q = query.trim();
    let names = |r: &RecordRef| {
        r.stocknum
            .as_deref()
            .is_some_and(|s| s.eq_ignore_ascii_case(q))
            || r.id.as_deref() == Some(q)
            || r.slug.as_deref() == Some(q)
    };
    let rules = stock::visibility_rules(cfg);
    let ads_feeds = Platform::published(cfg).next().is_some();
    let mut out = Vec::new();
    for car in feed.cars.iter().filter(|c| names(&c.record)) {
        let mut feed_warnings: Vec<String> = feed
            .warnings
            .iter()
            .filter(|w| w.record == car.record)
            .map(|w| w.problem.to_string())
            .collect();
        let verdict = stock::judge(car, cfg, &rules, now);
        if verdict == Verdict::Shown {
            if let Some(w) = stock::unknown_location(car, cfg) {
                feed_warnings.push(w.problem.to_string());
            }
        }
        out.push(CarExplanation {
            record: car.record.to_string(),
            site: on_site(car, verdict, cfg, now, public),
            feed_warnings,
            ads_feeds,
        });
    }
    for skipped in feed.skipped.iter().filter(|s| names(&s.record)) {
        out.push(CarExplanation {
            record: skipped.record.to_string(),
            site: OnSite::Skipped {
                why: skipped.reason.clone(),
            },
            feed_warnings: Vec::new(),
            ads_feeds,
        });
    }
    out
}

fn on_site(
    car: &FeedCar,
    verdict: Verdict,
    cfg: &DealerConfig,
    now: DateTime<Utc>,
    public: &Path,
) -> OnSite {
    match verdict {
        Verdict::Shown => {
            let (price, price_why) = present::price_choice(car, cfg);
            OnSite::Shown {
                url: car_url(cfg, &car.slug),
                price,
                price_why: price_why.describe(),
                tag: present::tag_choice(car, cfg, now).map(|(t, why)| (t, why.describe())),
                finance: finance(car, cfg, now),
                feeds: feeds(car, cfg, now, public),
            }
        }
        other => {
            let (rule, why) = hidden_reason(car, other, cfg, now);
            OnSite::Hidden { rule, why }
        }
    }
}

/// A shown car in each ads feed the dealer publishes: the car as the
/// build presents it (its missing local photos dropped first), judged by
/// the function that makes the rows.
fn feeds(
    car: &FeedCar,
    cfg: &DealerConfig,
    now: DateTime<Utc>,
    public: &Path,
) -> Vec<(&'static str, Result<(), String>)> {
    if Platform::published(cfg).next().is_none() {
        return Vec::new();
    }
    let mut car = car.clone();
    stock::photos::drop_missing_local_photos(std::slice::from_mut(&mut car), &cfg.images, public);
    let presented = present::present(&car, cfg, now);
    let cx = syndication::Context { cfg, now };
    Platform::published(cfg)
        .map(|p| {
            let verdict = syndication::judge(p, &presented, &cx).map_err(|r| r.to_string());
            (p.title(), verdict)
        })
        .collect()
}

/// The address of a car's page.
pub fn car_url(cfg: &DealerConfig, slug: &str) -> String {
    format!("{}/cars/{slug}/", cfg.site_url.trim_end_matches('/'))
}

/// The rule that keeps a car off the site: its short name, and the rule
/// applied to the car's values (for a shown car: "shown").
pub fn hidden_reason(
    car: &FeedCar,
    verdict: Verdict,
    cfg: &DealerConfig,
    now: DateTime<Utc>,
) -> (&'static str, String) {
    let s = &cfg.stock;
    match verdict {
        Verdict::Shown => ("shown", "no rule hides it".into()),
        Verdict::OtherDealership { dealer, car: theirs } => (
            "other dealership",
            format!("the feed gives dealership_id {theirs}; this dealer's dealership_id is {dealer}"),
        ),
        Verdict::Hidden(h) => match h {
            Hidden::NotOnWebsite => (
                "hidden flag",
                "the feed sets show_on_dealer_website to false".into(),
            ),
            Hidden::SoldTooLongAgo => (
                "sold window",
                match car.sold_date_timestamp {
                    None => "it is sold and the feed gives no sold_date_timestamp, so it cannot be placed in the window".into(),
                    Some(at) => {
                        let days = (now.timestamp() - at) as f64 / 86_400.0;
                        let date = DateTime::from_timestamp(at, 0)
                            .map(|d| d.format("%Y-%m-%d %H:%M UTC").to_string())
                            .unwrap_or_else(|| at.to_string());
                        format!(
                            "sold on {date}, {days:.1} days before; stock.include_sold_cars_days is {}",
                            s.include_sold_cars_days
                        )
                    }
                },
            ),
            Hidden::NotInStock => (
                "in-stock only",
                format!("its status is {} and stock.in_stock_only is on", car.status),
            ),
            Hidden::UnknownStatus => (
                "status",
                format!("its status `{}` is not in_stock, coming_soon or sold", car.status),
            ),
            Hidden::TooFewPhotos => (
                "photo rule",
                format!(
                    "it has {} photo(s); stock.min_photos is {}",
                    stock::facts(car).photos_count,
                    s.min_photos
                ),
            ),
            Hidden::ExcludedMake => (
                "excluded make",
                format!("{} is in stock.exclude.makes", car.make),
            ),
            Hidden::ExcludedCarType => (
                "excluded car type",
                format!("{} is in stock.exclude.car_types", car.car_type.as_str()),
            ),
            Hidden::ExcludedStockNumber => (
                "excluded stock number",
                format!(
                    "{} is in stock.exclude.stock_numbers",
                    car.stocknum.as_deref().unwrap_or_default()
                ),
            ),
        },
    }
}

/// Whether the car page shows finance figures, and why.
///
/// The dealer-wide switch is settled here: `finance.enabled: false` turns
/// finance off on every car page (the site data's `finance_quote` is that
/// field). For a dealer with finance on, the car page's own lender decision
/// (`rules/src/finance_display.rs`) is made once and worded here.
pub fn finance(car: &FeedCar, cfg: &DealerConfig, now: DateTime<Utc>) -> String {
    use dealer_rules::finance_display::Hidden;
    if !cfg.finance.enabled {
        return "not shown: finance.enabled is false, so no car page shows finance figures".into();
    }
    // The car page's own decision (stock::finance::car_finance, the rule of
    // rules/src/finance_display.rs), so the explanation cannot drift from it.
    let price = present::current_price(car).unwrap_or(0.0);
    let in_stock = status::is_in_stock(&car.status);
    let rules = crate::pipeline::stock::finance::display_rules(cfg, now);
    let decision = crate::pipeline::stock::finance::decision(car, price, in_stock, &rules);
    let shown =
        crate::pipeline::stock::finance::finance_for(car, price, in_stock, decision.clone(), cfg);
    if let Some(l) = &shown.lender {
        let who = l
            .lender_name
            .as_deref()
            .unwrap_or("the dealer's own figures");
        return format!(
            "shown: {} (comparison rate {}) from {who}, the first of finance.providers whose entry meets its conditions",
            l.interest_rate_text, l.comparison_rate_text
        );
    }
    let why = match decision {
        Ok(_) => "the lender figures are shown".to_string(),
        Err(Hidden::Disabled) => "finance is off".into(),
        Err(Hidden::ExcludedMake) => {
            format!(
                "{} is in finance.excluded_makes (or is the excluded manufacturer)",
                car.make
            )
        }
        Err(Hidden::NoLender) => "no lender entry in the feed for any of finance.providers".into(),
        Err(Hidden::RatesMissing(p)) => format!(
            "the {} entry lacks its interest or comparison rate",
            p.feed_key()
        ),
        Err(Hidden::NotInStock(p)) => format!("{} shows cars in stock only", p.feed_key()),
        Err(Hidden::PriceTooLow(p)) => format!("the price is below {}'s minimum", p.feed_key()),
        Err(Hidden::TooOld(p)) => format!("the car is too old for {}", p.feed_key()),
        Err(Hidden::NoWeeklyPayment(p)) => {
            format!("the {} entry has no weekly repayment", p.feed_key())
        }
        Err(Hidden::NoMonthlyPayment(p)) => {
            format!("the {} entry has no monthly repayment", p.feed_key())
        }
    };
    let then = if shown.quote {
        "; the page asks the quote service (finance.quote_provider) instead"
    } else {
        ""
    };
    format!("no lender figures: {why}{then}")
}

/// The explanation as the terminal shows it.
pub fn render(
    slug: &str,
    query: &str,
    found: &[CarExplanation],
    records: usize,
    now: DateTime<Utc>,
) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let at = now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    if found.is_empty() {
        let _ = writeln!(
            out,
            "{slug}: no car `{query}` in the stock feed ({records} record(s)): not a stock number, id or slug of any record"
        );
        return out;
    }
    let _ = writeln!(out, "{slug}: car `{query}`, judged at {at}");
    for car in found {
        let _ = writeln!(out, "\n{}", car.record);
        match &car.site {
            OnSite::Shown {
                url,
                price,
                price_why,
                tag,
                finance,
                feeds,
            } => {
                let _ = writeln!(out, "  on the site: yes, {url}");
                let _ = writeln!(out, "  price:   \"{price}\", {price_why}");
                match tag {
                    Some((t, why)) => {
                        let _ = writeln!(out, "  tag:     \"{t}\", {why}");
                    }
                    None => {
                        let _ = writeln!(
                            out,
                            "  tag:     none; it is not sold, reserved, certified, tagged in the feed, coming soon or a new arrival"
                        );
                    }
                }
                let _ = writeln!(out, "  finance: {finance}");
                for (feed, verdict) in feeds {
                    let _ = match verdict {
                        Ok(()) => writeln!(out, "  ads:     in the {feed}"),
                        Err(why) => writeln!(out, "  ads:     not in the {feed}: {why}"),
                    };
                }
            }
            OnSite::Hidden { rule, why } => {
                let _ = writeln!(out, "  on the site: no");
                let _ = writeln!(out, "  rule:    {rule}");
                let _ = writeln!(out, "  why:     {why}");
            }
            OnSite::Skipped { why } => {
                let _ = writeln!(out, "  on the site: no");
                let _ = writeln!(
                    out,
                    "  rule:    malformed record (skipped by the feed decoder)"
                );
                let _ = writeln!(out, "  why:     {why}");
            }
        }
        if car.ads_feeds && !matches!(car.site, OnSite::Shown { .. }) {
            let _ = writeln!(
                out,
                "  ads:     in no ads feed: the feeds carry only cars the site shows"
            );
        }
        for w in &car.feed_warnings {
            let _ = writeln!(out, "  feed:    {w}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn config(stock: serde_json::Value) -> DealerConfig {
        serde_json::from_value(json!({
            "template": "t", "name": "Demo", "site_url": "https://www.demo.com.au",
            "contact": {"phone": "07 3000 0000", "email": "a@demo.com.au"},
            "stock": stock, "locations": [],
        }))
        .unwrap()
    }

    fn feed() -> Feed {
        let car = |id: u32, stocknum: &str, car_type: &str| {
            json!({"id": id, "slug": format!("c-{id}"), "stocknum": stocknum, "make": "Kia", "model": "Rio",
                   "year": 2022, "car_type": car_type, "status": "in_stock", "photos_count": 5, "price": 15000})
        };
        let text = json!([
            car(1, "AB1", "used"),
            car(2, "AB2", "demo"),
            car(3, "AB3", "used")
        ]);
        crate::pipeline::stock::feed::parse(&text.to_string(), "f.json").unwrap()
    }

    fn site(q: &str, cfg: &DealerConfig) -> OnSite {
        let found = explain(q, &feed(), cfg, Utc::now(), Path::new("/nonexistent"));
        assert_eq!(found.len(), 1, "{q}: {found:?}");
        found[0].site.clone()
    }

    #[test]
    fn exclusions_are_named_with_the_value_and_the_field() {
        let cfg = config(
            json!({"feed": "f.json", "exclude": {"car_types": ["demo"], "stock_numbers": ["ab3"]}}),
        );
        assert_eq!(
            site("AB2", &cfg),
            OnSite::Hidden {
                rule: "excluded car type",
                why: "demo is in stock.exclude.car_types".into()
            }
        );
        assert_eq!(
            site("ab3", &cfg),
            OnSite::Hidden {
                rule: "excluded stock number",
                why: "AB3 is in stock.exclude.stock_numbers".into()
            }
        );
        let OnSite::Shown { url, price, .. } = site("c-1", &cfg) else {
            panic!("car 1 is shown")
        };
        assert_eq!(url, "https://www.demo.com.au/cars/c-1/");
        assert_eq!(price, "$15,000");
    }

    #[test]
    fn finance_switched_off_for_the_dealer_is_named() {
        let mut cfg = config(json!({"feed": "f.json"}));
        cfg.finance.enabled = false;
        let OnSite::Shown { finance, .. } = site("1", &cfg) else {
            panic!("car 1 is shown")
        };
        assert_eq!(
            finance,
            "not shown: finance.enabled is false, so no car page shows finance figures"
        );
        cfg.finance.enabled = true;
        let OnSite::Shown { finance, .. } = site("1", &cfg) else {
            panic!("car 1 is shown")
        };
        assert!(finance.starts_with("no lender figures:"), "{finance}");
    }

    #[test]
    fn in_stock_only_and_unknown_queries() {
        let cfg = config(json!({"feed": "f.json", "in_stock_only": true}));
        assert!(matches!(site("1", &cfg), OnSite::Shown { .. }));
        assert!(explain("ZZ9", &feed(), &cfg, Utc::now(), Path::new("/nonexistent")).is_empty());
        let text = render("demo", "ZZ9", &[], 3, Utc::now());
        assert!(
            text.contains("no car `ZZ9` in the stock feed (3 record(s))"),
            "{text}"
        );
    }
}
