//! What the publish step needs besides the built pages: the sold-car and
//! old-address redirects, and the origins the site's scripts reach at run
//! time (the Content-Security-Policy).

use crate::pipeline::site_data;
use crate::pipeline::stock::present;

pub struct PlannedPublish {
    pub plan: crate::publish::PublishPlan,
    pub left_out: usize,
}

/// What the publish step needs besides the built pages: the sold-car
/// redirects and the origins the site's scripts reach at run time.
/// What of the dealer's site decides its old platform addresses' rules.
fn old_platform<'a>(
    cfg: &'a dealer_config::DealerConfig,
    site: &'a site_data::SiteData,
) -> crate::publish::redirects::OldPlatform<'a> {
    crate::publish::redirects::OldPlatform {
        manufacturer: cfg.manufacturer.as_deref(),
        sell_my_car: &cfg.sell_your_car.href,
        success: &site.forms.success_path,
        checkout: cfg
            .features
            .checkout
            .enabled
            .then_some(site.features.checkout_path.as_str()),
        models: site
            .content
            .models
            .iter()
            .map(|m| crate::publish::redirects::OldModel {
                slug: m.slug.clone(),
                explore: m.page.is_none().then_some(m.explore.href.as_str()),
                accessories: m.accessories.as_ref().map(|a| a.href.as_str()),
            })
            .collect(),
        blog: cfg.blog.href.as_deref(),
    }
}

pub fn publish_plan(
    slug: &str,
    cfg: &dealer_config::DealerConfig,
    site: &site_data::SiteData,
    cars: &[present::Car],
    gone: &[crate::pipeline::stock::GoneCar],
    pages: &std::collections::HashSet<String>,
    dealer_rules: Vec<crate::publish::redirects::Redirect>,
) -> PlannedPublish {
    use crate::publish::headers::origin_of;
    let landings: std::collections::HashSet<String> = site
        .search
        .landing_pages
        .iter()
        .map(|l| l.path.clone())
        .collect();
    let live: std::collections::HashSet<&str> = cars.iter().map(|c| c.slug.as_str()).collect();
    use crate::publish::redirects::is_dynamic;
    // The dealer's own rules decide their addresses: a platform rule for
    // the same address goes (the CDN would only read the first anyway).
    let dealer_from: std::collections::HashSet<String> =
        dealer_rules.iter().map(|r| r.from.clone()).collect();
    let mut legacy = crate::publish::redirects::legacy_addresses(pages, &old_platform(cfg, site));
    legacy.extend(crate::publish::redirects::retired_pages());
    legacy.retain(|r| !dealer_from.contains(&r.from));
    let (dealer_dynamic, dealer_static): (Vec<_>, Vec<_>) =
        dealer_rules.into_iter().partition(is_dynamic);
    let (legacy_dynamic, legacy_static): (Vec<_>, Vec<_>) =
        legacy.into_iter().partition(is_dynamic);
    let room = crate::publish::redirects::MAX_REDIRECTS
        .saturating_sub(dealer_static.len() + legacy_static.len());
    let (sold, left_out) = crate::publish::redirects::sold_cars(gone, &landings, &live, room);
    // Static rules (the dealer's, old addresses, sold cars) before the
    // dynamic ones: the CDN counts every rule after the first dynamic one
    // as dynamic.
    let mut redirects = dealer_static;
    redirects.extend(legacy_static);
    redirects.extend(sold);
    redirects.extend(dealer_dynamic);
    redirects.extend(legacy_dynamic);
    let mut runtime = crate::publish::headers::RuntimeOrigins::default();
    // The edge API (leads, watchlist, quotes...) and, when hosted, the search service.
    if let Some(api) = origin_of(&cfg.edge.api_base) {
        runtime.connect.insert(api.clone());
        runtime.forms.insert(api);
    }
    if let Some(hosted) = &site.search.hosted {
        if let Some(o) = origin_of(&format!("https://{}", hosted.host)) {
            runtime.connect.insert(o);
        }
    }
    // Car photos (search results and the watchlist render them in islands),
    // and the configured images.
    let images = cars
        .iter()
        .flat_map(|c| c.images.iter())
        .chain(site.search.promo_tiles.iter().map(|t| &t.image))
        .chain(std::iter::once(&site.theme.logo));
    runtime.images.extend(images.filter_map(|u| origin_of(u)));
    // The captcha widget (lib/forms/turnstile.ts) loads its script and its
    // challenge frame from Cloudflare, on the pages with a form: the
    // dealer's own (features.captcha), or the platform's, which the worker
    // asks any dealer's forms to show while a flood has spent the lead
    // budget (the step-up, edge/core/src/turnstile.rs). Allowed for every
    // site, loaded only when one of them is needed.
    let turnstile = "https://challenges.cloudflare.com".to_string();
    runtime.scripts.insert(turnstile.clone());
    runtime.frames.insert(turnstile);
    PlannedPublish {
        plan: crate::publish::PublishPlan {
            dealer: slug.to_string(),
            origin: cfg.site_url.clone(),
            redirects,
            runtime,
            query_redirects: Vec::new(),
            feeds: Vec::new(),
        },
        left_out,
    }
}
