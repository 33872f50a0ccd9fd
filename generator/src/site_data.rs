//! `site.json`: the dealer config resolved into what the pages show (the
//! `SiteData` type of astro-app/src/types/site.ts).

use std::collections::BTreeMap;

use dealer_config::check::rules::{location_slug, parse_moment};
use dealer_config::hours::{format_day, parse_day, week_lines};
use dealer_config::model::{self, Department};
use dealer_config::DealerConfig;
use schemars::JsonSchema;
use serde::Serialize;

use crate::search_index::{self, LandingPage, SearchIndex};
use crate::stock::present::Car;

/// Everything a dealer's pages show apart from the cars: `src/data/site.json`.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SiteData {
    /// Dealer slug (file name of the dealer YAML).
    pub slug: String,
    /// Trading name.
    pub name: String,
    /// Template preset the dealer extends.
    pub template: String,
    /// Set for single-manufacturer dealers, e.g. "Toyota".
    pub manufacturer: Option<String>,
    /// Public origin of the site, e.g. "https://www.example.com.au" (no trailing slash).
    pub base_url: String,
    /// Origin of the edge worker ("" = same origin).
    pub api_base: String,
    /// Colours, logo and font.
    pub theme: model::Theme,
    /// Main phone and e-mail.
    pub contact: model::Contact,
    /// Social media links, in display order.
    pub social: Vec<Link>,
    /// Header navigation.
    pub navigation: Vec<NavItem>,
    /// Footer groups, legal text and copyright.
    pub footer: Footer,
    /// Home page hero (title defaults to the dealer name).
    pub home: model::Home,
    /// Locations, the primary one first.
    pub locations: Vec<Location>,
    /// Shopper features that change what pages render.
    pub features: Features,
    /// Search page settings.
    pub search: Search,
    /// Wording that differs between dealers.
    pub copy: Copy,
    /// Counts over the visible stock, for the home page and menus.
    pub stock_summary: StockSummary,
    /// Route patterns that need a signed-in shopper, e.g. "/my-garage" or
    /// "/cars/{slug}/checkout" ({slug} matches one path segment): a page on
    /// one of them redirects a signed-out visitor to /sign-in/.
    pub gated_routes: Vec<String>,
    /// The instant the stock was judged at (unix seconds: the build's start,
    /// or `--as-of`); pages rendered from this data apply the time rules
    /// (sold window) at the same instant.
    pub built_at: i64,
}

/// A link.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Link {
    /// Link text.
    pub label: String,
    /// Site path or https URL.
    pub href: String,
    /// Opens another site (rel="noopener", target="_blank").
    pub external: bool,
}

impl Link {
    fn new(label: &str, href: &str) -> Self {
        Link {
            label: label.into(),
            href: href.into(),
            external: is_external(href),
        }
    }
}

/// Links to another site open in a new tab (the YAML only allows https
/// for those; site paths start with /).
fn is_external(href: &str) -> bool {
    href.starts_with("https://")
}

/// A header menu entry.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct NavItem {
    /// Link text.
    pub label: String,
    /// Site path or https URL; "" for a dropdown that is not itself a link.
    pub href: String,
    /// Opens another site.
    pub external: bool,
    /// Dropdown entries; empty for a plain link.
    pub children: Vec<Link>,
}

/// The footer.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Footer {
    /// Titled link columns.
    pub groups: Vec<FooterGroup>,
    /// Legal / disclaimer paragraph shown at the bottom of every page.
    pub legal_text: String,
    /// "© 2026 Example Motor Group Pty Ltd".
    pub copyright: String,
}

/// A titled column of footer links.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct FooterGroup {
    /// Heading.
    pub title: String,
    /// Links in order.
    pub links: Vec<Link>,
}

/// What a location does.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LocationKind {
    Sales,
    Service,
    Parts,
    CarBuying,
}

/// A department with opening hours.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DepartmentName {
    Sales,
    Service,
    Parts,
}

/// A department a one-off applies to.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SpecialDepartment {
    All,
    Sales,
    Service,
    Parts,
}

/// A showroom, service centre or parts department.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Location {
    /// Id as in the stock feed's location_id.
    pub id: String,
    /// URL slug: /contact-us/{slug}.
    pub slug: String,
    /// Name shown on the site.
    pub name: String,
    /// What happens here.
    pub kind: LocationKind,
    /// The dealer's main location.
    pub primary: bool,
    /// Phone as shown.
    pub phone: String,
    /// Public e-mail, if any.
    pub email: Option<String>,
    /// Street address.
    pub address: Address,
    /// Opening hours per department.
    pub hours: Vec<DepartmentHours>,
    /// Public holidays and other one-off hours.
    pub special_hours: Vec<SpecialHours>,
    /// Motor dealer licence number.
    pub licence_number: Option<String>,
    /// IANA time zone of the dealer.
    pub timezone: String,
}

/// Street address.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Address {
    /// e.g. "12 Main St".
    pub street: String,
    /// e.g. "Newstead".
    pub suburb: String,
    /// State abbreviation, e.g. "QLD".
    pub state: String,
    /// Four digits.
    pub postcode: String,
    /// One line: "12 Main St, Newstead QLD 4006".
    pub one_line: String,
    /// Link to a map / directions, or null when none configured.
    pub map_url: Option<String>,
}

/// One department's weekly hours, ready to show.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct DepartmentHours {
    /// Which department.
    pub department: DepartmentName,
    /// Lines of the hours table.
    pub lines: Vec<HoursLine>,
}

/// A line of an hours table.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct HoursLine {
    /// "Mon-Fri", "Sat", "Sun".
    pub days: String,
    /// "8:30am - 5:30pm", "Closed" or "By appointment only".
    pub text: String,
}

/// One-off hours.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SpecialHours {
    /// ISO date "2026-12-25".
    pub date: String,
    /// Department it applies to.
    pub department: SpecialDepartment,
    /// "Closed" or "9am - 1pm".
    pub text: String,
    /// e.g. "Christmas Day".
    pub label: String,
}

/// Shopper features that change what pages render.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Features {
    /// Save-to-watchlist buttons (sign-in by phone).
    pub watchlist: bool,
    /// Compare toggles.
    pub compare: bool,
    /// Favourite toggles.
    pub favourites: bool,
    /// true = phone is masked until clicked; false = shown straight away.
    pub phone_reveal: bool,
    /// Reserve Now is offered (on cards and the car page).
    pub checkout: bool,
    /// Reservation deposit in dollars; 0 leaves the amount off the button.
    pub checkout_deposit: u32,
    /// Checkout page below /cars/{slug}/: "checkout" or "buy-online".
    pub checkout_path: String,
    /// The site sends its analytics events (39 save car, 25 phone click)
    /// to the edge's `POST /api/events`; off, the edge answers 404, so the
    /// site must not call it at all.
    pub analytics: bool,
    /// Finance figures are shown: the car page asks `POST /api/youx/quote`
    /// for a weekly repayment (priced cars only).
    pub finance_quote: bool,
    /// The dealer offers car subscriptions: cards lead with the weekly
    /// price and the search page adds a '/ week' price slider (spec 000 §9).
    pub subscriptions: bool,
}

/// Search page settings.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Search {
    /// Cars per results page.
    pub page_size: u32,
    /// Placeholder of the keyword box.
    pub keyword_placeholder: String,
    /// Sort options, the default first.
    pub sort_options: Vec<SortOption>,
    /// Price low-to-high leaves out cars without a price (price 0).
    pub price_asc_excludes_zero: bool,
    /// Makes shown before "Show all makes".
    pub popular_makes_count: u32,
    /// Shown instead of a result count above 1999; null: the sum of the facet counts.
    pub stock_count_override: Option<u32>,
    /// 1-based slot of the "can't find what you want" card among a page's results; 0 hides it.
    pub cta_card_position: u32,
    /// Promotional tiles, their windows resolved to unix seconds in the dealer's time zone.
    pub promo_tiles: Vec<PromoTile>,
    /// The hosted search service, or null for the embedded index (/search-index.json).
    pub hosted: Option<dealer_config::model::HostedSearch>,
    /// Base filters every search applies (the same rules that chose the visible stock).
    pub base_filters: BaseFilters,
    /// Buttons on each result card, in order.
    pub card_buttons: Vec<dealer_config::model::CardButton>,
    /// Compare and favourite only for used cars priced above 0 with photos.
    pub strict_compare: bool,
    /// The generator's card rules, for hits the hosted service returns raw.
    pub hit_rules: HitRules,
    /// Pre-rendered landing pages below /search/.
    pub landing_pages: Vec<LandingPage>,
}

/// A promotional tile among search results.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct PromoTile {
    /// Id, unique within the dealer.
    pub id: String,
    /// 1-based slots among a page's results.
    pub positions: Vec<u32>,
    /// First second it shows (unix seconds).
    pub starts_at: i64,
    /// Last second it shows (unix seconds).
    pub expires_at: i64,
    /// Daily window as minutes after local midnight [from, to); null: all day.
    pub daily_minutes: Option<[u16; 2]>,
    /// IANA time zone the daily window is judged in.
    pub timezone: String,
    /// Only for searches limited to these car types; empty: always.
    pub car_types: Vec<model::CarType>,
    /// Image path or URL.
    pub image: String,
    /// Alternative text.
    pub alt: String,
    /// Link target.
    pub href: String,
}

/// Base filters of every search (spec 000 §9), mirrored from the stock rules.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct BaseFilters {
    /// Sold cars stay listed this many days after they sold.
    pub include_sold_days: u32,
    /// Cars with fewer photos are left out (0 to 14).
    pub min_photos: u32,
    /// Only in_stock cars.
    pub in_stock_only: bool,
    /// Makes left out (case-insensitive).
    pub exclude_makes: Vec<String>,
    /// Car types left out.
    pub exclude_car_types: Vec<model::CarType>,
    /// Stock numbers left out (case-insensitive).
    pub exclude_stock_numbers: Vec<String>,
}

/// A sort option of the search page.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SortOption {
    /// Index (replica) name: the hosted service's index for this order and the URL `sortBy` value.
    pub value: String,
    /// The order itself, whatever its index is named.
    pub key: model::SortOption,
    /// Label in the sort dropdown.
    pub label: String,
}

/// The card rules of `stock::present` (tag banner priority, price text) for
/// hits the hosted search service returns as raw feed fields: the browser
/// applies them in astro-app/src/lib/search/present.ts, and both languages
/// are checked against the same cases
/// (astro-app/test/fixtures/search/present-cases.json).
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct HitRules {
    /// Electric and Hybrid tags lead the banner priority.
    pub electric_hybrid_tag: bool,
    /// Make whose certified cars get "{make} Certified Pre-Owned"; null: none.
    pub certified_badge_make: Option<String>,
    /// Banner of cars listed within the last 8 days.
    pub new_arrival_text: String,
    /// Price text of cars without a price.
    pub no_price_text: String,
    /// The weekly subscription price leads the price text.
    pub subscriptions: bool,
}

/// Wording that differs between dealers.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Copy {
    /// Shown instead of a price when a car has none.
    pub no_price_text: String,
    /// Shown when a car has no dealer comments.
    pub dealer_comments_pending: String,
}

/// Counts over the visible stock.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct StockSummary {
    /// Visible cars.
    pub total: usize,
    /// Per car type, in the order new, demo, used; types without cars left out.
    pub by_type: Vec<TypeCount>,
    /// Per make, most cars first.
    pub makes: Vec<MakeCount>,
}

/// Cars of one type.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct TypeCount {
    /// new, demo or used.
    pub car_type: model::CarType,
    /// How many.
    pub count: usize,
}

/// Cars of one make.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct MakeCount {
    /// Make, e.g. "Kia".
    pub name: String,
    /// How many.
    pub count: usize,
}

/// Counts by car type in the spec's order (new, demo, used: spec 000 §9)
/// and by make, most cars first.
pub fn stock_summary(cars: &[Car]) -> StockSummary {
    use model::CarType;
    let by_type = CarType::ALL
        .into_iter()
        .map(|car_type| TypeCount {
            car_type,
            count: cars.iter().filter(|c| c.car_type == car_type).count(),
        })
        .filter(|t| t.count > 0)
        .collect();
    let mut makes: BTreeMap<&str, usize> = BTreeMap::new();
    for c in cars {
        *makes.entry(c.make.as_str()).or_default() += 1;
    }
    let mut makes: Vec<MakeCount> = makes
        .into_iter()
        .map(|(name, count)| MakeCount {
            name: name.into(),
            count,
        })
        .collect();
    makes.sort_by(|a, b| b.count.cmp(&a.count).then(a.name.cmp(&b.name)));
    StockSummary {
        total: cars.len(),
        by_type,
        makes,
    }
}

/// Resolves a tile's local start/expiry ("2025-07-01", "2025-09-30 17:30")
/// to unix seconds in the dealer's time zone (a date-only expiry lasts the
/// whole day). The config check has already refused unparsable values.
fn promo_tile(t: &model::PromoTile, timezone: &str) -> Option<PromoTile> {
    use chrono::TimeZone;
    let tz: chrono_tz::Tz = timezone.parse().unwrap_or(chrono_tz::Australia::Brisbane);
    let at = |s: &str, end: bool| -> Option<i64> {
        let local = parse_moment(s, end)?;
        Some(tz.from_local_datetime(&local).earliest()?.timestamp())
    };
    let daily_minutes = match t.daily_hours.as_deref().map(parse_day) {
        Some(Ok(dealer_config::hours::DayHours::Open { open, close })) => Some([open, close]),
        _ => None,
    };
    Some(PromoTile {
        id: t.id.clone(),
        positions: t.positions.clone(),
        starts_at: at(&t.start, false)?,
        expires_at: at(&t.expiry, true)?,
        daily_minutes,
        timezone: timezone.to_string(),
        car_types: t.car_types.clone(),
        image: t.image.clone(),
        alt: t.alt.clone(),
        href: t.href.clone(),
    })
}

fn location(l: &model::Location, tz: &str) -> Location {
    let a = &l.address;
    let mut hours = Vec::new();
    for (dept, week) in [
        (DepartmentName::Sales, &l.hours.sales),
        (DepartmentName::Service, &l.hours.service),
        (DepartmentName::Parts, &l.hours.parts),
    ] {
        if let Some(week) = week {
            hours.push(DepartmentHours {
                department: dept,
                lines: week_lines(week, l.closed_text)
                    .into_iter()
                    .map(|(days, text)| HoursLine { days, text })
                    .collect(),
            });
        }
    }
    Location {
        id: l.id.clone(),
        slug: location_slug(l),
        name: l.name.clone(),
        kind: match l.kind {
            model::LocationKind::Sales => LocationKind::Sales,
            model::LocationKind::Service => LocationKind::Service,
            model::LocationKind::Parts => LocationKind::Parts,
            model::LocationKind::CarBuying => LocationKind::CarBuying,
        },
        primary: l.primary,
        phone: l.phone.clone(),
        email: l.email.clone(),
        address: Address {
            street: a.street.clone(),
            suburb: a.suburb.clone(),
            state: a.state.as_str().into(),
            postcode: a.postcode.clone(),
            one_line: format!(
                "{}, {} {} {}",
                a.street,
                a.suburb,
                a.state.as_str(),
                a.postcode
            ),
            map_url: a.map_url.clone(),
        },
        hours,
        special_hours: l
            .special_hours
            .iter()
            .map(|s| SpecialHours {
                date: s.date.clone(),
                department: match s.department {
                    Department::All => SpecialDepartment::All,
                    Department::Sales => SpecialDepartment::Sales,
                    Department::Service => SpecialDepartment::Service,
                    Department::Parts => SpecialDepartment::Parts,
                },
                text: parse_day(&s.hours)
                    .map(|d| format_day(d, model::ClosedText::Closed))
                    .unwrap_or_else(|_| s.hours.clone()),
                label: s.label.clone(),
            })
            .collect(),
        licence_number: l.licence_number.clone(),
        timezone: tz.to_string(),
    }
}

pub fn build(
    slug: &str,
    cfg: &DealerConfig,
    cars: &[Car],
    now: chrono::DateTime<chrono::Utc>,
) -> SiteData {
    let year = chrono::Datelike::year(&now);
    let mut locations: Vec<Location> = cfg
        .locations
        .iter()
        .map(|l| location(l, &cfg.timezone))
        .collect();
    // The primary location is listed first; the rest keep their YAML order.
    locations.sort_by_key(|l| !l.primary);
    let social = [
        ("Facebook", &cfg.social.facebook_url),
        ("Instagram", &cfg.social.instagram_url),
        ("YouTube", &cfg.social.youtube_url),
        ("LinkedIn", &cfg.social.linkedin_url),
    ]
    .into_iter()
    .filter_map(|(label, url)| url.as_ref().map(|u| Link::new(label, u)))
    .collect();
    let mut home = cfg.home.clone();
    if home.hero_title.is_empty() {
        home.hero_title = cfg.name.clone();
    }
    SiteData {
        slug: slug.into(),
        name: cfg.name.clone(),
        template: cfg.template.clone(),
        manufacturer: cfg.manufacturer.clone(),
        base_url: cfg.site_url.clone(),
        api_base: cfg.edge.api_base.clone(),
        theme: cfg.theme.clone(),
        contact: cfg.contact.clone(),
        social,
        navigation: cfg
            .navigation
            .iter()
            .map(|n| NavItem {
                label: n.label.clone(),
                href: n.href.clone().unwrap_or_default(),
                external: n.href.as_deref().is_some_and(is_external),
                children: n
                    .children
                    .iter()
                    .map(|c| Link::new(&c.label, &c.href))
                    .collect(),
            })
            .collect(),
        footer: Footer {
            groups: cfg
                .footer
                .groups
                .iter()
                .map(|g| FooterGroup {
                    title: g.title.clone(),
                    links: g
                        .links
                        .iter()
                        .map(|l| Link::new(&l.label, &l.href))
                        .collect(),
                })
                .collect(),
            legal_text: cfg.footer.legal_text.clone(),
            copyright: format!(
                "© {year} {}",
                cfg.legal_name.as_deref().unwrap_or(&cfg.name)
            ),
        },
        home,
        locations,
        features: Features {
            watchlist: cfg.features.watchlist,
            compare: cfg.features.compare,
            favourites: cfg.features.favourites,
            phone_reveal: cfg.features.phone_reveal,
            checkout: cfg.features.checkout.enabled,
            checkout_deposit: cfg.features.checkout.deposit,
            checkout_path: match cfg.features.checkout.path {
                model::CheckoutPath::Checkout => "checkout".into(),
                model::CheckoutPath::BuyOnline => "buy-online".into(),
            },
            analytics: cfg.edge.analytics_sink,
            finance_quote: cfg.finance.enabled,
            subscriptions: cfg.features.subscriptions,
        },
        search: Search {
            page_size: cfg.search.page_size,
            keyword_placeholder: cfg.search.keyword_placeholder.clone(),
            sort_options: cfg
                .search
                .sort_options
                .iter()
                .map(|s| SortOption {
                    value: cfg.search.sort_index(*s),
                    key: *s,
                    label: s.label().into(),
                })
                .collect(),
            price_asc_excludes_zero: cfg.search.price_asc_excludes_zero,
            popular_makes_count: cfg.search.popular_makes_count,
            stock_count_override: cfg.search.stock_count_override,
            cta_card_position: cfg.search.cta_card_position,
            promo_tiles: cfg
                .search
                .promo_tiles
                .iter()
                .filter_map(|t| promo_tile(t, &cfg.timezone))
                .collect(),
            hosted: match &cfg.search.engine {
                model::SearchEngine::Embedded => None,
                model::SearchEngine::Hosted(h) => Some(h.clone()),
            },
            base_filters: BaseFilters {
                include_sold_days: cfg.stock.include_sold_cars_days,
                min_photos: cfg.stock.min_photos,
                in_stock_only: cfg.stock.in_stock_only,
                exclude_makes: cfg.stock.exclude.makes.clone(),
                exclude_car_types: cfg.stock.exclude.car_types.clone(),
                exclude_stock_numbers: cfg.stock.exclude.stock_numbers.clone(),
            },
            card_buttons: cfg.cards.buttons.clone(),
            strict_compare: cfg.cards.strict_compare,
            hit_rules: HitRules {
                electric_hybrid_tag: cfg.cards.electric_hybrid_tag,
                certified_badge_make: cfg.cards.certified_badge_make.clone(),
                new_arrival_text: cfg.copy.new_arrival_text.clone(),
                no_price_text: cfg.copy.no_price_text.clone(),
                subscriptions: cfg.features.subscriptions,
            },
            landing_pages: search_index::landing_pages(cars, &cfg.name),
        },
        copy: Copy {
            no_price_text: cfg.copy.no_price_text.clone(),
            dealer_comments_pending: cfg.copy.dealer_comments_pending.clone(),
        },
        stock_summary: stock_summary(cars),
        gated_routes: cfg.gated_routes.clone(),
        built_at: now.timestamp(),
    }
}

/// Both data files in one document, so the schema (and the TypeScript
/// generated from it) names every type once.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields, title = "SiteContract")]
#[allow(dead_code)] // only its schema is used
struct SiteContract {
    /// src/data/site.json
    site: SiteData,
    /// src/data/cars.json
    cars: Vec<Car>,
    /// src/data/search-index.json
    search_index: SearchIndex,
}

/// JSON Schema of `site.json` and `cars.json` as the generator writes them
/// (serialisation view: every field is always present). astro-app's
/// TypeScript types are generated from it (astro-app/src/types/).
pub fn contract_schema_text() -> String {
    let generator = schemars::generate::SchemaSettings::draft07()
        .for_serialize()
        .into_generator();
    let schema = generator.into_root_schema_for::<SiteContract>();
    let mut s = serde_json::to_string_pretty(&schema).expect("schema serialises");
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stock::{feed, present};
    use dealer_config::model::CarType;
    use serde_json::json;

    fn config() -> DealerConfig {
        let loc = |id: &str, primary: bool| {
            json!({"id": id, "name": format!("Site {id}"), "primary": primary, "phone": "(07) 3000 0001",
                   "address": {"street": "1 A St", "suburb": "Brisbane", "state": "QLD", "postcode": "4000"}})
        };
        serde_json::from_value(json!({
            "template": "t", "name": "Demo", "site_url": "https://www.demo.com.au",
            "contact": {"phone": "(07) 3000 0000", "email": "a@demo.com.au"},
            "stock": {"feed": "f.json"},
            "locations": [loc("a", false), loc("b", false), loc("c", true)],
        }))
        .unwrap()
    }

    fn cars(specs: &[(&str, &str)]) -> Vec<Car> {
        let records: Vec<_> = specs
            .iter()
            .enumerate()
            .map(|(i, (make, car_type))| {
                json!({"id": i, "slug": format!("c-{i}"), "make": make, "model": "M", "year": 2024,
                       "car_type": car_type, "status": "in_stock"})
            })
            .collect();
        let feed = feed::parse(&serde_json::to_string(&records).unwrap(), "f.json").unwrap();
        let cfg = config();
        feed.cars
            .iter()
            .map(|c| present::present(c, &cfg, chrono::Utc::now()))
            .collect()
    }

    #[test]
    fn the_primary_location_comes_first_and_the_rest_keep_their_order() {
        let now = chrono::DateTime::from_timestamp(1_795_132_800, 0).unwrap();
        let site = build("demo", &config(), &[], now);
        assert_eq!(site.built_at, 1_795_132_800);
        let ids: Vec<&str> = site.locations.iter().map(|l| l.id.as_str()).collect();
        assert_eq!(ids, ["c", "a", "b"]);
    }

    #[test]
    fn stock_counts_follow_new_demo_used_and_most_makes_first() {
        let summary = stock_summary(&cars(&[
            ("Kia", "used"),
            ("Mazda", "new"),
            ("Kia", "demo"),
            ("Audi", "used"),
            ("Kia", "used"),
            ("Mazda", "used"),
            ("BMW", "used"),
        ]));
        assert_eq!(summary.total, 7);
        let types: Vec<(CarType, usize)> = summary
            .by_type
            .iter()
            .map(|t| (t.car_type, t.count))
            .collect();
        assert_eq!(
            types,
            [(CarType::New, 1), (CarType::Demo, 1), (CarType::Used, 5)]
        );
        let makes: Vec<(&str, usize)> = summary
            .makes
            .iter()
            .map(|m| (m.name.as_str(), m.count))
            .collect();
        // Most cars first; ties alphabetical.
        assert_eq!(makes, [("Kia", 3), ("Mazda", 2), ("Audi", 1), ("BMW", 1)]);
        // A type without cars is left out.
        let only_used = stock_summary(&cars(&[("Kia", "used")]));
        assert_eq!(only_used.by_type.len(), 1);
    }
}
