//! `_redirects` (Cloudflare's format: `from to status`): a car sold before
//! its window has no page any more, but search engines and shoppers'
//! bookmarks still ask for it; it answers 301 with the closest search
//! instead of a 404: its make and model's landing page, else its make's,
//! else the whole stock. And the addresses of pages the platform no
//! longer builds ([`retired_pages`]).

use std::collections::HashSet;

use crate::pipeline::search_index::slugify;
pub use crate::pipeline::stock::GoneCar;

/// Cloudflare Pages reads at most 2,000 static redirects.
pub const MAX_REDIRECTS: usize = 2_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    pub from: String,
    pub to: String,
    pub status: u16,
}

/// The redirects of sold-and-gone cars: both `/cars/{slug}` and
/// `/cars/{slug}/` (the CDN matches paths as written). `landing_paths` are
/// the search landing pages ("kia", "kia/rio"); `live_slugs` the cars with a
/// page (a slug sold once and listed again keeps its page). Returns the
/// redirects and how many gone cars did not fit under [`MAX_REDIRECTS`].
pub fn sold_cars(
    gone: &[GoneCar],
    landing_paths: &HashSet<String>,
    live_slugs: &HashSet<&str>,
    room: usize,
) -> (Vec<Redirect>, usize) {
    let mut cars: Vec<&GoneCar> = gone
        .iter()
        .filter(|c| !live_slugs.contains(c.slug.as_str()))
        .collect();
    // Newest sales first: they are the ones still linked from elsewhere.
    cars.sort_by(|a, b| b.sold_at.cmp(&a.sold_at).then_with(|| a.slug.cmp(&b.slug)));
    let mut seen = HashSet::new();
    cars.retain(|c| seen.insert(c.slug.as_str()));
    // Two rules a car, within the static rules `room` leaves.
    let fit = room.min(MAX_REDIRECTS) / 2;
    let left_out = cars.len().saturating_sub(fit);
    let redirects = cars
        .into_iter()
        .take(fit)
        .flat_map(|car| {
            both_forms(
                &format!("/cars/{}", car.slug),
                &search_for(car, landing_paths),
            )
        })
        .collect();
    (redirects, left_out)
}

/// Cloudflare reads at most 100 dynamic redirects (with a `*` splat), besides
/// the static ones.
pub const MAX_DYNAMIC_REDIRECTS: usize = 100;

/// Pages the platform built once and no longer does, answered with the
/// page that took their place: a car's print page (`/cars/{slug}/print/`)
/// is the car page's print style now (docs/behaviour/car-page.md §2 asks for print, not for
/// a second page per car: a third of every build's pages). Dynamic rules
/// (`*` in `from`, `:splat` in `to`), after the static ones.
pub fn retired_pages() -> Vec<Redirect> {
    ["/cars/*/print/", "/cars/*/print"]
        .into_iter()
        .map(|from| Redirect {
            from: from.into(),
            to: "/cars/:splat/".into(),
            status: 301,
        })
        .collect()
}

/// The old platform's addresses (docs/behaviour/car-page.md and 002, "Routes") that are not
/// pages here, each with the pages that took its place, best first: a
/// dealer moving onto this platform keeps its inbound links and search
/// rankings. An address this site has as a page is left alone, and one
/// whose successors this site lacks gets no rule (the link check holds the
/// rules to pages that exist). A feature the dealer turned off keeps its
/// addresses answering (no trade-in: where "Sell My Car" points; no
/// models: the new-car search). Addresses that carry their meaning in the
/// query string (`/print?car_id=`, `/checkout-journey?car_id=`,
/// `/models?body=`) cannot be told apart by `_redirects`, which matches
/// paths only: the site worker's script answers those
/// (templates/site-worker/worker.mjs, docs/deploy.md).
const LEGACY: &[(&str, &[&str])] = &[
    ("/contact", &["/contact-us/"]),
    ("/finance", &["/apply-for-finance/", "/contact-us/"]),
    (
        "/finance-enquiry",
        &["/finance/", "/apply-for-finance/", "/contact-us/"],
    ),
    ("/apply-for-finance", &["/finance/", "/contact-us/"]),
    (
        "/car-finance",
        &["/finance/", "/apply-for-finance/", "/contact-us/"],
    ),
    ("/used-car/list", &["/search/used-cars/", "/search/"]),
    ("/used-car/new-cars", &["/search/new-cars/", "/search/"]),
    (
        "/new-used-and-demo-cars",
        &["/search/new-used-and-demo-cars/", "/search/"],
    ),
    ("/models", &["/search/new-cars/", "/search/"]),
    ("/models/get-quote", &["/models/", "/contact-us/"]),
    (
        "/vehicle-parts-and-accessories",
        &["/parts/", "/service/", "/contact-us/"],
    ),
    ("/parts/search", &["/parts/", "/service/", "/contact-us/"]),
    ("/warranty", &["/service/", "/about-us/", "/contact-us/"]),
    ("/roadside-assist", &["/service/", "/contact-us/"]),
    ("/genuine-service", &["/service/", "/contact-us/"]),
    ("/fleet", &["/contact-us/"]),
    ("/book-test-drive", &["/contact-us/"]),
    ("/trade-in", &["/contact-us/"]),
    ("/cars/trade-in", &["/trade-in/", "/contact-us/"]),
    (
        "/pages/complaint-handling",
        &["/pages/complaint-handling-process/", "/contact-us/"],
    ),
    (
        "/pages/handling-complaint",
        &["/pages/complaint-handling-process/", "/contact-us/"],
    ),
    ("/pages/unsubscribe", &["/unsubscribe/"]),
    (
        "/pages/customer-feedback-survey",
        &["/customer-feedback-survey/"],
    ),
];

/// Old address folders whose pages have no counterpart one by one (a team
/// member's page, a blog post): each folder goes to one page. Dynamic rules.
const LEGACY_FOLDERS: &[(&str, &[&str])] = &[
    ("/teams/*", &["/about-us/", "/contact-us/"]),
    // Its targets: the dealer's blog, else the home page (`OldPlatform::blog`).
    ("/blog/*", &[]),
];

/// A model as its old addresses need it.
#[derive(Debug, Clone, Default)]
pub struct OldModel<'a> {
    pub slug: String,
    /// "Explore" when it is not the model's page (the override URL).
    pub explore: Option<&'a str>,
    /// "View accessories" (`accessories_url`, else the parts page).
    pub accessories: Option<&'a str>,
}

/// What of the dealer's site decides its old addresses' rules.
#[derive(Debug, Clone, Default)]
pub struct OldPlatform<'a> {
    /// A single-manufacturer dealer's make: its old model pages were
    /// `/models/{make}-{model}`.
    pub manufacturer: Option<&'a str>,
    /// Where "Sell My Car" points (`sell_your_car.href`): the old sell-my-car
    /// addresses go there.
    pub sell_my_car: &'a str,
    /// The success page (`forms.success_path`).
    pub success: &'a str,
    /// The car pages' checkout segment, none without checkout.
    pub checkout: Option<&'a str>,
    /// The models, with their "Explore" and "View accessories" addresses.
    pub models: Vec<OldModel<'a>>,
    /// The dealer's blog (`blog.href`): the old /blog addresses go there.
    pub blog: Option<&'a str>,
}

/// Redirects of the old platform's addresses for a site whose pages are
/// `pages` (site paths with their trailing slash). A single-manufacturer
/// dealer's old model pages (`/models/toyota-corolla`) go to the model's
/// page (`/models/corolla/`); the old "Explore {model}" (`/{model}`) and
/// "View Accessories" (`/{model}/accessories`) addresses to the model's
/// page (or its override), and the parts page for accessories where the
/// dealer has one. Static rules first, then the dynamic ones.
pub fn legacy_addresses(pages: &HashSet<String>, site: &OldPlatform) -> Vec<Redirect> {
    let first = |targets: &[&str]| -> Option<String> {
        targets
            .iter()
            .find(|t| is_target(pages, t))
            .map(|t| t.to_string())
    };
    let taken = |from: &str| pages.contains(&format!("{from}/")) || pages.contains(from);
    let mut out: Vec<Redirect> = Vec::new();
    let add = |out: &mut Vec<Redirect>, from: &str, to: Option<String>| {
        if let Some(to) = to.filter(|_| !taken(from)) {
            if !out.iter().any(|r| r.from == from) {
                out.extend(both_forms(from, &to));
            }
        }
    };
    // "Sell My Car" first: the dealer's own page for it, else the platform's.
    let sell = [site.sell_my_car, "/trade-in/", "/contact-us/"];
    for from in ["/sell-your-car", "/sell-my-car"] {
        add(&mut out, from, first(&sell));
    }
    if site.sell_my_car != "/trade-in/" {
        add(&mut out, "/trade-in", first(&sell));
    }
    add(&mut out, "/success", first(&[site.success]));
    // The blog where the dealer has one, else the home page.
    let blog = [site.blog.unwrap_or("/"), "/"];
    add(&mut out, "/blog", first(&blog));
    for (from, targets) in LEGACY {
        add(&mut out, from, first(targets));
    }
    if let Some(make) = site.manufacturer.map(slugify).filter(|m| !m.is_empty()) {
        let mut models: Vec<&String> = pages
            .iter()
            .filter(|p| {
                p.strip_prefix("/models/")
                    .and_then(|rest| rest.strip_suffix('/'))
                    .is_some_and(|slug| !slug.is_empty() && !slug.contains('/'))
            })
            .collect();
        models.sort();
        for page in models {
            let slug = &page["/models/".len()..page.len() - 1];
            add(
                &mut out,
                &format!("/models/{make}-{slug}"),
                Some(page.clone()),
            );
        }
    }
    for model in &site.models {
        let slug = &model.slug;
        let page = format!("/models/{slug}/");
        let to = model
            .explore
            .map(String::from)
            .or_else(|| first(&[page.as_str()]));
        add(&mut out, &format!("/{slug}"), to);
        // The model's accessories (its own address, else the parts page), else the model's page.
        let accessories = [
            model.accessories.unwrap_or("/parts/"),
            "/parts/",
            page.as_str(),
        ];
        add(
            &mut out,
            &format!("/{slug}/accessories"),
            first(&accessories),
        );
    }
    for (from, targets) in LEGACY_FOLDERS {
        let targets = if *from == "/blog/*" {
            &blog[..]
        } else {
            targets
        };
        if let Some(to) = first(targets) {
            out.push(Redirect {
                from: from.to_string(),
                to,
                status: 301,
            });
        }
    }
    // A checkout under another name (or none): the car's page, whose
    // button leads on. Each address form, as the CDN matches them.
    if site.checkout != Some("checkout") {
        for from in ["/cars/*/checkout", "/cars/*/checkout/"] {
            out.push(Redirect {
                from: from.into(),
                to: "/cars/:splat/".into(),
                status: 301,
            });
        }
    }
    out
}

/// A page of the site, or an address off it.
fn is_target(pages: &HashSet<String>, to: &str) -> bool {
    to.starts_with("https://") || pages.contains(to)
}

/// Whether the rule matches many paths (`*` or `:name`): its target is a
/// pattern, not a page the link check can look for.
pub fn is_dynamic(r: &Redirect) -> bool {
    dealer_config::redirect_rules::is_dynamic(&r.from)
}

/// A problem with one of the dealer's `redirects`: its index, the key
/// (`from` or `to`) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealerRedirectProblem {
    pub index: usize,
    pub key: &'static str,
    pub message: String,
}

/// The dealer's own redirects, as they are written: the CDN's `_redirects`
/// lines, and the query-string ones the site worker's script answers
/// (`/query-redirects.json`).
#[derive(Debug, Clone, Default)]
pub struct DealerRules {
    pub redirects: Vec<Redirect>,
    pub query: Vec<dealer_config::redirect_rules::QueryRule>,
}

/// The dealer's own redirects (`redirects:`; their form is checked with
/// the dealer file, config/src/check/redirects.rs) against the site's
/// `pages` (every page path, with its slash): a target on this site must be
/// one of them, and a `from` must not take a page's address (its path, or
/// the path without the slash the CDN adds; for a query-string address,
/// its path: every visit of that page would run the site worker's script).
pub fn dealer_redirects(
    rules: &[dealer_config::model::DealerRedirect],
    pages: &HashSet<String>,
) -> Result<DealerRules, Vec<DealerRedirectProblem>> {
    use dealer_config::redirect_rules::{placeholders, query_from, QueryRule, RuleSet};
    let mut problems = Vec::new();
    let mut sorted: Vec<&String> = pages.iter().collect();
    sorted.sort();
    for (index, r) in rules.iter().enumerate() {
        let mut problem = |key, message| {
            problems.push(DealerRedirectProblem {
                index,
                key,
                message,
            })
        };
        if let Some(Ok((path, _))) = query_from(&r.from) {
            if let Some(page) = [format!("{path}/"), path.clone()]
                .into_iter()
                .find(|p| pages.contains(p))
            {
                problem(
                    "from",
                    format!("`{}`: {page} is a page of this site, and its query is the page's own (every visit would run the site worker's script)", r.from),
                );
            }
        } else {
            let one = RuleSet::parse(&format!("{} /x 301\n", r.from));
            if let Some(page) = sorted
                .iter()
                .find(|p| one.find(p).is_some() || one.find(p.trim_end_matches('/')).is_some())
            {
                problem(
                    "from",
                    format!("`{}` is the address of this site's page {page}: the redirect would take the page away", r.from),
                );
            }
        }
        if r.to.starts_with("https://") || !placeholders(&r.to).is_empty() {
            continue;
        }
        let path = dealer_config::redirect_rules::target_path(&r.to);
        if !pages.contains(path) {
            let with_slash = format!("{path}/");
            let message = if pages.contains(&with_slash) {
                format!("`{path}` is the page {with_slash} without its slash (one more hop): write `{with_slash}`")
            } else {
                format!("`{path}` is not a page of this site")
            };
            problem("to", message);
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut out = DealerRules::default();
    for r in rules {
        match query_from(&r.from) {
            Some(Ok((path, query))) => out.query.push(QueryRule {
                path,
                query,
                to: r.to.clone(),
                status: r.status,
            }),
            _ => out.redirects.push(Redirect {
                from: r.from.clone(),
                to: r.to.clone(),
                status: r.status,
            }),
        }
    }
    Ok(out)
}

/// The site worker's table of query-string redirects
/// (`/query-redirects.json`, read by templates/site-worker/worker.mjs and
/// `dealergen migrate-check`): its paths, each with and without the slash
/// (the script runs first for them), and the rules in the dealer's order.
pub fn query_table(rules: &[dealer_config::redirect_rules::QueryRule]) -> serde_json::Value {
    serde_json::json!({ "paths": query_paths(rules), "rules": rules })
}

/// The paths the site worker's script must run first for to answer
/// `rules`: each rule's path with and without the slash, once each.
pub fn query_paths(rules: &[dealer_config::redirect_rules::QueryRule]) -> Vec<String> {
    let mut paths: Vec<String> = Vec::new();
    for r in rules {
        for p in [r.path.clone(), format!("{}/", r.path)] {
            if !paths.contains(&p) {
                paths.push(p);
            }
        }
    }
    paths
}

/// The query-string redirects a built site in `dist` holds
/// (`/query-redirects.json`); none without the file.
pub fn read_query_table(dist: &std::path::Path) -> Vec<dealer_config::redirect_rules::QueryRule> {
    std::fs::read_to_string(dist.join(QUERY_TABLE_FILE))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|t| serde_json::from_value(t["rules"].clone()).ok())
        .unwrap_or_default()
}

/// The file the site worker's script reads its query-string redirects from.
pub const QUERY_TABLE_FILE: &str = "query-redirects.json";

/// 301s of `from` and `from/` to `to`: the CDN matches paths as written.
fn both_forms(from: &str, to: &str) -> [Redirect; 2] {
    [from.to_string(), format!("{from}/")].map(|from| Redirect {
        from,
        to: to.to_string(),
        status: 301,
    })
}

/// The closest search landing page of a car.
fn search_for(car: &GoneCar, landing_paths: &HashSet<String>) -> String {
    let make = slugify(&car.make);
    let model = format!("{make}/{}", slugify(&car.model));
    if landing_paths.contains(&model) {
        format!("/search/{model}/")
    } else if landing_paths.contains(&make) {
        format!("/search/{make}/")
    } else {
        "/search/".into()
    }
}

/// The `_redirects` file.
pub fn render(redirects: &[Redirect]) -> String {
    let mut out = String::from(
        "# Generated by dealergen: the dealer's own redirects (`redirects:` in its file) first; cars sold before the dealer's window go to the closest search; retired pages go to their successors.\n",
    );
    for r in redirects {
        out.push_str(&format!("{} {} {}\n", r.from, r.to, r.status));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gone(slug: &str, make: &str, model: &str, sold_at: i64) -> GoneCar {
        GoneCar {
            slug: slug.into(),
            make: make.into(),
            model: model.into(),
            sold_at: Some(sold_at),
        }
    }

    #[test]
    fn a_gone_car_goes_to_its_model_else_its_make_else_all_stock() {
        let landings: HashSet<String> = ["kia", "kia/rio", "mazda"].map(String::from).into();
        let cars = [
            gone("2019-kia-rio-1", "Kia", "Rio", 3),
            gone("2018-mazda-cx-5-2", "Mazda", "CX-5", 2),
            gone("2017-holden-barina-3", "Holden", "Barina", 1),
        ];
        let (redirects, left_out) = sold_cars(&cars, &landings, &HashSet::new(), MAX_REDIRECTS);
        assert_eq!(left_out, 0);
        insta::assert_snapshot!(render(&redirects), @r"
        # Generated by dealergen: the dealer's own redirects (`redirects:` in its file) first; cars sold before the dealer's window go to the closest search; retired pages go to their successors.
        /cars/2019-kia-rio-1 /search/kia/rio/ 301
        /cars/2019-kia-rio-1/ /search/kia/rio/ 301
        /cars/2018-mazda-cx-5-2 /search/mazda/ 301
        /cars/2018-mazda-cx-5-2/ /search/mazda/ 301
        /cars/2017-holden-barina-3 /search/ 301
        /cars/2017-holden-barina-3/ /search/ 301
        ");
    }

    #[test]
    fn a_slug_with_a_page_is_never_redirected_and_the_newest_sales_fit() {
        let cars: Vec<GoneCar> = (0..1_200)
            .map(|i| gone(&format!("car-{i}"), "Kia", "Rio", i))
            .chain([gone("live", "Kia", "Rio", 5_000)])
            .collect();
        let live: HashSet<&str> = ["live"].into();
        let (redirects, left_out) = sold_cars(&cars, &HashSet::new(), &live, MAX_REDIRECTS);
        assert_eq!(redirects.len(), MAX_REDIRECTS);
        assert_eq!(left_out, 200);
        assert!(redirects.iter().all(|r| !r.from.contains("/live")));
        assert_eq!(redirects[0].from, "/cars/car-1199", "newest sale first");
    }

    #[test]
    fn a_print_page_goes_to_its_car_page() {
        let rules = retired_pages();
        assert!(rules.iter().all(is_dynamic));
        assert!(rules.len() <= MAX_DYNAMIC_REDIRECTS);
        let file = render(&rules);
        assert!(
            file.contains("/cars/*/print/ /cars/:splat/ 301\n"),
            "{file}"
        );
        assert!(file.contains("/cars/*/print /cars/:splat/ 301\n"), "{file}");
        // As the CDN reads the file (the preview applies it the same way).
        let cdn = crate::dev::cdn_rules::CdnRules::parse(&file, "");
        assert_eq!(
            cdn.redirect("/cars/2021-kia-rio-7/print/", ""),
            Some((301, "/cars/2021-kia-rio-7/".to_string()))
        );
        assert_eq!(
            cdn.redirect("/cars/2021-kia-rio-7/print", ""),
            Some((301, "/cars/2021-kia-rio-7/".to_string()))
        );
        assert_eq!(cdn.redirect("/cars/2021-kia-rio-7/", ""), None);
    }

    #[test]
    fn old_addresses_go_to_the_pages_that_took_their_place_where_the_site_has_them() {
        let pages: HashSet<String> = [
            "/",
            "/contact-us/",
            "/apply-for-finance/",
            "/search/",
            "/search/used-cars/",
            "/models/",
            "/models/corolla/",
            "/models/landcruiser-300/",
            "/about-us/",
            "/blog/",
        ]
        .map(String::from)
        .into();
        let toyota = OldPlatform {
            manufacturer: Some("Toyota"),
            sell_my_car: "/trade-in/",
            success: "/success/",
            checkout: Some("checkout"),
            models: Vec::new(),
            blog: None,
        };
        let rules = legacy_addresses(&pages, &toyota);
        let to = |from: &str| rules.iter().find(|r| r.from == from).map(|r| r.to.as_str());
        assert_eq!(to("/contact"), Some("/contact-us/"));
        assert_eq!(to("/contact/"), Some("/contact-us/"));
        // No trade-in pages here: the contact page.
        assert_eq!(to("/sell-your-car"), Some("/contact-us/"));
        // This dealer's finance page is /apply-for-finance/.
        assert_eq!(to("/finance"), Some("/apply-for-finance/"));
        assert_eq!(to("/finance-enquiry/"), Some("/apply-for-finance/"));
        assert_eq!(to("/apply-for-finance"), None, "a page of this site");
        assert_eq!(to("/used-car/list"), Some("/search/used-cars/"));
        assert_eq!(
            to("/used-car/new-cars"),
            Some("/search/"),
            "no new-cars page"
        );
        assert_eq!(to("/models/toyota-corolla"), Some("/models/corolla/"));
        assert_eq!(
            to("/models/toyota-landcruiser-300/"),
            Some("/models/landcruiser-300/")
        );
        assert_eq!(to("/models/get-quote"), Some("/models/"));
        assert_eq!(to("/teams/*"), Some("/about-us/"));
        // A site with a blog page keeps it; its posts still have no counterpart.
        assert_eq!(to("/blog"), None);
        assert_eq!(to("/blog/*"), Some("/"));
        // Static rules first (the CDN reads dynamic ones after them).
        let first_dynamic = rules.iter().position(is_dynamic).unwrap();
        assert!(rules[first_dynamic..].iter().all(is_dynamic));
        // Without the manufacturer, no model rules; every target is a page of the site.
        let plain = legacy_addresses(
            &pages,
            &OldPlatform {
                manufacturer: None,
                ..toyota.clone()
            },
        );
        assert!(plain.iter().all(|r| !r.from.starts_with("/models/toyota-")));
        assert!(plain.iter().all(|r| pages.contains(&r.to)), "{plain:?}");
    }

    #[test]
    fn a_feature_turned_off_keeps_its_addresses_and_models_keep_theirs() {
        let pages: HashSet<String> = [
            "/",
            "/contact-us/",
            "/about-us/",
            "/thank-you/",
            "/search/",
            "/search/new-cars/",
            "/models/",
            "/models/corolla/",
            "/pages/complaint-handling-process/",
        ]
        .map(String::from)
        .into();
        let site = OldPlatform {
            manufacturer: None,
            sell_my_car: "https://sell.example.com.au/",
            success: "/thank-you/",
            checkout: Some("buy-online"),
            models: vec![
                OldModel {
                    slug: "corolla".into(),
                    ..OldModel::default()
                },
                OldModel {
                    slug: "hilux".into(),
                    explore: Some("https://www.toyota.com.au/hilux"),
                    accessories: Some("https://www.toyota.com.au/hilux/accessories"),
                },
            ],
            blog: Some("https://blog.example.com.au/"),
        };
        let rules = legacy_addresses(&pages, &site);
        let to = |from: &str| rules.iter().find(|r| r.from == from).map(|r| r.to.as_str());
        // No trade-in here: the old trade-in and sell-my-car addresses go where Sell My Car points.
        assert_eq!(to("/trade-in"), Some("https://sell.example.com.au/"));
        assert_eq!(to("/sell-my-car/"), Some("https://sell.example.com.au/"));
        assert_eq!(to("/success"), Some("/thank-you/"));
        assert_eq!(to("/models"), None, "a page of this site");
        assert_eq!(
            to("/pages/handling-complaint"),
            Some("/pages/complaint-handling-process/")
        );
        assert_eq!(
            to("/pages/complaint-handling/"),
            Some("/pages/complaint-handling-process/")
        );
        assert_eq!(to("/corolla"), Some("/models/corolla/"));
        assert_eq!(to("/corolla/accessories/"), Some("/models/corolla/"));
        assert_eq!(
            to("/hilux/accessories"),
            Some("https://www.toyota.com.au/hilux/accessories"),
            "the model's accessories_url"
        );
        assert_eq!(
            to("/hilux"),
            Some("https://www.toyota.com.au/hilux"),
            "the model's override"
        );
        assert_eq!(
            to("/cars/*/checkout"),
            Some("/cars/:splat/"),
            "checkout is buy-online here"
        );
        // Without models, the models address goes to the new-car search.
        let none: HashSet<String> = ["/", "/contact-us/", "/search/", "/search/new-cars/"]
            .map(String::from)
            .into();
        let rules = legacy_addresses(&none, &site);
        assert_eq!(
            rules
                .iter()
                .find(|r| r.from == "/models/")
                .map(|r| r.to.as_str()),
            Some("/search/new-cars/")
        );
        assert!(
            rules
                .iter()
                .all(|r| is_dynamic(r) || is_target(&none, &r.to)),
            "{rules:?}"
        );
        // With a parts page: the accessories and parts addresses go there; the unsubscribe and survey to their pages.
        let with_parts: HashSet<String> = pages
            .iter()
            .cloned()
            .chain(["/parts/", "/unsubscribe/", "/customer-feedback-survey/"].map(String::from))
            .collect();
        let rules = legacy_addresses(&with_parts, &site);
        let to = |from: &str| rules.iter().find(|r| r.from == from).map(|r| r.to.as_str());
        assert_eq!(to("/corolla/accessories"), Some("/parts/"));
        assert_eq!(to("/parts/search"), Some("/parts/"));
        assert_eq!(to("/vehicle-parts-and-accessories/"), Some("/parts/"));
        assert_eq!(to("/pages/unsubscribe"), Some("/unsubscribe/"));
        assert_eq!(to("/customer-feedback-survey"), None, "a page of this site");
        // Without one, parts addresses go to the service page where there is one.
        assert_eq!(
            legacy_addresses(&pages, &site)
                .iter()
                .find(|r| r.from == "/parts/search")
                .map(|r| r.to.as_str()),
            Some("/contact-us/")
        );
    }

    fn dealer_rule(from: &str, to: &str) -> dealer_config::model::DealerRedirect {
        dealer_config::model::DealerRedirect {
            from: from.into(),
            to: to.into(),
            status: 301,
        }
    }

    #[test]
    fn a_dealer_redirect_lands_on_a_page_and_takes_no_page_away() {
        let pages: HashSet<String> = ["/", "/about-us/", "/trade-in/", "/cars/kia-1/"]
            .map(String::from)
            .into();
        let fine = [
            dealer_rule("/diamond-advantage", "/about-us/"),
            dealer_rule("/team/:person", "/about-us/#:person"),
            dealer_rule("/news/*", "https://blog.example.com.au/:splat"),
            dealer_rule("/buying", "/trade-in/?from=buying"),
        ];
        assert_eq!(dealer_redirects(&fine, &pages).unwrap().redirects.len(), 4);
        let broken = [
            dealer_rule("/about-us", "/trade-in/"),
            dealer_rule("/a", "/finance/"),
            dealer_rule("/b", "/about-us"),
            dealer_rule("/trade-*", "/"),
        ];
        let problems = dealer_redirects(&broken, &pages).unwrap_err();
        let said: Vec<(usize, &str, &str)> = problems
            .iter()
            .map(|p| (p.index, p.key, p.message.as_str()))
            .collect();
        assert_eq!(
            said,
            [
                (0, "from", "`/about-us` is the address of this site's page /about-us/: the redirect would take the page away"),
                (1, "to", "`/finance/` is not a page of this site"),
                (2, "to", "`/about-us` is the page /about-us/ without its slash (one more hop): write `/about-us/`"),
                (3, "from", "`/trade-*` is the address of this site's page /trade-in/: the redirect would take the page away"),
            ]
        );
        // A query-string address: the site worker's table, not `_redirects`; its path is no page's.
        let query = [
            dealer_rule("/diamond-advantage", "/about-us/"),
            dealer_rule("/used-cars?make=kia", "/trade-in/"),
        ];
        let rules = dealer_redirects(&query, &pages).unwrap();
        assert_eq!(rules.redirects.len(), 1);
        assert_eq!(
            rules.query,
            [dealer_config::redirect_rules::QueryRule {
                path: "/used-cars".into(),
                query: vec![("make".into(), "kia".into())],
                to: "/trade-in/".into(),
                status: 301
            }]
        );
        assert_eq!(
            query_table(&rules.query)["paths"],
            serde_json::json!(["/used-cars", "/used-cars/"])
        );
        let on_a_page =
            dealer_redirects(&[dealer_rule("/about-us/?ref=old", "/")], &pages).unwrap_err();
        assert!(
            on_a_page[0]
                .message
                .contains("/about-us/ is a page of this site"),
            "{:?}",
            on_a_page
        );
    }

    #[test]
    fn the_old_addresses_leave_room_for_fewer_sold_cars() {
        let cars: Vec<GoneCar> = (0..1_200)
            .map(|i| gone(&format!("car-{i}"), "Kia", "Rio", i))
            .collect();
        let (redirects, left_out) =
            sold_cars(&cars, &HashSet::new(), &HashSet::new(), MAX_REDIRECTS - 30);
        assert_eq!(redirects.len(), MAX_REDIRECTS - 30);
        assert_eq!(left_out, 1_200 - (MAX_REDIRECTS - 30) / 2);
    }
}
