//! The page table: every page a build makes for a dealer, as site paths
//! (`/`, `/search/`, `/cars/{slug}/` ...), from the same data the page
//! routes of `astro-app/src/routes` enumerate in their `getStaticPaths`.
//! The build compares it with the pages Astro made both ways
//! (`run::astro::check_pages`): it fails on a page of the table Astro did
//! not make, and on a page Astro made that the table lacks. The sitemap,
//! the link check and `dealergen diff` read this list.

use crate::pipeline::site_data::SiteData;
use crate::pipeline::stock::present::Car;

/// Paths of the pages of one dealer's site, sorted.
pub fn page_paths(site: &SiteData, cars: &[Car]) -> Vec<String> {
    // Every page but the cars' and the search pages 2..n (site.pages,
    // site_data::pages::page_paths: the list the dealer's links are
    // settled against).
    let mut paths: Vec<String> = site.pages.clone();
    // The unfiltered search pages: page 1 is /search/ (as the pagination
    // of astro-app/src/lib/pagination.ts).
    let per_page = site.search.page_size.max(1) as usize;
    let pages = cars.len().div_ceil(per_page).max(1);
    paths.extend((2..=pages).map(|n| format!("/search/page/{n}/")));
    // And each landing page's pages 2..n (/search/toyota/page/2/, the
    // route search/[...landing].astro), so they page without JavaScript.
    for landing in &site.search.landing_pages {
        let pages = landing.count.div_ceil(per_page).max(1);
        paths.extend((2..=pages).map(|n| format!("/search/{}/page/{n}/", landing.path)));
    }
    paths.extend(cars.iter().map(|c| format!("/cars/{}/", c.slug)));
    // The online reservation of each car the dealer reserves online (the
    // route cars/[slug]/[checkout].astro, at `features.checkout.path`).
    paths.extend(
        cars.iter()
            .filter(|c| c.checkout)
            .map(|c| format!("/cars/{}/{}/", c.slug, site.features.checkout_path)),
    );
    paths.sort();
    paths.dedup();
    paths
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

    #[test]
    fn pages_follow_the_stock_the_locations_and_the_page_size() {
        let cfg = config_with(json!({"search": {"page_size": 2}}));
        let stock = cars(&[("Kia", "used"), ("Kia", "new"), ("Mazda", "used")]);
        let site = crate::pipeline::site_data::build("demo", &cfg, &stock, chrono::Utc::now());
        let paths = page_paths(&site, &stock);
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
        assert!(
            paths.contains(&"/search/new-used-and-demo-cars/page/2/".to_string()),
            "{paths:?}"
        );
        assert!(!paths.contains(&"/search/new-used-and-demo-cars/page/3/".to_string()));
        let empty = crate::pipeline::site_data::build("demo", &cfg, &[], chrono::Utc::now());
        assert!(
            !page_paths(&empty, &[])
                .iter()
                .any(|p| p.starts_with("/search/page/")),
            "no stock: the search page alone"
        );
    }

    #[test]
    fn dist_files_are_directory_indexes() {
        assert_eq!(dist_file("/"), "index.html");
        assert_eq!(dist_file("/cars/x-1/"), "cars/x-1/index.html");
    }
}
