//! Which pages a dealer's site has, and the company, service and legal
//! pages' content.
//!
//! `site.pages` lists every page path the build produces apart from the car
//! pages and the search result pages 2..n (the page table's
//! `link_targets`): a component links to a page of another module only
//! when its path is listed (`hasPage` in astro-app/src/lib/pages.ts), and
//! the links of the dealer file (menu, footer, promo tiles) are settled
//! against it here, so no link leads to a page this dealer does not have.

use std::collections::BTreeSet;

use dealer_config::content::MarkdownPage;
use dealer_config::model::{self, BuiltInPage, BUILT_IN_PAGES, GENUINE_SERVICE_PATH};
use dealer_config::DealerConfig;
use schemars::JsonSchema;
use serde::Serialize;

use super::{Link, Location};
use crate::pipeline::rich_text::markdown_html;

/// A company, service, legal or Markdown page.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ContentPage {
    /// Site path, e.g. "/about-us/" or "/pages/buyers-tips/".
    pub path: String,
    /// Page heading and title.
    pub title: String,
    /// Meta description.
    pub description: String,
    /// The dealer's wording (Markdown, sanitised); null: the built-in wording.
    pub body_html: Option<String>,
}

/// The company, service and legal pages; a page the dealer has off is null.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct CompanyPages {
    /// /about-us/
    pub about_us: Option<ContentPage>,
    /// /service/
    pub service: Option<ContentPage>,
    /// /genuine-service/: the on-site service booking page (when the dealer has no booking site).
    pub genuine_service: Option<ContentPage>,
    /// /roadside-assist/
    pub roadside_assist: Option<ContentPage>,
    /// /fleet/
    pub fleet: Option<ContentPage>,
    /// /warranty/
    pub warranty: Option<ContentPage>,
    /// /terms-and-conditions/ (always: every enquiry form links to it)
    pub terms_and_conditions: ContentPage,
    /// /privacy-policy/ (always: every enquiry form links to it)
    pub privacy_policy: ContentPage,
    /// /pages/complaint-handling-process/
    pub complaint_handling: Option<ContentPage>,
    /// The dealer's own pages at /pages/{slug}/, by path.
    pub markdown: Vec<ContentPage>,
    /// Book a Service: the dealer's booking site (external), else
    /// /genuine-service/; null when the dealer has neither.
    pub book_service: Option<Link>,
    /// Roadside assistance phone, as shown.
    pub roadside_phone: Option<String>,
    /// What the complaint-handling page tells an unhappy customer.
    pub complaints_text: String,
    /// Days within which a privacy complaint is answered.
    pub privacy_response_days: u32,
    /// Ids of the locations that service cars (the service pages list them).
    pub service_location_ids: Vec<String>,
}

/// Built-in description of a page, naming the dealer.
fn default_description(key: &str, name: &str) -> String {
    match key {
        "about_us" => format!("About {name}: who we are and where to find us."),
        "service" => format!("Servicing at {name}: service centres, opening hours and bookings."),
        "roadside_assist" => format!("Roadside assistance from {name}, 24 hours a day."),
        "fleet" => {
            format!("Fleet and business vehicles from {name}: one contact for your whole fleet.")
        }
        "warranty" => format!("Warranty on vehicles bought from {name}."),
        "terms_and_conditions" => format!("Terms of use of the {name} website."),
        "privacy_policy" => {
            format!("How {name} collects, uses and protects your personal information.")
        }
        "complaint_handling" => {
            format!("How {name} handles complaints, and where to go if we cannot resolve yours.")
        }
        _ => name.to_string(),
    }
}

fn page_for(b: &BuiltInPage, cfg: &DealerConfig, pages: &[MarkdownPage]) -> Option<ContentPage> {
    if !cfg.pages.is_on(b.key) {
        return None;
    }
    let md = pages.iter().find(|p| p.name == b.file);
    Some(ContentPage {
        path: b.path.to_string(),
        title: md
            .and_then(|m| m.title.clone())
            .unwrap_or_else(|| b.title.to_string()),
        description: md
            .and_then(|m| m.description.clone())
            .unwrap_or_else(|| default_description(b.key, &cfg.name)),
        body_html: md.map(|m| markdown_html(&m.body)),
    })
}

/// The dealer's one Book a Service link: its `service.booking_url`, else the
/// genuine service page while the service page is on, else none. The
/// header, the company pages and every service location card use this, so
/// no card links to a service page the dealer does not have.
pub fn book_service_link(cfg: &DealerConfig) -> Option<Link> {
    match &cfg.service.booking_url {
        Some(url) => Some(Link {
            label: "Book a Service".into(),
            href: url.clone(),
            external: true,
        }),
        None if cfg.pages.is_on("service") => Some(Link {
            label: "Book a Service".into(),
            href: GENUINE_SERVICE_PATH.into(),
            external: false,
        }),
        None => None,
    }
}

/// Resolves the page switches, the Markdown pages and the legal wording.
pub fn company_pages(
    cfg: &DealerConfig,
    pages: &[MarkdownPage],
    locations: &[Location],
) -> CompanyPages {
    let built_in = |key: &str| {
        let b = BUILT_IN_PAGES
            .iter()
            .find(|b| b.key == key)
            .expect("a built-in page");
        page_for(b, cfg, pages)
    };
    let service = built_in("service");
    let genuine_service = match (&service, &cfg.service.booking_url) {
        (Some(_), None) => Some(ContentPage {
            path: GENUINE_SERVICE_PATH.into(),
            title: "Book a service".into(),
            description: format!("Book a genuine service at {}.", cfg.name),
            body_html: None,
        }),
        _ => None,
    };
    let book_service = book_service_link(cfg);
    let mut markdown: Vec<ContentPage> = pages
        .iter()
        .filter(|p| model::PagesConfig::built_in_for_file(&p.name).is_none())
        .map(|p| ContentPage {
            path: p.site_path(),
            // The loader refused pages of their own without these.
            title: p.title.clone().unwrap_or_else(|| p.name.clone()),
            description: p.description.clone().unwrap_or_default(),
            body_html: Some(markdown_html(&p.body)),
        })
        .collect();
    markdown.sort_by(|a, b| a.path.cmp(&b.path));
    let service_location_ids = cfg
        .locations
        .iter()
        .filter(|l| l.kind == model::LocationKind::Service || l.hours.service.is_some())
        .map(|l| l.id.clone())
        .collect::<BTreeSet<_>>();
    CompanyPages {
        about_us: built_in("about_us"),
        service,
        genuine_service,
        roadside_assist: built_in("roadside_assist"),
        fleet: built_in("fleet"),
        warranty: built_in("warranty"),
        terms_and_conditions: built_in("terms_and_conditions").expect("always on"),
        privacy_policy: built_in("privacy_policy").expect("always on"),
        complaint_handling: built_in("complaint_handling"),
        markdown,
        book_service,
        roadside_phone: cfg.service.roadside_phone.clone(),
        complaints_text: cfg.legal.complaints_text.clone(),
        privacy_response_days: cfg.legal.privacy_response_days,
        // In the order the site lists locations (primary first).
        service_location_ids: locations
            .iter()
            .filter(|l| service_location_ids.contains(&l.id))
            .map(|l| l.id.clone())
            .collect(),
    }
}

impl CompanyPages {
    /// Every page of this group with its kind (the key of its field, e.g.
    /// "about_us"; "markdown" for the dealer's own pages).
    pub fn named(&self) -> impl Iterator<Item = (&'static str, &ContentPage)> {
        [
            ("about_us", self.about_us.as_ref()),
            ("service", self.service.as_ref()),
            ("genuine_service", self.genuine_service.as_ref()),
            ("roadside_assist", self.roadside_assist.as_ref()),
            ("fleet", self.fleet.as_ref()),
            ("warranty", self.warranty.as_ref()),
            ("terms_and_conditions", Some(&self.terms_and_conditions)),
            ("privacy_policy", Some(&self.privacy_policy)),
            ("complaint_handling", self.complaint_handling.as_ref()),
        ]
        .into_iter()
        .filter_map(|(kind, page)| page.map(|p| (kind, p)))
        .chain(self.markdown.iter().map(|p| ("markdown", p)))
    }
}

/// Pages the platform builds for some dealers (by configuration or stock):
/// a link to one this dealer lacks is left out with a warning. A link to
/// any other path is a mistake in the dealer file (a typo) and fails.
const KNOWN_PAGES: &[&str] = &[
    "/",
    "/search/",
    "/contact-us/",
    "/contact/",
    "/sign-in/",
    "/watchlist/",
    "/about-us/",
    "/service/",
    "/genuine-service/",
    "/roadside-assist/",
    "/fleet/",
    "/warranty/",
    "/terms-and-conditions/",
    "/privacy-policy/",
    "/special-offers/",
    "/models/",
    "/models/get-quote/",
    "/trade-in/",
    "/sell-your-car/",
    "/sell-my-car/",
    "/finance/",
    "/finance-enquiry/",
    "/apply-for-finance/",
    "/car-finance/",
    "/book-test-drive/",
    "/success/",
    "/locations/",
    "/blog/",
    "/vehicle-parts-and-accessories/",
    "/parts/",
    "/parts/search/",
    "/unsubscribe/",
    "/review-feedback/",
    "/customer-feedback-survey/",
    "/my-garage/",
];
/// Families of pages whose members depend on the stock or the dealer file.
const KNOWN_PREFIXES: &[&str] = &[
    "/search/",
    "/cars/",
    "/contact-us/",
    "/locations/",
    "/offers/",
    "/models/",
    "/pages/",
    "/teams/",
    "/blog/",
];

/// The page path an internal href points at ("/fleet" -> "/fleet/", query
/// and fragment cut), or None for a file ("/brochure.pdf") or an external link.
pub fn page_path_of(href: &str) -> Option<String> {
    if !href.starts_with('/') || href.starts_with("//") {
        return None;
    }
    let path = href.split(['?', '#']).next().unwrap_or("/");
    let last = path.rsplit('/').next().unwrap_or_default();
    if last.contains('.') {
        return None;
    }
    Some(if path.ends_with('/') {
        path.to_string()
    } else {
        format!("{path}/")
    })
}

/// The outcome of settling the dealer file's links against the site's pages.
#[derive(Debug, Default, PartialEq)]
pub struct Settled {
    /// Links left out: the page exists for other dealers, not this one.
    pub warnings: Vec<String>,
    /// Links to pages no dealer has (a typo), naming the YAML key.
    pub errors: Vec<String>,
}

/// Leaves out the menu, footer and promo tile links to pages this site
/// lacks (a menu without entries goes too) and reports links to paths
/// dealergen never builds.
pub fn settle_links(site: &mut super::SiteData, car_slugs: &BTreeSet<String>) -> Settled {
    let pages: BTreeSet<String> = site.pages.iter().cloned().collect();
    let mut out = Settled::default();
    // true: keep the link.
    let judge = |href: &str, label: &str, key: &str, out: &mut Settled| -> bool {
        let Some(path) = page_path_of(href) else {
            return true;
        };
        let exists = pages.contains(&path)
            || path
                .strip_prefix("/cars/")
                .and_then(|s| s.strip_suffix('/'))
                .is_some_and(|slug| car_slugs.contains(slug));
        if exists {
            return true;
        }
        let known = KNOWN_PAGES.contains(&path.as_str())
            || KNOWN_PREFIXES
                .iter()
                .any(|p| path.starts_with(p) && path.len() > p.len());
        if known {
            out.warnings.push(format!(
                "{key}: the link `{label}` ({href}) is left out: this site has no page {path}"
            ));
        } else {
            let hint = dealer_config::suggest::closest(&path, pages.iter().map(String::as_str))
                .map(|s| format!(" (did you mean {s}?)"))
                .unwrap_or_default();
            out.errors.push(format!(
                "{key}: `{label}` links to {href}, which is not a page of this site{hint}"
            ));
        }
        false
    };
    let mut nav = std::mem::take(&mut site.navigation);
    for (i, item) in nav.iter_mut().enumerate() {
        if !item.href.is_empty()
            && !judge(
                &item.href,
                &item.label,
                &format!("navigation[{i}].href"),
                &mut out,
            )
        {
            item.href.clear();
            item.external = false;
        }
        let mut j = 0;
        item.children.retain(|c| {
            let keep = judge(
                &c.href,
                &c.label,
                &format!("navigation[{i}].children[{j}].href"),
                &mut out,
            );
            j += 1;
            keep
        });
    }
    nav.retain(|item| !item.href.is_empty() || !item.children.is_empty());
    site.navigation = nav;
    for (i, group) in site.footer.groups.iter_mut().enumerate() {
        let mut j = 0;
        group.links.retain(|l| {
            let keep = judge(
                &l.href,
                &l.label,
                &format!("footer.groups[{i}].links[{j}].href"),
                &mut out,
            );
            j += 1;
            keep
        });
    }
    site.footer.groups.retain(|g| !g.links.is_empty());
    let mut i = 0;
    site.search.promo_tiles.retain(|t| {
        let keep = judge(
            &t.href,
            &t.alt,
            &format!("search.promo_tiles[{i}].href"),
            &mut out,
        );
        i += 1;
        keep
    });
    if page_path_of(&site.home.cta_href).is_some() {
        let (href, label) = (site.home.cta_href.clone(), site.home.cta_label.clone());
        let mut hero = Settled::default();
        if !judge(&href, &label, "home.cta_href", &mut hero) {
            // The hero button is the home page's one call to action: it must lead somewhere.
            out.errors.extend(hero.errors);
            out.errors.extend(
                hero.warnings
                    .into_iter()
                    .map(|w| w.replace("is left out", "cannot be left out")),
            );
        }
    }
    out
}

/// Whether `path` ("/cars/x/") matches a gated-route pattern
/// ("/cars/{slug}/checkout?car_id"): `{name}` matches one segment, the
/// query part and trailing slashes do not matter. The same rule as
/// isGatedPath in astro-app/src/lib/session.ts.
pub fn route_matches(pattern: &str, path: &str) -> bool {
    let trim = |p: &str| p.trim_end_matches('/').to_string();
    let pattern = trim(pattern.split('?').next().unwrap_or_default());
    let path = trim(path);
    let (a, b): (Vec<&str>, Vec<&str>) = (pattern.split('/').collect(), path.split('/').collect());
    a.len() == b.len()
        && a.iter().zip(&b).all(|(p, s)| {
            let placeholder = p.len() > 2 && p.starts_with('{') && p.ends_with('}');
            if placeholder {
                !s.is_empty()
            } else {
                p == s
            }
        })
}

/// Gated routes (docs/behaviour/content.md §2.5) that match no page of the site: gating
/// them would do nothing, so each is an error naming its YAML key.
pub fn unmatched_gated_routes(site: &super::SiteData, car_slugs: &BTreeSet<String>) -> Vec<String> {
    site.gated_routes
        .iter()
        .enumerate()
        .filter(|(_, route)| {
            !site.pages.iter().any(|p| route_matches(route, p))
                && !car_slugs.iter().any(|s| route_matches(route, &format!("/cars/{s}/")))
        })
        .map(|(i, route)| {
            format!("gated_routes[{i}]: `{route}` matches no page of this site, so gating it would do nothing; remove it, or list it once the page exists")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::site_data::test_support::{config_with, pages_from};
    use serde_json::json;

    #[test]
    fn gated_route_patterns_match_like_the_browser_gate() {
        assert!(route_matches(
            "/cars/{slug}/checkout",
            "/cars/2019-kia-rio-1/checkout/"
        ));
        assert!(route_matches("/cars/trade-in?car_id", "/cars/trade-in/"));
        assert!(route_matches("/pages/owners-club/", "/pages/owners-club"));
        assert!(!route_matches("/cars/{slug}/checkout", "/cars/x/"));
        assert!(!route_matches("/my-garage", "/my-garage/extra/"));
        let cfg = config_with(
            json!({"gated_routes": ["/pages/complaint-handling-process", "/cars/{slug}", "/my-garage", "/cars/{slug}/checkout"]}),
        );
        let site = crate::pipeline::site_data::build("demo", &cfg, &[], chrono::Utc::now());
        let slugs: BTreeSet<String> = ["c-1".to_string()].into();
        assert_eq!(
            unmatched_gated_routes(&site, &slugs),
            [
                "gated_routes[2]: `/my-garage` matches no page of this site, so gating it would do nothing; remove it, or list it once the page exists",
                "gated_routes[3]: `/cars/{slug}/checkout` matches no page of this site, so gating it would do nothing; remove it, or list it once the page exists",
            ]
        );
    }

    #[test]
    fn page_paths_of_hrefs() {
        assert_eq!(page_path_of("/fleet").as_deref(), Some("/fleet/"));
        assert_eq!(
            page_path_of("/search/?x=1#top").as_deref(),
            Some("/search/")
        );
        assert_eq!(page_path_of("/brochure.pdf"), None);
        assert_eq!(page_path_of("https://x.example/a"), None);
        assert_eq!(page_path_of("//x.example/a"), None);
    }

    #[test]
    fn pages_that_are_off_do_not_exist_and_markdown_pages_do() {
        let cfg = config_with(json!({"pages": {"fleet": true, "about_us": false}}));
        let md = pages_from(&[("buyers-tips", "---\ntitle: Buyers tips\ndescription: How to buy.\n---\n# Tips\n\nRead **this**.\n\n<script>x()</script>\n")]);
        let site = crate::pipeline::site_data::build_with_pages(
            "demo",
            &cfg,
            &[],
            &md,
            chrono::Utc::now(),
        );
        let paths = &site.pages;
        for want in [
            "/",
            "/fleet/",
            "/terms-and-conditions/",
            "/privacy-policy/",
            "/pages/complaint-handling-process/",
            "/pages/buyers-tips/",
            "/contact-us/site-c/",
        ] {
            assert!(
                paths.contains(&want.to_string()),
                "{want} missing from {paths:?}"
            );
        }
        for absent in [
            "/about-us/",
            "/service/",
            "/genuine-service/",
            "/warranty/",
            "/roadside-assist/",
        ] {
            assert!(!paths.contains(&absent.to_string()), "{absent} listed");
        }
        let tips = &site.company.markdown[0];
        assert_eq!(
            (tips.title.as_str(), tips.description.as_str()),
            ("Buyers tips", "How to buy.")
        );
        // The script block is dropped whole.
        assert_eq!(
            tips.body_html.as_deref(),
            Some("<h2>Tips</h2>\n<p>Read <strong>this</strong>.</p>\n\n")
        );
    }

    #[test]
    fn book_a_service_goes_to_the_booking_site_else_the_genuine_service_page() {
        let service_loc = json!([{"id": "s", "name": "Service Centre", "kind": "service", "primary": true, "phone": "(07) 3000 0001",
            "address": {"street": "1 A St", "suburb": "Brisbane", "state": "QLD", "postcode": "4000"}}]);
        let on = config_with(json!({"pages": {"service": true}, "locations": service_loc}));
        let site = crate::pipeline::site_data::build("demo", &on, &[], chrono::Utc::now());
        let book = site.company.book_service.as_ref().unwrap();
        assert_eq!(
            (book.href.as_str(), book.external),
            ("/genuine-service/", false)
        );
        assert!(site.pages.contains(&"/genuine-service/".to_string()));
        assert_eq!(site.company.service_location_ids, ["s"]);

        let external = config_with(json!({"pages": {"service": true}, "locations": service_loc,
            "service": {"booking_url": "https://book.example.com.au/"}}));
        let site = crate::pipeline::site_data::build("demo", &external, &[], chrono::Utc::now());
        let book = site.company.book_service.as_ref().unwrap();
        assert_eq!(
            (book.href.as_str(), book.external),
            ("https://book.example.com.au/", true)
        );
        assert!(
            site.company.genuine_service.is_none(),
            "no on-site booking page when the dealer books elsewhere"
        );

        let off = config_with(json!({}));
        assert!(
            crate::pipeline::site_data::build("demo", &off, &[], chrono::Utc::now())
                .company
                .book_service
                .is_none()
        );
    }

    #[test]
    fn links_to_missing_pages_are_left_out_and_typos_fail() {
        let cfg = config_with(json!({
            // No trade-in pages: /trade-in is a page other dealers have.
            "features": {"trade_in": false},
            "navigation": [
                {"label": "Models", "href": "/models/"},
                {"label": "Company", "children": [{"label": "About", "href": "/about-us"}, {"label": "Fleet", "href": "/fleet"}]},
                {"label": "Service", "children": [{"label": "Roadside", "href": "/roadside-assist"}]},
                {"label": "Blog", "href": "https://blog.example.com.au/"},
            ],
            "footer": {"groups": [
                {"title": "Legal", "links": [{"label": "Privacy", "href": "/privacy-policy"}, {"label": "Typo", "href": "/privacy-polcy"}]},
                {"title": "Gone", "links": [{"label": "Trade", "href": "/trade-in"}]},
            ]},
        }));
        let mut site = crate::pipeline::site_data::build("demo", &cfg, &[], chrono::Utc::now());
        let settled = settle_links(&mut site, &BTreeSet::new());
        let labels: Vec<(&str, Vec<&str>)> = site
            .navigation
            .iter()
            .map(|n| {
                (
                    n.label.as_str(),
                    n.children.iter().map(|c| c.label.as_str()).collect(),
                )
            })
            .collect();
        assert_eq!(labels, [("Company", vec!["About"]), ("Blog", vec![])]);
        let footer: Vec<&str> = site
            .footer
            .groups
            .iter()
            .flat_map(|g| g.links.iter().map(|l| l.label.as_str()))
            .collect();
        assert_eq!(footer, ["Privacy"]);
        insta::assert_snapshot!(settled.warnings.join("\n") + "\n--\n" + &settled.errors.join("\n"), @r"
        navigation[0].href: the link `Models` (/models/) is left out: this site has no page /models/
        navigation[1].children[1].href: the link `Fleet` (/fleet) is left out: this site has no page /fleet/
        navigation[2].children[0].href: the link `Roadside` (/roadside-assist) is left out: this site has no page /roadside-assist/
        footer.groups[1].links[0].href: the link `Trade` (/trade-in) is left out: this site has no page /trade-in/
        --
        footer.groups[0].links[1].href: `Typo` links to /privacy-polcy, which is not a page of this site (did you mean /privacy-policy/?)
        ");
    }
}
