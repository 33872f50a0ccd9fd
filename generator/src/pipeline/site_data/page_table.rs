//! The page table: every page a build makes for a dealer, one entry each,
//! with the kind of page it is (the route of `astro-app/src/routes` that
//! makes it) and what that route builds it from. The one list of which
//! pages exist:
//!
//! - the build writes it into the project's data (`src/data/pages.json`),
//!   and each route's `getStaticPaths` takes its paths from the entries of
//!   its kind (`pagesOf` in astro-app/src/lib/build-data.ts), so no route
//!   decides on its own which pages it makes;
//! - the build compares it with the pages Astro made both ways
//!   (`run::astro::check_pages`): a page of the table Astro did not make,
//!   or a page Astro made that the table lacks, fails the build;
//! - the sitemap, the link check and `dealergen diff` read its paths;
//! - `site.pages` (what a component and the dealer's links may point at)
//!   is its part that does not move with each car: every page but the
//!   cars', the checkouts and the search pages 2..n ([`link_targets`]).
//!
//! A new kind of page is a [`PageKind`] here and a route that reads it.

use std::collections::BTreeMap;

use dealer_config::model;
use schemars::JsonSchema;
use serde::Serialize;

use super::SiteData;
use crate::pipeline::stock::present::Car;

/// What a page is: the route of `astro-app/src/routes` that makes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PageKind {
    /// `/` (routes/index.astro).
    Home,
    /// `/search/` and its pages `/search/page/{n}/` (routes/search/index.astro, search/page/[page].astro).
    Search,
    /// A search landing page `/search/{key}/` and its pages 2..n (routes/search/[...landing].astro).
    Landing,
    /// A car's page `/cars/{key}/` (routes/cars/[slug].astro).
    Car,
    /// The online reservation of car `key` (routes/cars/[slug]/[checkout].astro).
    Checkout,
    /// `/contact-us/` (routes/contact-us/index.astro).
    Contact,
    /// Location `key`'s page `/contact-us/{key}/` (routes/contact-us/[slug].astro).
    Location,
    /// Location `key`'s page at `/locations/…/` (routes/locations/[slug].astro);
    /// the primary location also at `/locations/{dealer slug}/`.
    LocationAlias,
    /// A company, service or legal page at the site's root; `key` is its
    /// kind, e.g. "about_us" (routes/[company].astro).
    Company,
    /// A page under `/pages/`: the complaint-handling page (`key`
    /// "complaint_handling") or a dealer's own Markdown page (`key`
    /// "markdown") (routes/pages/[page].astro).
    ContentPage,
    /// A form page; `key` is its path (routes/[...form].astro).
    Form,
    /// `/special-offers/` (routes/special-offers/index.astro).
    SpecialOffers,
    /// An offer's page; `key` is its path (routes/offers/[...path].astro).
    Offer,
    /// `/models/` (routes/models/[...slug].astro).
    Models,
    /// Model `key`'s page `/models/{key}/` (routes/models/[...slug].astro).
    Model,
    /// A menu's cards, `/menus/{key}/` (routes/menus/[menu].astro).
    Menu,
    /// `/sign-in/` (routes/sign-in.astro).
    SignIn,
    /// `/watchlist/` (routes/watchlist.astro).
    Watchlist,
    /// `/compare/` (routes/compare.astro).
    Compare,
    /// `/favourites/` (routes/favourites.astro).
    Favourites,
}

/// One page of a dealer's site.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct PageEntry {
    /// Site path, e.g. "/cars/2021-kia-k4-bmg1/" or "/search/toyota/page/2/".
    pub path: String,
    /// What the page is: the route that makes it.
    pub kind: PageKind,
    /// What the route builds the page from, by kind: a car's, location's
    /// or model's slug, a landing page's, form page's or offer's path, a
    /// company page's kind, a menu's name; null for the other kinds.
    pub key: Option<String>,
    /// The page number of a search or landing page (1 for its first page); null for other kinds.
    pub n: Option<u32>,
}

impl PageEntry {
    fn new(path: impl Into<String>, kind: PageKind) -> Self {
        PageEntry {
            path: path.into(),
            kind,
            key: None,
            n: None,
        }
    }

    fn keyed(path: impl Into<String>, kind: PageKind, key: impl Into<String>) -> Self {
        PageEntry {
            key: Some(key.into()),
            ..PageEntry::new(path, kind)
        }
    }

    fn numbered(path: impl Into<String>, kind: PageKind, key: Option<&str>, n: usize) -> Self {
        PageEntry {
            key: key.map(String::from),
            n: Some(n as u32),
            ..PageEntry::new(path, kind)
        }
    }
}

/// The pages that do not move with each car: all but the cars', the
/// checkouts and the search and landing pages 2..n.
fn fixed(site: &SiteData) -> Vec<PageEntry> {
    use PageKind::*;
    let mut pages = vec![
        PageEntry::new("/", Home),
        PageEntry::numbered("/search/", Search, None, 1),
        PageEntry::new("/contact-us/", Contact),
        PageEntry::new("/sign-in/", SignIn),
        PageEntry::new("/watchlist/", Watchlist),
        PageEntry::new("/compare/", Compare),
        PageEntry::new("/favourites/", Favourites),
        PageEntry::new("/special-offers/", SpecialOffers),
    ];
    for l in &site.locations {
        pages.push(PageEntry::keyed(
            format!("/contact-us/{}/", l.slug),
            Location,
            &l.slug,
        ));
        pages.push(PageEntry::keyed(
            format!("/locations/{}/", l.slug),
            LocationAlias,
            &l.slug,
        ));
    }
    // The older platform's address of the primary location, under the
    // dealer's own slug, unless a location has that slug already.
    if let Some(primary) = site.locations.first() {
        if !site.locations.iter().any(|l| l.slug == site.slug) {
            pages.push(PageEntry::keyed(
                format!("/locations/{}/", site.slug),
                LocationAlias,
                &primary.slug,
            ));
        }
    }
    pages.extend(
        site.search.landing_pages.iter().map(|l| {
            PageEntry::numbered(format!("/search/{}/", l.path), Landing, Some(&l.path), 1)
        }),
    );
    for (kind, page) in site.company.named() {
        let route = if page.path.starts_with("/pages/") {
            ContentPage
        } else {
            Company
        };
        pages.push(PageEntry::keyed(page.path.clone(), route, kind));
    }
    pages.extend(
        site.forms
            .pages
            .iter()
            .map(|p| PageEntry::keyed(format!("/{}/", p.path), Form, &p.path)),
    );
    pages.extend(
        site.content
            .offers
            .items
            .iter()
            .map(|o| PageEntry::keyed(o.path.clone(), Offer, &o.path)),
    );
    if !site.content.models.is_empty() {
        pages.push(PageEntry::new("/models/", Models));
    }
    pages.extend(site.content.models.iter().filter_map(|m| {
        m.page
            .as_ref()
            .map(|path| PageEntry::keyed(path.clone(), Model, &m.slug))
    }));
    if site
        .navigation
        .iter()
        .any(|n| n.menu == Some(model::NavMenu::Models))
    {
        pages.push(PageEntry::keyed("/menus/models/", Menu, "models"));
    }
    pages
}

/// Every page of one dealer's site, sorted by path; `cars` are the cars
/// the site shows. Two pages at one path (a form page put at a company
/// page's address, say) are an error naming both: two routes would make
/// the same file.
pub fn table(site: &SiteData, cars: &[Car]) -> anyhow::Result<Vec<PageEntry>> {
    use PageKind::*;
    let mut pages = fixed(site);
    // The unfiltered search pages 2..n (page 1 is /search/) and each
    // landing page's, so they page without JavaScript.
    let per_page = site.search.page_size.max(1) as usize;
    let count = |cars: usize| cars.div_ceil(per_page).max(1);
    pages.extend(
        (2..=count(cars.len()))
            .map(|n| PageEntry::numbered(format!("/search/page/{n}/"), Search, None, n)),
    );
    for landing in &site.search.landing_pages {
        pages.extend((2..=count(landing.count)).map(|n| {
            PageEntry::numbered(
                format!("/search/{}/page/{n}/", landing.path),
                Landing,
                Some(&landing.path),
                n,
            )
        }));
    }
    pages.extend(
        cars.iter()
            .map(|c| PageEntry::keyed(format!("/cars/{}/", c.slug), Car, &c.slug)),
    );
    // The online reservation of each car the dealer reserves online, at
    // `features.checkout.path`.
    pages.extend(cars.iter().filter(|c| c.checkout).map(|c| {
        PageEntry::keyed(
            format!("/cars/{}/{}/", c.slug, site.features.checkout_path),
            Checkout,
            &c.slug,
        )
    }));
    let mut seen: BTreeMap<&str, &PageEntry> = BTreeMap::new();
    for p in &pages {
        if let Some(first) = seen.insert(&p.path, p) {
            anyhow::bail!(
                "two pages at {}: the {:?} page and the {:?} page ({}); give one of them another address",
                p.path,
                first.kind,
                p.kind,
                p.key.as_deref().unwrap_or("-")
            );
        }
    }
    Ok(by_path(pages))
}

/// The paths a component or a dealer's link may point at (`site.pages`):
/// every page but the cars', the checkouts and the search pages 2..n, sorted.
pub fn link_targets(site: &SiteData) -> Vec<String> {
    by_path(fixed(site)).into_iter().map(|p| p.path).collect()
}

/// The entries sorted by path, each path once (the first listed keeps a
/// path two claim; [`table`] refuses such a site).
fn by_path(pages: Vec<PageEntry>) -> Vec<PageEntry> {
    let mut out: BTreeMap<String, PageEntry> = BTreeMap::new();
    for p in pages {
        out.entry(p.path.clone()).or_insert(p);
    }
    out.into_values().collect()
}

/// The paths of `table`.
pub fn paths(table: &[PageEntry]) -> Vec<String> {
    table.iter().map(|p| p.path.clone()).collect()
}

/// The file of a page in `dist/` (Astro's directory format).
pub fn dist_file(path: &str) -> String {
    let inner = path.trim_matches('/');
    if inner.is_empty() {
        "index.html".into()
    } else {
        format!("{inner}/index.html")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::site_data::test_support::{cars, config_with};
    use serde_json::json;

    fn entry<'a>(table: &'a [PageEntry], path: &str) -> &'a PageEntry {
        table
            .iter()
            .find(|p| p.path == path)
            .unwrap_or_else(|| panic!("{path} missing: {table:?}"))
    }

    #[test]
    fn pages_follow_the_stock_the_locations_and_the_page_size() {
        let cfg = config_with(json!({"search": {"page_size": 2}}));
        let stock = cars(&[("Kia", "used"), ("Kia", "new"), ("Mazda", "used")]);
        let site = crate::pipeline::site_data::build("demo", &cfg, &stock, chrono::Utc::now());
        let table = table(&site, &stock).unwrap();
        let paths = paths(&table);
        for p in [
            "/",
            "/search/",
            "/search/page/2/",
            "/cars/c-0/",
            "/cars/c-2/",
            "/contact-us/",
            "/sign-in/",
            "/watchlist/",
        ] {
            assert!(paths.contains(&p.to_string()), "{p} missing: {paths:?}");
        }
        assert!(!paths.contains(&"/search/page/3/".to_string()));
        assert_eq!(
            paths
                .iter()
                .filter(|p| p.starts_with("/contact-us/"))
                .count(),
            4,
            "the index and one page per location: {paths:?}"
        );
        assert!(paths.iter().any(|p| p == "/search/kia/"), "{paths:?}");
        // Two Kias at two a page: one page; three cars of every type: two.
        assert!(!paths.contains(&"/search/kia/page/2/".to_string()));
        let second = entry(&table, "/search/new-used-and-demo-cars/page/2/");
        assert_eq!(
            (second.kind, second.key.as_deref(), second.n),
            (PageKind::Landing, Some("new-used-and-demo-cars"), Some(2)),
            "a landing page's page 2 names its landing page and its number"
        );
        assert!(!paths.contains(&"/search/new-used-and-demo-cars/page/3/".to_string()));
        let car = entry(&table, "/cars/c-0/");
        assert_eq!((car.kind, car.key.as_deref()), (PageKind::Car, Some("c-0")));
        assert_eq!(entry(&table, "/search/page/2/").n, Some(2));
        let mut sorted = paths.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(paths, sorted, "sorted, each path once");
        let empty = crate::pipeline::site_data::build("demo", &cfg, &[], chrono::Utc::now());
        assert!(
            !self::paths(&super::table(&empty, &[]).unwrap())
                .iter()
                .any(|p| p.starts_with("/search/page/")),
            "no stock: the search page alone"
        );
    }

    #[test]
    fn link_targets_are_the_table_without_the_pages_that_move_with_each_car() {
        let cfg = config_with(json!({"search": {"page_size": 1}}));
        let stock = cars(&[("Kia", "used"), ("Mazda", "used")]);
        let site = crate::pipeline::site_data::build("demo", &cfg, &stock, chrono::Utc::now());
        let all = table(&site, &stock).unwrap();
        let moving = |p: &PageEntry| {
            matches!(p.kind, PageKind::Car | PageKind::Checkout) || p.n.is_some_and(|n| n > 1)
        };
        let expected: Vec<String> = all
            .iter()
            .filter(|p| !moving(p))
            .map(|p| p.path.clone())
            .collect();
        assert!(all.iter().any(moving), "the fixture has cars and page 2s");
        assert_eq!(site.pages, expected);
        assert_eq!(link_targets(&site), expected);
    }

    #[test]
    fn a_build_must_contain_every_content_page_under_its_kind() {
        let cfg = config_with(json!({
            "offers": [{"id": "eofy", "name": "EOFY", "description": "Cheap", "manufacturer": "Kia"}],
            "models": [{"name": "EV5", "manufacturer": "Kia", "body": "electrified", "image": "/m.svg"},
                       {"name": "EV9", "manufacturer": "Kia", "body": "electrified", "image": "/m.svg", "override_url": "https://kia.example.com/ev9"}],
            "navigation": [{"label": "New Vehicles", "menu": "models"}],
        }));
        let site = crate::pipeline::site_data::build("demo", &cfg, &[], chrono::Utc::now());
        let table = table(&site, &[]).unwrap();
        use PageKind::*;
        for (path, kind, key) in [
            ("/special-offers/", SpecialOffers, None),
            ("/offers/kia/eofy/", Offer, Some("/offers/kia/eofy/")),
            ("/models/", Models, None),
            ("/models/ev5/", Model, Some("ev5")),
            ("/contact-us/site-c/", Location, Some("site-c")),
            ("/locations/site-a/", LocationAlias, Some("site-a")),
            ("/menus/models/", Menu, Some("models")),
            ("/about-us/", Company, Some("about_us")),
            ("/privacy-policy/", Company, Some("privacy_policy")),
            (
                "/pages/complaint-handling-process/",
                ContentPage,
                Some("complaint_handling"),
            ),
            ("/compare/", Compare, None),
        ] {
            let e = entry(&table, path);
            assert_eq!((e.kind, e.key.as_deref()), (kind, key), "{path}");
        }
        // The primary location (listed first) also under the dealer's slug.
        let primary = site.locations[0].slug.as_str();
        let alias = entry(&table, "/locations/demo/");
        assert_eq!(
            (alias.kind, alias.key.as_deref()),
            (LocationAlias, Some(primary))
        );
        assert!(
            !table.iter().any(|p| p.path.contains("ev9")),
            "an override URL has no page of its own"
        );
        let bare = crate::pipeline::site_data::build(
            "demo",
            &crate::pipeline::site_data::test_support::config(),
            &[],
            chrono::Utc::now(),
        );
        assert!(!super::table(&bare, &[])
            .unwrap()
            .iter()
            .any(|p| p.path.starts_with("/models/") || p.path.starts_with("/menus/")));
    }

    #[test]
    fn two_pages_at_one_address_are_refused_naming_both() {
        // The success page put where the About us page is.
        let cfg = config_with(json!({"forms": {"success_path": "/about-us"}}));
        let site = crate::pipeline::site_data::build("demo", &cfg, &[], chrono::Utc::now());
        let err = table(&site, &[]).unwrap_err().to_string();
        assert!(
            err.contains("two pages at /about-us/")
                && err.contains("Company")
                && err.contains("Form"),
            "{err}"
        );
    }

    #[test]
    fn dist_files_are_directory_indexes() {
        assert_eq!(dist_file("/"), "index.html");
        assert_eq!(dist_file("/cars/x-1/"), "cars/x-1/index.html");
    }
}
