//! `site.json`: the dealer config resolved into what the pages show (the
//! `SiteData` type of astro-app/src/types/site.ts).

use std::collections::BTreeMap;

use dealer_config::check::rules::location_slug;
use dealer_config::hours::{format_day, parse_day, week_lines};
use dealer_config::model::{self, Department, LocationKind};
use dealer_config::DealerConfig;
use serde::Serialize;

use crate::stock::present::Car;

#[derive(Debug, Serialize)]
pub struct SiteData {
    pub slug: String,
    pub name: String,
    pub template: String,
    pub manufacturer: Option<String>,
    pub base_url: String,
    pub api_base: String,
    pub theme: model::Theme,
    pub contact: model::Contact,
    pub social: Vec<Link>,
    pub navigation: Vec<NavItem>,
    pub footer: Footer,
    pub home: model::Home,
    pub locations: Vec<Location>,
    pub features: Features,
    pub search: Search,
    pub copy: Copy,
    pub stock_summary: StockSummary,
}

#[derive(Debug, Serialize)]
pub struct Link {
    pub label: String,
    pub href: String,
    pub external: bool,
}

impl Link {
    fn new(label: &str, href: &str) -> Self {
        Link {
            label: label.into(),
            href: href.into(),
            external: href.starts_with("https://"),
        }
    }
}

#[derive(Debug, Serialize)]
pub struct NavItem {
    #[serde(flatten)]
    pub link: Link,
    pub children: Vec<Link>,
}

#[derive(Debug, Serialize)]
pub struct Footer {
    pub groups: Vec<FooterGroup>,
    pub legal_text: String,
    pub copyright: String,
}

#[derive(Debug, Serialize)]
pub struct FooterGroup {
    pub title: String,
    pub links: Vec<Link>,
}

#[derive(Debug, Serialize)]
pub struct Location {
    pub id: String,
    pub slug: String,
    pub name: String,
    pub kind: &'static str,
    pub primary: bool,
    pub phone: String,
    pub email: Option<String>,
    pub address: Address,
    pub hours: Vec<DepartmentHours>,
    pub special_hours: Vec<SpecialHours>,
    pub licence_number: Option<String>,
    pub timezone: String,
}

#[derive(Debug, Serialize)]
pub struct Address {
    pub street: String,
    pub suburb: String,
    pub state: &'static str,
    pub postcode: String,
    pub one_line: String,
    pub map_url: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct DepartmentHours {
    pub department: &'static str,
    pub lines: Vec<HoursLine>,
}

#[derive(Debug, Serialize)]
pub struct HoursLine {
    pub days: String,
    pub text: String,
}

#[derive(Debug, Serialize)]
pub struct SpecialHours {
    pub date: String,
    pub department: &'static str,
    pub text: String,
    pub label: String,
}

#[derive(Debug, Serialize)]
pub struct Features {
    pub watchlist: bool,
    pub compare: bool,
    pub favourites: bool,
    pub phone_reveal: bool,
}

#[derive(Debug, Serialize)]
pub struct Search {
    pub page_size: u32,
    pub keyword_placeholder: String,
    pub sort_options: Vec<SortOption>,
}

#[derive(Debug, Serialize)]
pub struct SortOption {
    pub value: &'static str,
    pub label: &'static str,
}

#[derive(Debug, Serialize)]
pub struct Copy {
    pub no_price_text: String,
    pub dealer_comments_pending: String,
}

#[derive(Debug, Serialize)]
pub struct StockSummary {
    pub total: usize,
    pub by_type: Vec<TypeCount>,
    pub makes: Vec<MakeCount>,
}

#[derive(Debug, Serialize)]
pub struct TypeCount {
    pub car_type: &'static str,
    pub count: usize,
}

#[derive(Debug, Serialize)]
pub struct MakeCount {
    pub name: String,
    pub count: usize,
}

/// Counts by car type in the spec's order (new, demo, used: spec 000 §9)
/// and by make, most cars first.
pub fn stock_summary(cars: &[Car]) -> StockSummary {
    let by_type = ["new", "demo", "used"]
        .into_iter()
        .map(|t| TypeCount {
            car_type: t,
            count: cars.iter().filter(|c| c.car_type == t).count(),
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

fn location(l: &model::Location, tz: &str) -> Location {
    let a = &l.address;
    let mut hours = Vec::new();
    for (dept, week) in [
        ("sales", &l.hours.sales),
        ("service", &l.hours.service),
        ("parts", &l.hours.parts),
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
            LocationKind::Sales => "sales",
            LocationKind::Service => "service",
            LocationKind::Parts => "parts",
            LocationKind::CarBuying => "car-buying",
        },
        primary: l.primary,
        phone: l.phone.clone(),
        email: l.email.clone(),
        address: Address {
            street: a.street.clone(),
            suburb: a.suburb.clone(),
            state: a.state.as_str(),
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
                    Department::All => "all",
                    Department::Sales => "sales",
                    Department::Service => "service",
                    Department::Parts => "parts",
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

pub fn build(slug: &str, cfg: &DealerConfig, cars: &[Car], year: i32) -> SiteData {
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
                link: Link::new(&n.label, n.href.as_deref().unwrap_or("")),
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
        },
        search: Search {
            page_size: cfg.search.page_size,
            keyword_placeholder: cfg.search.keyword_placeholder.clone(),
            sort_options: cfg
                .search
                .sort_options
                .iter()
                .map(|s| SortOption {
                    value: s.replica(),
                    label: s.label(),
                })
                .collect(),
        },
        copy: Copy {
            no_price_text: cfg.copy.no_price_text.clone(),
            dealer_comments_pending: cfg.copy.dealer_comments_pending.clone(),
        },
        stock_summary: stock_summary(cars),
    }
}
