//! Links of every page: header navigation (with the dropdowns the site
//! builds: the New Vehicles models menu and the Pre-owned stock menu),
//! footer groups, the payments strip and social links.

use dealer_config::model::{CarType, ModelBody, NavMenu, PaymentMethod};
use dealer_config::DealerConfig;
use schemars::JsonSchema;
use serde::Serialize;

use crate::pipeline::search_index::LandingPage;
use crate::pipeline::stock::present::Car;

/// A link.
#[derive(Debug, Clone, Serialize, JsonSchema)]
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
    pub(crate) fn new(label: &str, href: &str) -> Self {
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
    /// Dropdown entries; empty for a plain link. For the models menu: the
    /// links shown until the mega-menu has loaded (and without JavaScript).
    pub children: Vec<Link>,
    /// A dropdown the site builds: "models" (the mega-menu, fetched from
    /// /menus/models/ when first opened) or "pre_owned" (children from the stock).
    pub menu: Option<NavMenu>,
}

/// Makes listed in the Pre-owned menu: those with the most used cars.
const PRE_OWNED_MAKES: usize = 8;

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
    /// The payments-accepted strip, in order; empty: none.
    pub payments: Vec<Payment>,
}

/// A payment method of the strip.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Payment {
    /// Icon name: /images/payments/{key}.svg.
    pub key: String,
    /// Name, e.g. "Google Pay".
    pub label: String,
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

/// Social media links in display order; unset ones left out.
pub fn social(cfg: &DealerConfig) -> Vec<Link> {
    [
        ("Facebook", &cfg.social.facebook_url),
        ("Instagram", &cfg.social.instagram_url),
        ("YouTube", &cfg.social.youtube_url),
        ("LinkedIn", &cfg.social.linkedin_url),
    ]
    .into_iter()
    .filter_map(|(label, url)| url.as_ref().map(|u| Link::new(label, u)))
    .collect()
}

/// The header menu; `cars` are the visible stock and `landings` the search
/// landing pages (the Pre-owned menu links to them where they exist). A
/// Pre-owned menu with no used or demo car is left out.
pub fn navigation(cfg: &DealerConfig, cars: &[Car], landings: &[LandingPage]) -> Vec<NavItem> {
    cfg.navigation
        .iter()
        .filter_map(|n| {
            let children = match n.menu {
                None => n
                    .children
                    .iter()
                    .map(|c| Link::new(&c.label, &c.href))
                    .collect(),
                Some(NavMenu::PreOwned) => pre_owned(cars, landings),
                Some(NavMenu::Models) => models_fallback(cfg),
            };
            if n.menu.is_some() && children.is_empty() {
                return None;
            }
            Some(NavItem {
                label: n.label.clone(),
                href: n.href.clone().unwrap_or_default(),
                external: n.href.as_deref().is_some_and(is_external),
                children,
                menu: n.menu,
            })
        })
        .collect()
}

/// A search landing page's link, or the search page refined by the URL
/// (the InstantSearch format every search link uses).
fn search_href(landings: &[LandingPage], landing: &str, refinements: &[(&str, &str)]) -> String {
    if landings.iter().any(|l| l.path == landing) {
        return format!("/search/{landing}/");
    }
    let query: Vec<String> = refinements
        .iter()
        .map(|(attr, value)| {
            let key = format!("refinementList[{attr}][0]");
            let enc = |s: &str| -> String {
                url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
            };
            format!("{}={}", enc(&key), enc(value))
        })
        .collect();
    format!("/search/?{}", query.join("&"))
}

/// All used cars, used cars of the makes with the most of them (by name)
/// and demo cars. No counts, and the makes in name order: the menu is in
/// the header of every page, so a figure that moves with each car sold
/// would change every page of the site (rendered again, uploaded again)
/// on every stock refresh. The counts are on the search pages the links
/// lead to. The menu changes only when a make enters or leaves the top
/// [`PRE_OWNED_MAKES`], or the dealer has no used or no demo car left.
fn pre_owned(cars: &[Car], landings: &[LandingPage]) -> Vec<Link> {
    let used: Vec<&Car> = cars
        .iter()
        .filter(|c| c.car_type == CarType::Used)
        .collect();
    let demo = cars.iter().any(|c| c.car_type == CarType::Demo);
    let mut links = Vec::new();
    if !used.is_empty() {
        links.push(Link::new(
            "All pre-owned",
            &search_href(landings, "used-cars", &[("car_type", "used")]),
        ));
        let mut makes: std::collections::BTreeMap<&str, usize> = Default::default();
        for c in &used {
            *makes.entry(c.make.as_str()).or_default() += 1;
        }
        let mut makes: Vec<(&str, usize)> = makes.into_iter().collect();
        makes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        makes.truncate(PRE_OWNED_MAKES);
        makes.sort_by(|a, b| a.0.cmp(b.0));
        for (make, _) in makes {
            // No landing page combines a type and a make: the search page, refined.
            links.push(Link::new(
                &format!("Used {make}"),
                &search_href(&[], "", &[("car_type", "used"), ("make", make)]),
            ));
        }
    }
    if demo {
        links.push(Link::new(
            "Demo vehicles",
            &search_href(landings, "demo-cars", &[("car_type", "demo")]),
        ));
    }
    links
}

/// What the models menu shows before its mega-menu loads: all models and
/// each group of /models that has one.
fn models_fallback(cfg: &DealerConfig) -> Vec<Link> {
    if cfg.models.is_empty() {
        return Vec::new();
    }
    let mut links = vec![Link::new("All models", "/models/")];
    for body in ModelBody::ORDER {
        if cfg.models.iter().any(|m| m.body == body) {
            links.push(Link::new(body.label(), &format!("/models/#{}", body.key())));
        }
    }
    links
}

/// The footer; the copyright names the legal entity when there is one.
pub fn footer(cfg: &DealerConfig, year: i32) -> Footer {
    Footer {
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
        payments: cfg
            .footer
            .payments
            .iter()
            .map(|p: &PaymentMethod| Payment {
                key: p.key().into(),
                label: p.label().into(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::site_data::test_support::config_with;
    use serde_json::json;

    #[test]
    fn https_links_open_another_site_and_paths_stay_here() {
        assert!(Link::new("Facebook", "https://facebook.com/demo").external);
        assert!(!Link::new("Stock", "/search/").external);
        let cfg = config_with(json!({
            "navigation": [{"label": "Stock", "children": [{"label": "All", "href": "/search/"}]},
                           {"label": "Blog", "href": "https://blog.demo.com.au"}],
        }));
        let nav = navigation(&cfg, &[], &[]);
        assert_eq!((nav[0].href.as_str(), nav[0].external), ("", false));
        assert!(nav[1].external);
        assert_eq!(nav[0].children[0].href, "/search/");
    }

    #[test]
    fn the_pre_owned_menu_lists_used_cars_by_make_and_demo_cars_without_counts() {
        use crate::pipeline::site_data::test_support::cars;
        let stock = cars(&[
            ("Mazda", "used"),
            ("Kia", "used"),
            ("Kia", "used"),
            ("Kia", "demo"),
            ("Kia", "new"),
        ]);
        let landings = crate::pipeline::search_index::landing_pages(&stock, "Demo");
        let cfg = config_with(
            json!({"navigation": [{"label": "Pre-owned Vehicles", "menu": "pre_owned"}]}),
        );
        let nav = navigation(&cfg, &stock, &landings);
        let links: Vec<(&str, &str)> = nav[0]
            .children
            .iter()
            .map(|l| (l.label.as_str(), l.href.as_str()))
            .collect();
        assert_eq!(
            links,
            [
                ("All pre-owned", "/search/used-cars/"),
                ("Used Kia", "/search/?refinementList%5Bcar_type%5D%5B0%5D=used&refinementList%5Bmake%5D%5B0%5D=Kia"),
                ("Used Mazda", "/search/?refinementList%5Bcar_type%5D%5B0%5D=used&refinementList%5Bmake%5D%5B0%5D=Mazda"),
                ("Demo vehicles", "/search/demo-cars/"),
            ]
        );
        assert_eq!(nav[0].menu, Some(NavMenu::PreOwned));
        // A car sold or added changes no label: the header of every page
        // stays the same.
        let fewer = cars(&[
            ("Mazda", "used"),
            ("Kia", "used"),
            ("Kia", "demo"),
            ("Kia", "demo"),
        ]);
        assert_eq!(
            serde_json::to_value(navigation(&cfg, &fewer, &landings)).unwrap(),
            serde_json::to_value(&nav).unwrap()
        );
        // Only new cars: no pre-owned menu at all rather than an empty one.
        let new_only = cars(&[("Kia", "new")]);
        assert!(navigation(&cfg, &new_only, &[]).is_empty());
    }

    #[test]
    fn the_pre_owned_menu_keeps_the_makes_with_most_used_cars_in_name_order() {
        use crate::pipeline::site_data::test_support::cars;
        let mut list: Vec<(&str, &str)> = Vec::new();
        // Nine makes; "Audi" has the fewest used cars and is left out.
        for (make, n) in [
            ("Volvo", 5),
            ("Audi", 1),
            ("Kia", 4),
            ("Mazda", 3),
            ("Ford", 2),
            ("Holden", 2),
            ("Isuzu", 2),
            ("Jeep", 2),
            ("Tesla", 2),
        ] {
            for _ in 0..n {
                list.push((make, "used"));
            }
        }
        let cfg = config_with(
            json!({"navigation": [{"label": "Pre-owned Vehicles", "menu": "pre_owned"}]}),
        );
        let nav = navigation(&cfg, &cars(&list), &[]);
        let labels: Vec<&str> = nav[0].children.iter().map(|l| l.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "All pre-owned",
                "Used Ford",
                "Used Holden",
                "Used Isuzu",
                "Used Jeep",
                "Used Kia",
                "Used Mazda",
                "Used Tesla",
                "Used Volvo"
            ]
        );
    }

    #[test]
    fn the_models_menu_falls_back_to_links_of_the_models_page_groups() {
        let cfg = config_with(json!({
            "manufacturer": "Toyota",
            "navigation": [{"label": "New Vehicles", "menu": "models"}],
            "models": [{"name": "HiLux", "body": "utes-vans", "image": "/m.svg"},
                       {"name": "RAV4", "body": "suvs-4wds", "image": "/m.svg"}],
        }));
        let nav = navigation(&cfg, &[], &[]);
        let hrefs: Vec<&str> = nav[0].children.iter().map(|l| l.href.as_str()).collect();
        assert_eq!(
            hrefs,
            ["/models/", "/models/#suvs-4wds", "/models/#utes-vans"]
        );
    }

    #[test]
    fn the_payments_strip_keeps_the_dealers_order() {
        let cfg = config_with(json!({"footer": {"payments": ["visa", "apple_pay"]}}));
        let p = footer(&cfg, 2026).payments;
        assert_eq!(
            p.iter()
                .map(|x| (x.key.as_str(), x.label.as_str()))
                .collect::<Vec<_>>(),
            [("visa", "Visa"), ("apple_pay", "Apple Pay")]
        );
    }

    #[test]
    fn social_links_keep_their_order_and_skip_unset_ones() {
        let cfg = config_with(
            json!({"social": {"youtube_url": "https://youtube.com/@demo",
                                                 "facebook_url": "https://facebook.com/demo"}}),
        );
        let labels: Vec<String> = social(&cfg).into_iter().map(|l| l.label).collect();
        assert_eq!(labels, ["Facebook", "YouTube"]);
    }

    #[test]
    fn the_copyright_names_the_legal_entity_when_there_is_one() {
        assert_eq!(
            footer(&config_with(json!({})), 2026).copyright,
            "© 2026 Demo"
        );
        let cfg = config_with(json!({"legal_name": "Demo Motors Pty Ltd"}));
        assert_eq!(footer(&cfg, 2027).copyright, "© 2027 Demo Motors Pty Ltd");
    }
}
