//! What the vehicle detail page shows beyond a card's facts (docs/behaviour/car-page.md §2,
//! §4, §5, §9; content.md §2.6), decided here at build time so the page only lays
//! it out: which sidebar buttons apply, the below-market and certified
//! badges, key information, equipment, where the comments are cut, the
//! tabs with something to show, the servicing plan of the model, and
//! similar cars. Rules that depend on the shopper's clock or screen (open
//! now, sticky bars, the photo viewer) run in the browser.

use dealer_config::model::{CarType, CardButton, CheckoutPath, DetailTab, TabItem};
use dealer_config::DealerConfig;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::feed::FeedCar;
use super::money::dollars;
use super::status::{is_in_stock, may_reserve_online};

/// Dealer comments longer than this many characters are cut, with Show
/// more (docs/behaviour/search.md §4, §9).
pub const COMMENT_PREVIEW_CHARS: usize = 400;
/// The below-market badge needs the car this many dollars or more under
/// the market average, i.e. more than $499 (docs/behaviour/car-page.md §5, §9).
pub const BELOW_MARKET_MIN: f64 = 499.0;

/// The car page's own content: `Car.detail` in cars.json.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct CarDetail {
    /// The sidebar's buttons that apply to this car, in the dealer's order
    /// (`detail_page.sidebar_buttons`); empty for a car not in stock, whose
    /// SOLD panel offers Find Me Something Similar instead.
    pub sidebar_buttons: Vec<SidebarButton>,
    /// The below-market badge, or null.
    pub below_market: Option<BelowMarket>,
    /// The certified pre-owned badge and its dialog, or null.
    pub certified: Option<CertifiedBadge>,
    /// Key information: engine, economy, towing, dimensions, safety (the
    /// feed's `variant`); rows without a value are dropped.
    pub key_information: Vec<SpecRow>,
    /// Standard equipment, in feed order.
    pub features: Vec<String>,
    /// The dealer comments cut at 400 characters (at a word, with "…"), or
    /// null when they are short enough to show whole.
    pub comment_preview: Option<Vec<String>>,
    /// The tabs that have something to show for this car, in the dealer's order.
    pub tabs: Vec<Tab>,
    /// The capped-price servicing plan of this car's model, or null.
    pub service_advantage: Option<ServiceOffer>,
    /// Up to 8 similar cars in stock (`features.similar_cars`); empty when off.
    pub similar: Vec<SimilarCar>,
    /// The car can be reserved or bought online (checkout on for its type and make, in stock, not reserved, priced).
    pub checkout: bool,
}

/// A sidebar button.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SidebarButton {
    /// Which button (`detail_page.sidebar_buttons`).
    pub kind: CardButton,
    /// Its text, e.g. "Reserve Car Now".
    pub label: String,
    /// Where it goes: a page, the enquiry form with its kind, a tel: link or
    /// the history report; empty for Call Now where the number is masked
    /// (`features.phone_reveal`: the page's reveal button gives it).
    pub href: String,
    /// A line under the button, e.g. "$200 refundable deposit", or null.
    pub note: Option<String>,
    /// Opens in a new tab: the history report (another site's, or a file
    /// on this one; the car page stays to record its event 18).
    pub external: bool,
}

/// The below-market badge (docs/behaviour/car-page.md §5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct BelowMarket {
    /// Dollars under the market average.
    pub amount: f64,
    /// "$1,250 below market average".
    pub text: String,
}

/// The certified pre-owned badge (docs/behaviour/car-page.md §5: make, certified, not sold).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct CertifiedBadge {
    /// "Toyota Certified Pre-Owned".
    pub title: String,
    /// The programme's badge image (`cards.certified_badge_image`), shown
    /// with `title` as its text alternative; null: the title in words.
    pub image: Option<String>,
    /// What the programme gives (`detail_page.certified_benefits`).
    pub benefits: Vec<String>,
}

/// A tab of the detail page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Tab {
    /// Which tab; `dealer_comments` and `features` show the car's own comments and equipment.
    pub kind: DetailTab,
    /// "Dealer Comments", "What's Included", ...
    pub title: String,
    /// The entries of the dealer's tabs (empty for comments and features).
    pub items: Vec<TabEntry>,
}

/// An entry of a tab.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct TabEntry {
    /// Heading.
    pub title: String,
    /// Text under it, may be empty.
    pub text: String,
}

/// The servicing plan of a car's model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ServiceOffer {
    /// "Toyota Service Advantage".
    pub title: String,
    /// "$290".
    pub price_text: String,
    /// Rows of the plan: Price per service, Services, Duration, Service interval.
    pub rows: Vec<SpecRow>,
    /// Terms under the block.
    pub terms: String,
    /// Book a Service: the dealer's booking page (`service.booking_url`), else /genuine-service.
    pub booking_href: String,
    /// The booking page is another site.
    pub booking_external: bool,
}

/// A specification row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SpecRow {
    /// e.g. "Transmission".
    pub label: String,
    /// e.g. "6 Speed Automatic".
    pub value: String,
}

/// A similar car, as the strip under the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SimilarCar {
    /// Its page: /cars/{slug}/.
    pub slug: String,
    /// "2023 Toyota Corolla Ascent Sport".
    pub name: String,
    /// Its price text.
    pub price_text: String,
    /// First photo, or null.
    pub image: Option<String>,
    /// Odometer.
    pub km: u64,
}

/// Checkout (reserve, buy online) for this car: the dealer's checkout rules
/// (`status::may_reserve_online`, the rule the worker holds to,
/// pinned by rules/vectors/checkout.json) and a price to pay a deposit on.
pub fn checkout_allowed(car: &FeedCar, price: f64, cfg: &DealerConfig) -> bool {
    may_reserve_online(car, cfg) && price > 10.0
}

/// Trade-in valuation (docs/behaviour/content.md §4): the rule the search
/// cards share (`dealer_rules::trade_in`, rules/vectors/trade-in.json).
pub fn trade_in_allowed(car: &FeedCar, price: f64, cfg: &DealerConfig) -> bool {
    dealer_rules::trade_in::may_value(
        cfg.features.trade_in,
        &car.status,
        car.reserved.unwrap_or(false),
        price,
    )
}

fn tel(phone: &str) -> String {
    let t = phone.trim();
    let digits: String = t.chars().filter(char::is_ascii_digit).collect();
    format!("tel:{}{digits}", if t.starts_with('+') { "+" } else { "" })
}

/// The sidebar's buttons in the dealer's order, each only where its rule
/// allows (docs/behaviour/car-page.md §5; content.md §2.6). A car not in stock has none.
pub fn sidebar_buttons(
    car: &FeedCar,
    price: f64,
    phone: &str,
    cfg: &DealerConfig,
) -> Vec<SidebarButton> {
    if !is_in_stock(&car.status) {
        return Vec::new();
    }
    let page = format!("/cars/{}/", car.slug);
    let enquiry = |kind: &str| format!("{page}?enquiry={kind}#enquire");
    let checkout = checkout_allowed(car, price, cfg);
    let checkout_href = format!(
        "{page}{}/",
        match cfg.features.checkout.path {
            CheckoutPath::Checkout => "checkout",
            CheckoutPath::BuyOnline => "buy-online",
        }
    );
    let deposit = cfg.features.checkout.deposit;
    // The dealer's wording (`cards.labels`), else the platform's.
    let button = |kind, label: &str, href: String| SidebarButton {
        kind,
        label: cfg.cards.labels.get(kind).unwrap_or(label).into(),
        href,
        note: None,
        external: false,
    };
    let mut out = Vec::new();
    for kind in &cfg.detail_page.sidebar_buttons {
        let b = match kind {
            CardButton::Enquire => Some(button(*kind, "Enquire Now", format!("{page}#enquire"))),
            // Always a new tab, a file on the site too: the car page stays
            // to record its event 18 (a page left at once loses it before
            // the sender has loaded, docs/behaviour/analytics.md), and the
            // shopper keeps the car beside the report.
            CardButton::HistoryReport => car.file.as_ref().map(|file| SidebarButton {
                external: true,
                ..button(*kind, "Car History Report", file.clone())
            }),
            CardButton::Finance => Some(button(*kind, "Get Finance Quote", enquiry("finance"))),
            CardButton::TradeIn => trade_in_allowed(car, price, cfg).then(|| {
                // The trade-in flow's page (docs/behaviour/car-page.md: /cars/trade-in?car_id={id}).
                button(
                    *kind,
                    "Trade-In Valuation",
                    format!(
                        "/cars/trade-in/?{}",
                        url::form_urlencoded::Serializer::new(String::new())
                            .append_pair("car_id", &car.id.to_string())
                            .finish()
                    ),
                )
            }),
            CardButton::Reserve => checkout.then(|| SidebarButton {
                note: (deposit > 0)
                    .then(|| format!("{} refundable deposit", dollars(f64::from(deposit)))),
                ..button(*kind, "Reserve Car Now", checkout_href.clone())
            }),
            CardButton::BuyOnline => {
                checkout.then(|| button(*kind, "Buy Online", checkout_href.clone()))
            }
            // A masked number (`features.phone_reveal`) is given by the
            // page's reveal button, never as a link: no href.
            CardButton::CallDealer => (!phone.trim().is_empty()).then(|| {
                let href = if cfg.features.phone_reveal {
                    String::new()
                } else {
                    tel(phone)
                };
                button(*kind, "Call Now", href)
            }),
            CardButton::TestDrive => {
                Some(button(*kind, "Book a Test Drive", enquiry("test-drive")))
            }
            // The offer form (its dialog or chat, `features.make_offer`, is the form's).
            CardButton::MakeOffer => Some(button(*kind, "Make an Offer", enquiry("offer"))),
            // Refused by the dealer file's check: a car's own page.
            CardButton::ViewDetails => None,
        };
        out.extend(b);
    }
    out
}

/// More than $499 under the market average and under the state average
/// (docs/behaviour/car-page.md §5).
pub fn below_market(car: &FeedCar, price: f64) -> Option<BelowMarket> {
    let average = car.market.average?;
    let state = car.market.state_average?;
    if price <= 10.0 {
        return None;
    }
    let under = average - price;
    (under > BELOW_MARKET_MIN && price < state).then(|| BelowMarket {
        amount: under.round(),
        text: format!("{} below market average", dollars(under)),
    })
}

/// The certified badge: the configured make, certified, not sold (docs/behaviour/car-page.md §5).
/// Independent of the card's tag banner, which a higher-priority tag
/// (Hybrid, Reserved) can take.
pub fn certified(car: &FeedCar, cfg: &DealerConfig) -> Option<CertifiedBadge> {
    let make = cfg.cards.certified_badge_make.as_deref()?;
    (car.certified.unwrap_or(false)
        && is_in_stock(&car.status)
        && car.make.trim().eq_ignore_ascii_case(make.trim()))
    .then(|| CertifiedBadge {
        title: format!("{} Certified Pre-Owned", make.trim()),
        image: cfg.cards.certified_badge_image.clone(),
        benefits: cfg.detail_page.certified_benefits.clone(),
    })
}

/// Key information from the feed's `variant`; empty values are dropped.
pub fn key_information(car: &FeedCar) -> Vec<SpecRow> {
    let v = |key: &str| -> Option<String> {
        match car.variant.as_ref()?.get(key)? {
            serde_json::Value::Number(n) => Some(n.to_string()),
            serde_json::Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
            _ => None,
        }
    };
    let unit = |key: &str, u: &str| v(key).map(|x| format!("{x} {u}"));
    // Litres as written on badges: "2.0 L", not "2 L".
    let litres = match car
        .variant
        .as_ref()
        .and_then(|m| m.get("enginesize_litres"))
    {
        Some(serde_json::Value::Number(n)) => n.as_f64().map(|l| format!("{l:.1} L")),
        _ => unit("enginesize_litres", "L"),
    };
    let engine = litres.or_else(|| unit("enginesize", "cc"));
    let rows = [
        ("Engine size", engine),
        ("Cylinders", v("cylinders")),
        ("Induction", v("induction")),
        ("Torque", unit("torque", "Nm")),
        (
            "Fuel consumption (combined)",
            unit("fuelconsumptioncombined", "L/100km"),
        ),
        ("Fuel tank", unit("fuelcapacity", "L")),
        (
            "Towing capacity (braked)",
            unit("towingcapacitybraked", "kg"),
        ),
        ("Gross vehicle mass", unit("grossvehiclemass", "kg")),
        ("Length", unit("vehiclelength", "mm")),
        ("Width", unit("vehiclewidth", "mm")),
        ("Height", unit("vehicleheight", "mm")),
        ("ANCAP safety rating", unit("ancaprating", "stars")),
        ("Body configuration", v("bodyconfiguration")),
    ];
    rows.into_iter()
        .filter_map(|(label, value)| {
            value.map(|value| SpecRow {
                label: label.into(),
                value,
            })
        })
        .collect()
}

/// The comments cut at [`COMMENT_PREVIEW_CHARS`] characters (paragraph
/// breaks not counted), at the last word that fits, with "…"; None when
/// they fit whole.
pub fn comment_preview(paragraphs: &[String]) -> Option<Vec<String>> {
    let total: usize = paragraphs.iter().map(|p| p.chars().count()).sum();
    if total <= COMMENT_PREVIEW_CHARS {
        return None;
    }
    let mut left = COMMENT_PREVIEW_CHARS;
    let mut out = Vec::new();
    for p in paragraphs {
        let n = p.chars().count();
        if n <= left {
            out.push(p.clone());
            left -= n;
            continue;
        }
        let head: String = p.chars().take(left).collect();
        // Cut at a word: the next character is not part of the last word.
        let next_is_space = p.chars().nth(left).is_some_and(char::is_whitespace);
        let cut = if next_is_space {
            head.trim_end().to_string()
        } else {
            match head.rfind(char::is_whitespace) {
                Some(i) => head[..i].trim_end().to_string(),
                None => String::new(),
            }
        };
        let cut = cut.trim_end_matches([',', ';', ':', '.', '-']).to_string();
        if !cut.is_empty() {
            out.push(format!("{cut}…"));
        } else if let Some(last) = out.last_mut() {
            last.push('…');
        }
        break;
    }
    Some(out)
}

fn entries(items: &[TabItem], car_type: CarType) -> Vec<TabEntry> {
    items
        .iter()
        .filter(|i| i.car_types.is_empty() || i.car_types.contains(&car_type))
        .map(|i| TabEntry {
            title: i.title.clone(),
            text: i.text.clone(),
        })
        .collect()
}

/// The tabs with something to show, in the dealer's order. Dealer comments
/// always show (the pending text when there are none).
pub fn tabs(car: &FeedCar, features: &[String], checkout: bool, cfg: &DealerConfig) -> Vec<Tab> {
    let d = &cfg.detail_page;
    let c = &cfg.features.checkout;
    let mut out = Vec::new();
    for kind in &d.tabs {
        let (title, items) = match kind {
            DetailTab::DealerComments => ("Dealer Comments", Vec::new()),
            DetailTab::WhatsIncluded => {
                ("What's Included", entries(&d.whats_included, car.car_type))
            }
            DetailTab::WhyBuyFromUs => {
                ("Why Buy From Us", entries(&d.why_buy_from_us, car.car_type))
            }
            DetailTab::ProtectYourCar => (
                "Protect Your Car",
                entries(&d.protect_your_car, car.car_type),
            ),
            DetailTab::Features => ("Features", Vec::new()),
            DetailTab::ReserveOnline => {
                let deposit = if c.deposit > 0 {
                    format!(
                        "a {} deposit, 100% refundable",
                        dollars(f64::from(c.deposit))
                    )
                } else {
                    "no deposit".to_string()
                };
                (
                    "Reserve Online",
                    vec![
                        TabEntry {
                            title: format!("Reserve this car with {deposit}"),
                            text: "Reserve online in a few minutes; nobody else can buy it while it is held for you.".into(),
                        },
                        TabEntry {
                            title: format!("We hold it for {} hours", c.hold_hours),
                            text: "Time to arrange a test drive, finance or your trade-in before you sign anything.".into(),
                        },
                    ],
                )
            }
        };
        let shown = match kind {
            DetailTab::DealerComments => true,
            DetailTab::Features => !features.is_empty(),
            DetailTab::ReserveOnline => checkout,
            _ => !items.is_empty(),
        };
        if shown {
            out.push(Tab {
                kind: *kind,
                title: title.into(),
                items,
            });
        }
    }
    out
}

/// The servicing plan of the car's model: the configured make and car
/// types, in stock (docs/behaviour/car-page.md §2, §9). Book a Service goes to the dealer's
/// booking page, or /genuine-service without one.
pub fn service_offer(car: &FeedCar, cfg: &DealerConfig) -> Option<ServiceOffer> {
    let sa = cfg.detail_page.service_advantage.as_ref()?;
    if !car.make.trim().eq_ignore_ascii_case(sa.make.trim())
        || !(sa.car_types.is_empty() || sa.car_types.contains(&car.car_type))
        || !is_in_stock(&car.status)
    {
        return None;
    }
    let body = car.simple_body.as_deref().or(car.body.as_deref());
    let plan = sa.plan_for(&car.model, body);
    let km = |n: u32| format!("{} km", dollars(f64::from(n)).trim_start_matches('$'));
    let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut rows = vec![
        SpecRow {
            label: "Price per service".into(),
            value: dollars(f64::from(plan.price)),
        },
        SpecRow {
            label: "Capped-price services".into(),
            value: plan.services.to_string(),
        },
        SpecRow {
            label: "Covered for".into(),
            value: format!(
                "{} or {}, whichever comes first",
                plural(plan.years, "year", "years"),
                km(plan.max_km)
            ),
        },
    ];
    // An interval the manufacturer does not give is left out, not guessed (B73).
    if sa.interval_known(&car.model, body) {
        rows.push(SpecRow {
            label: "Service interval".into(),
            value: format!(
                "Every {} or {}",
                plural(plan.interval_months, "month", "months"),
                km(plan.interval_km)
            ),
        });
    }
    let (booking_href, booking_external) = match &cfg.service.booking_url {
        Some(url) => (url.clone(), true),
        None => ("/genuine-service".to_string(), false),
    };
    Some(ServiceOffer {
        title: sa.title.clone(),
        price_text: dollars(f64::from(plan.price)),
        rows,
        terms: sa.terms.clone(),
        booking_href,
        booking_external,
    })
}

/// Everything but the similar cars, which need the whole stock
/// ([`super::similar::attach_similar`]).
pub fn detail(
    car: &FeedCar,
    price: f64,
    phone: &str,
    paragraphs: &[String],
    cfg: &DealerConfig,
) -> CarDetail {
    let features = car.standard_equipment.clone();
    let checkout = checkout_allowed(car, price, cfg);
    CarDetail {
        sidebar_buttons: sidebar_buttons(car, price, phone, cfg),
        below_market: if is_in_stock(&car.status) {
            below_market(car, price)
        } else {
            None
        },
        certified: certified(car, cfg),
        key_information: key_information(car),
        comment_preview: comment_preview(paragraphs),
        tabs: tabs(car, &features, checkout, cfg),
        features,
        service_advantage: service_offer(car, cfg),
        similar: Vec::new(),
        checkout,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::site_data::test_support::config_with;
    use crate::pipeline::stock::feed;
    use serde_json::{json, Value};

    /// A used Toyota in stock at $30,000 with `extra` merged over it.
    fn feed_car(extra: Value) -> FeedCar {
        let mut record = json!({"id": 7, "slug": "2021-toyota-rav4-gx-7", "make": "Toyota", "model": "RAV4",
            "year": 2021, "car_type": "used", "status": "in_stock", "price": 30000, "simple_body": "SUV"});
        for (k, v) in extra.as_object().unwrap() {
            record[k] = v.clone();
        }
        let text = serde_json::to_string(&[record]).unwrap();
        feed::parse(&text, "f.json").unwrap().cars.remove(0)
    }

    const ALL: &str = "enquire, history_report, finance, trade_in, reserve, buy_online, call_dealer, test_drive, make_offer";

    fn dealer(extra: Value) -> DealerConfig {
        let mut base = json!({
            "detail_page": {"sidebar_buttons": ALL.split(", ").collect::<Vec<_>>()},
            "features": {"checkout": {"enabled": true}},
        });
        for (k, v) in extra.as_object().unwrap() {
            base[k] = v.clone();
        }
        config_with(base)
    }

    fn kinds(buttons: &[SidebarButton]) -> Vec<&'static str> {
        buttons
            .iter()
            .map(|b| match b.kind {
                CardButton::Enquire => "enquire",
                CardButton::HistoryReport => "history_report",
                CardButton::Finance => "finance",
                CardButton::TradeIn => "trade_in",
                CardButton::Reserve => "reserve",
                CardButton::BuyOnline => "buy_online",
                CardButton::CallDealer => "call_dealer",
                CardButton::TestDrive => "test_drive",
                CardButton::MakeOffer => "make_offer",
                CardButton::ViewDetails => "view_details",
            })
            .collect()
    }

    fn buttons(car: &FeedCar, cfg: &DealerConfig) -> Vec<SidebarButton> {
        let price = car.offer_price.or(car.price).unwrap_or(0.0);
        sidebar_buttons(car, price, "(07) 3000 0001", cfg)
    }

    #[test]
    fn call_now_links_a_shown_number_and_not_a_masked_one() {
        let call = |cfg: &DealerConfig| {
            buttons(&feed_car(json!({})), cfg)
                .into_iter()
                .find(|b| b.kind == CardButton::CallDealer)
                .expect("a Call Now button")
                .href
        };
        let mut shown = dealer(json!({}));
        shown.features.phone_reveal = false;
        assert_eq!(call(&shown), "tel:0730000001");
        let mut reveal = shown.clone();
        reveal.features.phone_reveal = true;
        assert_eq!(
            call(&reveal),
            "",
            "a masked number is given by the reveal button"
        );
    }

    #[test]
    fn every_sidebar_button_shows_in_the_dealers_order_when_its_rule_allows() {
        let car = feed_car(json!({"file": "https://reports.example.com/7.pdf"}));
        let b = buttons(&car, &dealer(json!({})));
        assert_eq!(kinds(&b), ALL.split(", ").collect::<Vec<_>>());
        let href = |k: CardButton| b.iter().find(|x| x.kind == k).unwrap().href.as_str();
        assert_eq!(
            href(CardButton::Enquire),
            "/cars/2021-toyota-rav4-gx-7/#enquire"
        );
        assert_eq!(
            href(CardButton::HistoryReport),
            "https://reports.example.com/7.pdf"
        );
        assert!(b[1].external, "the history report opens in a new tab");
        assert_eq!(
            href(CardButton::Finance),
            "/cars/2021-toyota-rav4-gx-7/?enquiry=finance#enquire"
        );
        assert_eq!(href(CardButton::TradeIn), "/cars/trade-in/?car_id=7");
        assert_eq!(
            href(CardButton::Reserve),
            "/cars/2021-toyota-rav4-gx-7/checkout/"
        );
        assert_eq!(b[4].note.as_deref(), Some("$200 refundable deposit"));
        // The test dealer reveals numbers on request: no link (see below).
        assert_eq!(href(CardButton::CallDealer), "");
        assert_eq!(
            href(CardButton::TestDrive),
            "/cars/2021-toyota-rav4-gx-7/?enquiry=test-drive#enquire"
        );
        assert_eq!(
            href(CardButton::MakeOffer),
            "/cars/2021-toyota-rav4-gx-7/?enquiry=offer#enquire"
        );
        // The dealer's order, whatever it is.
        let cfg = dealer(
            json!({"detail_page": {"sidebar_buttons": ["call_dealer", "make_offer", "enquire"]}}),
        );
        assert_eq!(
            kinds(&buttons(&car, &cfg)),
            ["call_dealer", "make_offer", "enquire"]
        );
    }

    #[test]
    fn the_dealers_labels_replace_the_platforms_wording_kind_by_kind() {
        let car = feed_car(json!({"file": "https://reports.example.com/7.pdf"}));
        let label = |b: &[SidebarButton], k: CardButton| {
            b.iter().find(|x| x.kind == k).unwrap().label.clone()
        };
        let ours = buttons(&car, &dealer(json!({})));
        assert_eq!(label(&ours, CardButton::Finance), "Get Finance Quote");
        assert_eq!(label(&ours, CardButton::Reserve), "Reserve Car Now");
        let cfg = dealer(
            json!({"cards": {"labels": {"finance": "Finance Enquiry", "reserve": " Hold This Car "}}}),
        );
        let theirs = buttons(&car, &cfg);
        assert_eq!(label(&theirs, CardButton::Finance), "Finance Enquiry");
        assert_eq!(label(&theirs, CardButton::Reserve), "Hold This Car");
        // The rest keep the platform's, and every button still does what it did.
        assert_eq!(label(&theirs, CardButton::Enquire), "Enquire Now");
        let hrefs = |b: &[SidebarButton]| b.iter().map(|x| x.href.clone()).collect::<Vec<_>>();
        assert_eq!(hrefs(&theirs), hrefs(&ours));
    }

    #[test]
    fn the_history_report_needs_a_file() {
        let b = buttons(&feed_car(json!({})), &dealer(json!({})));
        assert!(!kinds(&b).contains(&"history_report"));
        let b = buttons(
            &feed_car(json!({"file": "/reports/7.pdf"})),
            &dealer(json!({})),
        );
        let report = b
            .iter()
            .find(|x| x.kind == CardButton::HistoryReport)
            .unwrap();
        assert!(
            report.external,
            "a file on the site opens in a new tab too: the page stays to record event 18"
        );
    }

    #[test]
    fn trade_in_needs_the_feature_and_an_eligible_car() {
        let has = |car: Value, cfg: Value| {
            kinds(&buttons(&feed_car(car), &dealer(cfg))).contains(&"trade_in")
        };
        assert!(has(json!({}), json!({})));
        assert!(!has(
            json!({}),
            json!({"features": {"trade_in": false, "checkout": {"enabled": true}}})
        ));
        assert!(!has(json!({"reserved": true}), json!({})));
        assert!(
            !has(json!({"price": 200}), json!({})),
            "priced over 200 only"
        );
        assert!(has(json!({"price": 201}), json!({})));
        assert!(
            !has(json!({"status": "coming_soon"}), json!({})),
            "in stock only"
        );
    }

    #[test]
    fn reserve_and_buy_online_need_checkout_for_this_car() {
        let has = |car: Value, checkout: Value| {
            let k = kinds(&buttons(
                &feed_car(car),
                &dealer(json!({"features": {"checkout": checkout}})),
            ));
            (k.contains(&"reserve"), k.contains(&"buy_online"))
        };
        assert_eq!(has(json!({}), json!({"enabled": true})), (true, true));
        assert_eq!(has(json!({}), json!({"enabled": false})), (false, false));
        assert_eq!(
            has(
                json!({}),
                json!({"enabled": true, "car_types": ["new", "demo"]})
            ),
            (false, false)
        );
        assert_eq!(
            has(json!({}), json!({"enabled": true, "car_types": ["used"]})),
            (true, true)
        );
        assert_eq!(
            has(json!({}), json!({"enabled": true, "makes": ["Kia", "MG"]})),
            (false, false)
        );
        assert_eq!(
            has(
                json!({"make": "mg"}),
                json!({"enabled": true, "makes": ["Kia", "MG"]})
            ),
            (true, true)
        );
        assert_eq!(
            has(json!({"reserved": true}), json!({"enabled": true})),
            (false, false)
        );
        assert_eq!(
            has(json!({"price": 0}), json!({"enabled": true})),
            (false, false)
        );
        let b = buttons(
            &feed_car(json!({})),
            &dealer(
                json!({"features": {"checkout": {"enabled": true, "deposit": 0, "path": "buy-online"}}}),
            ),
        );
        let reserve = b.iter().find(|x| x.kind == CardButton::Reserve).unwrap();
        assert_eq!(
            (reserve.href.as_str(), reserve.note.as_deref()),
            ("/cars/2021-toyota-rav4-gx-7/buy-online/", None)
        );
    }

    #[test]
    fn a_car_not_in_stock_has_no_sidebar_buttons() {
        for status in ["sold", "archived"] {
            assert!(buttons(&feed_car(json!({"status": status})), &dealer(json!({}))).is_empty());
        }
        assert!(!buttons(
            &feed_car(json!({"status": "coming_soon"})),
            &dealer(json!({}))
        )
        .is_empty());
    }

    #[test]
    fn below_market_needs_more_than_499_under_the_average_and_under_the_state_average() {
        let at = |average: f64, state: f64| {
            below_market(
                &feed_car(
                    json!({"autograb_data": {"average_market_price": average, "state_average_market_price": state}}),
                ),
                30000.0,
            )
        };
        assert_eq!(
            at(31250.0, 30500.0),
            Some(BelowMarket {
                amount: 1250.0,
                text: "$1,250 below market average".into()
            })
        );
        assert!(at(30500.0, 31000.0).is_some(), "$500 under");
        assert_eq!(
            at(30499.0, 31000.0),
            None,
            "$499 under is not more than 499"
        );
        assert_eq!(at(32000.0, 30000.0), None, "not below the state average");
        assert_eq!(at(32000.0, 29000.0), None);
        assert_eq!(
            below_market(&feed_car(json!({})), 30000.0),
            None,
            "no market data"
        );
        let sold = feed_car(
            json!({"status": "sold", "autograb_data": {"average_market_price": 35000, "state_average_market_price": 35000}}),
        );
        assert!(detail(&sold, 30000.0, "", &[], &dealer(json!({})))
            .below_market
            .is_none());
    }

    #[test]
    fn the_certified_badge_needs_the_make_the_flag_and_a_car_in_stock() {
        // No make is assumed: a manufacturer's programme is its dealers'.
        assert!(certified(&feed_car(json!({"certified": true})), &dealer(json!({}))).is_none());
        let cfg = dealer(json!({"cards": {"certified_badge_make": "Toyota"}}));
        let badge =
            certified(&feed_car(json!({"certified": true})), &cfg).expect("certified Toyota");
        assert_eq!(badge.title, "Toyota Certified Pre-Owned");
        assert_eq!(
            badge.benefits,
            [
                "90 point inspection",
                "1-year extra warranty",
                "12 months roadside assist"
            ]
        );
        // Whatever tag the card shows instead (Hybrid, Reserved...).
        let hybrid = feed_car(
            json!({"certified": true, "make": "TOYOTA", "simple_fuel": "Hybrid", "tag": "Hybrid", "reserved": true}),
        );
        assert!(certified(&hybrid, &cfg).is_some());
        assert!(certified(
            &feed_car(json!({"certified": true, "status": "sold"})),
            &cfg
        )
        .is_none());
        assert!(certified(
            &feed_car(json!({"certified": true, "make": "Mitsubishi"})),
            &cfg
        )
        .is_none());
        assert!(certified(&feed_car(json!({})), &cfg).is_none());
        let off = dealer(json!({"cards": {"certified_badge_make": null}}));
        assert!(certified(&feed_car(json!({"certified": true})), &off).is_none());
        let kia = dealer(
            json!({"cards": {"certified_badge_make": "Kia"}, "detail_page": {"certified_benefits": ["7 year warranty"]}}),
        );
        let b = certified(&feed_car(json!({"certified": true, "make": "Kia"})), &kia).unwrap();
        assert_eq!(
            (b.title.as_str(), b.benefits.as_slice()),
            (
                "Kia Certified Pre-Owned",
                &["7 year warranty".to_string()][..]
            )
        );
        assert_eq!(b.image, None, "the words, without an image");
        let pictured = dealer(
            json!({"cards": {"certified_badge_make": "Kia", "certified_badge_image": "/images/kia-cpo.svg"}}),
        );
        let b = certified(
            &feed_car(json!({"certified": true, "make": "Kia"})),
            &pictured,
        )
        .unwrap();
        assert_eq!(b.image.as_deref(), Some("/images/kia-cpo.svg"));
    }

    #[test]
    fn key_information_comes_from_the_variant_without_empty_rows() {
        let car = feed_car(
            json!({"variant": {"enginesize_litres": 2.5, "enginesize": 2487, "cylinders": 4,
            "induction": " ", "torque": null, "fuelconsumptioncombined": 4.7, "vehiclelength": 4600, "ancaprating": 5}}),
        );
        let rows: Vec<(String, String)> = key_information(&car)
            .into_iter()
            .map(|r| (r.label, r.value))
            .collect();
        let want = [
            ("Engine size", "2.5 L"),
            ("Cylinders", "4"),
            ("Fuel consumption (combined)", "4.7 L/100km"),
            ("Length", "4600 mm"),
            ("ANCAP safety rating", "5 stars"),
        ];
        assert_eq!(rows, want.map(|(a, b)| (a.to_string(), b.to_string())));
        let whole = feed_car(json!({"variant": {"enginesize_litres": 2}}));
        assert_eq!(key_information(&whole)[0].value, "2.0 L");
        let cc = feed_car(json!({"variant": {"enginesize": 1991}}));
        assert_eq!(key_information(&cc)[0].value, "1991 cc");
        assert!(key_information(&feed_car(json!({}))).is_empty());
    }

    #[test]
    fn comments_over_400_characters_are_cut_at_a_word() {
        let short = vec!["a".repeat(200), "b".repeat(200)];
        assert_eq!(comment_preview(&short), None, "exactly 400 fits");
        let words = "word ".repeat(100); // 500 characters
        let paragraphs = vec![
            "First paragraph.".to_string(),
            words.trim().to_string(),
            "Third.".into(),
        ];
        let preview = comment_preview(&paragraphs).unwrap();
        assert_eq!(preview.len(), 2, "the third paragraph is after the cut");
        assert_eq!(preview[0], "First paragraph.");
        assert!(preview[1].ends_with("word…"), "{}", preview[1]);
        let shown: usize = preview
            .iter()
            .map(|p| p.trim_end_matches('…').chars().count())
            .sum();
        assert!(
            shown <= COMMENT_PREVIEW_CHARS && shown > COMMENT_PREVIEW_CHARS - 6,
            "{shown}"
        );
        // A cut that falls on a paragraph end leaves no empty paragraph.
        let exact = vec!["x".repeat(400), "Next one.".into()];
        assert_eq!(
            comment_preview(&exact).unwrap(),
            [format!("{}…", "x".repeat(400))]
        );
        // Characters, not bytes.
        let accents = vec!["é ".repeat(250)];
        assert!(comment_preview(&accents).unwrap()[0].chars().count() <= COMMENT_PREVIEW_CHARS + 1);
    }

    fn tab_config() -> DealerConfig {
        dealer(json!({"detail_page": {
            "sidebar_buttons": ["enquire"],
            "whats_included": [{"title": "12 months roadside assist", "car_types": ["used"]}, {"title": "Full tank of fuel"}],
            "why_buy_from_us": [{"title": "Haggle-free price", "text": "The price you see."}],
            "protect_your_car": [],
        }}))
    }

    fn tab_titles(car: &FeedCar, cfg: &DealerConfig) -> Vec<String> {
        let price = car.price.unwrap_or(0.0);
        tabs(
            car,
            &car.standard_equipment,
            checkout_allowed(car, price, cfg),
            cfg,
        )
        .into_iter()
        .map(|t| t.title)
        .collect()
    }

    #[test]
    fn tabs_with_something_to_show_appear_in_the_dealers_order() {
        let cfg = tab_config();
        let car = feed_car(json!({"standardEquipment": ["Cruise Control"]}));
        assert_eq!(
            tab_titles(&car, &cfg),
            [
                "Dealer Comments",
                "What's Included",
                "Why Buy From Us",
                "Reserve Online",
                "Features"
            ],
            "Protect Your Car has no entries"
        );
        // No equipment, no checkout for this car: those tabs go.
        let reserved = feed_car(json!({"reserved": true}));
        assert_eq!(
            tab_titles(&reserved, &cfg),
            ["Dealer Comments", "What's Included", "Why Buy From Us"]
        );
        let mut order = tab_config();
        order.detail_page.tabs = vec![DetailTab::Features, DetailTab::DealerComments];
        assert_eq!(tab_titles(&car, &order), ["Features", "Dealer Comments"]);
    }

    #[test]
    fn tab_entries_follow_the_car_type_and_reserve_online_states_the_deposit() {
        let cfg = tab_config();
        let entries = |car: &FeedCar, kind: DetailTab| {
            tabs(car, &[], true, &cfg)
                .into_iter()
                .find(|t| t.kind == kind)
                .unwrap()
                .items
        };
        let used = entries(&feed_car(json!({})), DetailTab::WhatsIncluded);
        assert_eq!(
            used.iter().map(|e| e.title.as_str()).collect::<Vec<_>>(),
            ["12 months roadside assist", "Full tank of fuel"]
        );
        let new = entries(
            &feed_car(json!({"car_type": "new"})),
            DetailTab::WhatsIncluded,
        );
        assert_eq!(
            new.iter().map(|e| e.title.as_str()).collect::<Vec<_>>(),
            ["Full tank of fuel"]
        );
        let reserve = entries(&feed_car(json!({})), DetailTab::ReserveOnline);
        assert_eq!(
            reserve[0].title,
            "Reserve this car with a $200 deposit, 100% refundable"
        );
        assert_eq!(reserve[1].title, "We hold it for 48 hours");
    }

    fn advantage_config(service: Value) -> DealerConfig {
        dealer(json!({
            "service": service,
            "detail_page": {"service_advantage": {
                "title": "Toyota Service Advantage", "make": "Toyota", "car_types": ["new", "demo"],
                "default": {"price": 250, "services": 5, "years": 5, "max_km": 75000, "interval_months": 12, "interval_km": 15000},
                "models": [
                    {"models": ["HiAce", "HiLux"], "price": 290, "services": 6, "years": 3, "interval_months": 6, "interval_km": 10000},
                    {"models": ["LandCruiser 70"], "price": 525, "services": 10, "interval_unknown": true}
                ],
                "terms": "Conditions apply."
            }}
        }))
    }

    #[test]
    fn service_advantage_shows_the_plan_of_the_cars_model() {
        let cfg = advantage_config(json!({}));
        let hilux = feed_car(json!({"car_type": "new", "model": "HiLux", "simple_body": "Ute"}));
        let offer = service_offer(&hilux, &cfg).expect("a new Toyota");
        assert_eq!(offer.price_text, "$290");
        let rows: Vec<(&str, &str)> = offer
            .rows
            .iter()
            .map(|r| (r.label.as_str(), r.value.as_str()))
            .collect();
        assert_eq!(
            rows,
            [
                ("Price per service", "$290"),
                ("Capped-price services", "6"),
                ("Covered for", "3 years or 75,000 km, whichever comes first"),
                ("Service interval", "Every 6 months or 10,000 km"),
            ]
        );
        assert_eq!(
            (offer.booking_href.as_str(), offer.booking_external),
            ("/genuine-service", false)
        );
        let rav4 = feed_car(json!({"car_type": "demo"}));
        assert_eq!(
            service_offer(&rav4, &cfg).unwrap().price_text,
            "$250",
            "the default plan"
        );
        assert!(
            service_offer(&feed_car(json!({})), &cfg).is_none(),
            "used cars are not in car_types"
        );
        assert!(
            service_offer(&feed_car(json!({"car_type": "new", "make": "Kia"})), &cfg).is_none()
        );
        assert!(service_offer(
            &feed_car(json!({"car_type": "new", "status": "sold"})),
            &cfg
        )
        .is_none());
        assert!(
            service_offer(&hilux, &dealer(json!({}))).is_none(),
            "no plan configured"
        );
        // The source gives no interval for the LandCruiser 70: none is shown (B73).
        let lc70 = feed_car(json!({"car_type": "new", "model": "LandCruiser 70"}));
        let labels: Vec<String> = service_offer(&lc70, &cfg)
            .unwrap()
            .rows
            .into_iter()
            .map(|r| r.label)
            .collect();
        assert_eq!(
            labels,
            ["Price per service", "Capped-price services", "Covered for"]
        );
        let booked =
            advantage_config(json!({"booking_url": "https://book.example.com.au/service"}));
        let offer = service_offer(&hilux, &booked).unwrap();
        assert_eq!(
            (offer.booking_href.as_str(), offer.booking_external),
            ("https://book.example.com.au/service", true)
        );
    }
}
