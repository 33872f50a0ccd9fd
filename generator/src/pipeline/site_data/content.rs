//! The dealer's content as the pages show it: the home page's blocks
//! (location blocks resolved to their locations), offers with their page
//! paths and Explore links, models with their links and stock counts,
//! promotions, the popup, reviews, blog tiles and banners.
//!
//! Dates become unix seconds in the dealer's time zone: the browser hides
//! what has expired (or not started) at view time, so a page never needs a
//! rebuild for it; what had already expired when the site was built is left
//! out (no page, no card).

use dealer_config::model::{self, HomeBlock as Block, ModelBody, ModelStatus, OfferButton};
use dealer_config::moment::{instant, parse_moment};
use dealer_config::places;
use dealer_config::slug::{kebab, model_slug};
use dealer_config::DealerConfig;
use schemars::JsonSchema;
use serde::Serialize;

use super::links::Link;
use crate::pipeline::rich_text::{html_text, rich_html};
use crate::pipeline::search_index::LandingPage;

/// The home page: hero and blocks.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Home {
    /// Big heading (the dealer name unless set).
    pub hero_title: String,
    /// Line under the heading.
    pub hero_subtitle: String,
    /// Text of the hero button.
    pub cta_label: String,
    /// Where the hero button goes.
    pub cta_href: String,
    /// Blocks under the hero, in order.
    pub blocks: Vec<HomeBlock>,
}

/// A block of the home page.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct HomeBlock {
    /// What it shows.
    pub kind: HomeBlockKind,
    /// Heading (location blocks); "" for the others.
    pub title: String,
    /// The locations of a location block, in the site's order; empty for the others.
    pub location_ids: Vec<String>,
}

/// The kinds of home page block.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HomeBlockKind {
    Promotions,
    Stock,
    Offers,
    Brands,
    Models,
    SellYourCar,
    Guarantee,
    Features,
    Reviews,
    Blog,
    Locations,
}

/// Content of the dealer's pages besides stock and locations.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Content {
    /// Offers and how they are shown.
    pub offers: Offers,
    /// Models, in the YAML's order (pages sort and group them).
    pub models: Vec<ModelCard>,
    /// The New Vehicles mega-menu's settings.
    pub model_menu: ModelMenu,
    /// Slides of the promotions slider (1920 by 540).
    pub promotions: Vec<Slide>,
    /// The home page popup, or null.
    pub popup: Option<Popup>,
    /// Reviews, or null when the dealer shows none.
    pub reviews: Option<Reviews>,
    /// Blog tiles.
    pub blog: Blog,
    /// The guarantee banner, or null.
    pub guarantee: Option<Guarantee>,
    /// The features banner carousel.
    pub features_banner: Vec<FeatureSlide>,
    /// The sell-your-car banner.
    pub sell_your_car: SellYourCar,
    /// What location cards show.
    pub location_cards: LocationCards,
}

/// Offers and how they are shown.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Offers {
    /// The offers of this website (not expired at build time, not excluded).
    pub items: Vec<OfferCard>,
    /// Descriptions longer than this collapse; 0: never.
    pub collapse_description_over: u32,
    /// Characters a collapsed description shows.
    pub collapsed_length: u32,
    /// Disclaimers longer than this collapse; 0: never.
    pub collapse_disclaimer_over: u32,
    /// Buttons of each offer, in order.
    pub buttons: Vec<OfferButton>,
    /// Heading after the offer form is sent.
    pub thank_you_title: String,
    /// Text after the offer form is sent.
    pub thank_you_text: String,
}

/// An offer, ready for its card and its page.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct OfferCard {
    /// Id, unique within the dealer.
    pub id: String,
    /// Its page: /offers/{id}/, or /offers/{make}/{id}/ on a multi-brand site.
    pub path: String,
    /// Title.
    pub name: String,
    /// The description as text (blank lines separate paragraphs): what
    /// collapse and the page's meta description go by.
    pub description: String,
    /// The description as sanitised HTML (the dealer's formatting kept).
    pub description_html: String,
    /// The legal disclaimer as text; "" for none.
    pub disclaimer: String,
    /// The legal disclaimer as sanitised HTML; "" for none.
    pub disclaimer_html: String,
    /// e.g. "Finance offer".
    pub category: Option<String>,
    /// Make it is for.
    pub manufacturer: Option<String>,
    /// Model it is for, as written.
    pub model: Option<String>,
    /// The offer's image, else its model's; null: none.
    pub image: Option<String>,
    /// First second it shows (unix), null: from now.
    pub starts_at: Option<i64>,
    /// Last second it shows (unix), null: no end.
    pub expires_at: Option<i64>,
    /// "Explore {model}" when the model is in the dealer's models; null otherwise.
    pub explore: Option<Link>,
}

/// A model card.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ModelCard {
    /// Name, e.g. "RAV4 Hybrid".
    pub name: String,
    /// Slug of /models/{slug}/.
    pub slug: String,
    /// Make.
    pub manufacturer: String,
    /// available or coming_soon.
    pub status: ModelStatus,
    /// "All-New" or "Upcoming".
    pub status_label: String,
    /// Group key, e.g. "suvs-4wds" (/models/#suvs-4wds).
    pub body: String,
    /// Group heading, e.g. "SUVs & 4WDs".
    pub body_label: String,
    /// Position of the group in the spec's order (0 = Cars ... 7 = Discontinued).
    pub body_rank: u32,
    /// Image path or URL.
    pub image: String,
    /// A sentence or two.
    pub description: String,
    /// The model's own page /models/{slug}/ (built when it has no override
    /// URL). Not in site.json: the page table lists the page, and the
    /// pages link to a model through `explore`.
    #[serde(skip)]
    pub page: Option<String>,
    /// "Explore {model}": the override URL, else its page.
    pub explore: Link,
    /// "View accessories": the model's `accessories_url`, else the parts
    /// page where the dealer has one; null: neither.
    pub accessories: Option<Link>,
    /// "Our Stock": its cars in the search; null when none is in stock.
    pub stock: Option<Link>,
    /// Cars of this model in stock.
    pub stock_count: usize,
}

/// The mega-menu's settings.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ModelMenu {
    /// Words of model names that come first, in order.
    pub preferred_order: Vec<String>,
    /// Extra links on phones.
    pub mobile_links: Vec<Link>,
}

/// A slide of the promotions slider.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Slide {
    /// Image path or URL (1920 by 540).
    pub image: String,
    /// Alternative text.
    pub alt: String,
    /// Link, or null.
    pub href: Option<Link>,
    /// First second it shows (unix), or null.
    pub starts_at: Option<i64>,
    /// Last second it shows (unix), or null.
    pub expires_at: Option<i64>,
}

/// The home page popup.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Popup {
    /// Remembers, on the shopper's device, that this popup was shown.
    pub key: String,
    /// Image path or URL.
    pub image: String,
    /// Heading.
    pub title: String,
    /// Text.
    pub description: String,
    /// The button.
    pub button: Link,
    /// First second it shows (unix), or null.
    pub starts_at: Option<i64>,
    /// Last second it shows (unix).
    pub expires_at: i64,
}

/// Reviews as shown.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Reviews {
    /// Number of reviews (the service's, else the listed ones).
    pub count: u32,
    /// Average rating, one decimal.
    pub average_rating: f64,
    /// The reviews shown: rated at least the minimum, newest first, at most `max_shown`; empty when the list is hidden.
    pub items: Vec<ReviewItem>,
    /// "Leave a review" link, or null.
    pub review_url: Option<Link>,
}

/// One review.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ReviewItem {
    /// Customer's name.
    pub customer_name: String,
    /// What they wrote.
    pub text: String,
    /// 1 to 5.
    pub rating: f64,
    /// "2026-10-02".
    pub review_date: String,
    /// Photo, or null.
    pub image: Option<String>,
}

/// Blog tiles.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Blog {
    /// Heading.
    pub title: String,
    /// "All articles", or null.
    pub all: Option<Link>,
    /// Posts, newest first.
    pub posts: Vec<BlogPost>,
}

/// A blog tile.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct BlogPost {
    /// Title and link.
    pub link: Link,
    /// Image, or null.
    pub image: Option<String>,
    /// "2026-10-02".
    pub date: String,
    /// A sentence or two.
    pub excerpt: String,
}

/// The guarantee banner.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Guarantee {
    /// Heading.
    pub title: String,
    /// Promises.
    pub items: Vec<GuaranteeItem>,
}

/// A promise.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct GuaranteeItem {
    /// e.g. "48hr money back".
    pub title: String,
    /// Detail, or "".
    pub text: String,
}

/// A slide of the features carousel.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct FeatureSlide {
    /// Heading.
    pub title: String,
    /// Text.
    pub text: String,
    /// Image, or null.
    pub image: Option<String>,
    /// "Learn more", or null.
    pub link: Option<Link>,
}

/// The sell-your-car banner.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SellYourCar {
    /// Heading.
    pub headline: String,
    /// The button.
    pub button: Link,
}

/// What location cards show.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct LocationCards {
    /// Opening hours on the cards.
    pub show_hours: bool,
    /// Contact, Get Directions and Book a Service on the cards.
    pub show_buttons: bool,
}

/// Unix seconds of a local moment in the dealer's time zone (the check has
/// refused moments that do not parse or do not exist).
fn at(cfg: &DealerConfig, s: Option<&str>, end_of_day: bool) -> Option<i64> {
    let local = parse_moment(s?, end_of_day)?;
    Some(instant(cfg.timezone, local)?.timestamp())
}

/// Whether something ending at `expires_at` has already ended at `now`.
fn ended(expires_at: Option<i64>, now: i64) -> bool {
    expires_at.is_some_and(|e| e < now)
}

fn same(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

/// The home page with its blocks resolved; `locations` are in the site's order.
pub fn home(cfg: &DealerConfig, locations: &[super::Location]) -> Home {
    let h = &cfg.home;
    let blocks = h
        .blocks
        .iter()
        .map(|b| {
            let kind = match b {
                Block::Promotions => HomeBlockKind::Promotions,
                Block::Stock => HomeBlockKind::Stock,
                Block::Offers => HomeBlockKind::Offers,
                Block::Brands => HomeBlockKind::Brands,
                Block::Models => HomeBlockKind::Models,
                Block::SellYourCar => HomeBlockKind::SellYourCar,
                Block::Guarantee => HomeBlockKind::Guarantee,
                Block::Features => HomeBlockKind::Features,
                Block::Reviews => HomeBlockKind::Reviews,
                Block::Blog => HomeBlockKind::Blog,
                Block::Locations(_) => HomeBlockKind::Locations,
            };
            let (title, location_ids) = match b {
                Block::Locations(lb) => {
                    let picked: Vec<&str> = places::pick(&cfg.locations, lb)
                        .into_iter()
                        .map(|l| l.id.as_str())
                        .collect();
                    let ids = locations
                        .iter()
                        .filter(|l| picked.contains(&l.id.as_str()))
                        .map(|l| l.id.clone())
                        .collect();
                    (lb.title.clone(), ids)
                }
                _ => (String::new(), Vec::new()),
            };
            HomeBlock {
                kind,
                title,
                location_ids,
            }
        })
        .collect();
    Home {
        hero_title: if h.hero_title.is_empty() {
            cfg.name.clone()
        } else {
            h.hero_title.clone()
        },
        hero_subtitle: h.hero_subtitle.clone(),
        cta_label: h.cta_label.clone(),
        cta_href: h.cta_href.clone(),
        blocks,
    }
}

/// Everything else; `slug` is the dealer's (its website id), `landings` the
/// search landing pages of the visible stock, `now` the build's instant.
pub fn content(slug: &str, cfg: &DealerConfig, landings: &[LandingPage], now: i64) -> Content {
    let models = models(cfg, landings);
    Content {
        offers: offers(slug, cfg, &models, now),
        model_menu: ModelMenu {
            preferred_order: cfg.model_menu.preferred_order.clone(),
            mobile_links: cfg
                .model_menu
                .mobile_links
                .iter()
                .map(|l| Link::new(&l.label, &l.href))
                .collect(),
        },
        models,
        promotions: cfg
            .promotions
            .iter()
            .map(|p| Slide {
                image: p.image.clone(),
                alt: p.alt.clone(),
                href: p.href.as_deref().map(|h| Link::new(&p.alt, h)),
                starts_at: at(cfg, p.start.as_deref(), false),
                expires_at: at(cfg, p.expiry.as_deref(), true),
            })
            .filter(|s| !ended(s.expires_at, now))
            .collect(),
        popup: cfg.popup.as_ref().and_then(|p| {
            let expires_at = at(cfg, Some(&p.expiry), true)?;
            (expires_at >= now).then(|| Popup {
                key: popup_key(p),
                image: p.image.clone(),
                title: p.title.clone(),
                description: p.description.clone(),
                button: Link::new(&p.button_label, &p.button_href),
                starts_at: at(cfg, p.start.as_deref(), false),
                expires_at,
            })
        }),
        reviews: reviews(cfg),
        blog: Blog {
            title: cfg.blog.title.clone(),
            all: cfg
                .blog
                .href
                .as_deref()
                .map(|h| Link::new("All articles", h)),
            posts: {
                let mut posts: Vec<&model::BlogPost> = cfg.blog.posts.iter().collect();
                posts.sort_by(|a, b| b.date.cmp(&a.date));
                posts
                    .into_iter()
                    .map(|p| BlogPost {
                        link: Link::new(&p.title, &p.href),
                        image: p.image.clone(),
                        date: p.date.clone(),
                        excerpt: p.excerpt.clone(),
                    })
                    .collect()
            },
        },
        guarantee: (!cfg.guarantee.items.is_empty()).then(|| Guarantee {
            title: if cfg.guarantee.title.is_empty() {
                "Our guarantee".into()
            } else {
                cfg.guarantee.title.clone()
            },
            items: cfg
                .guarantee
                .items
                .iter()
                .map(|i| GuaranteeItem {
                    title: i.title.clone(),
                    text: i.text.clone(),
                })
                .collect(),
        }),
        features_banner: cfg
            .features_banner
            .iter()
            .map(|f| FeatureSlide {
                title: f.title.clone(),
                text: f.text.clone(),
                image: f.image.clone(),
                link: f
                    .href
                    .as_deref()
                    .map(|h| Link::new(&format!("Learn more about {}", f.title), h)),
            })
            .collect(),
        sell_your_car: SellYourCar {
            headline: cfg.sell_your_car.headline.clone(),
            button: Link::new(&cfg.sell_your_car.button_label, &cfg.sell_your_car.href),
        },
        location_cards: LocationCards {
            show_hours: cfg.location_cards.show_hours,
            show_buttons: cfg.location_cards.show_buttons,
        },
    }
}

/// FNV-1a of what the shopper sees: a changed popup shows again.
fn popup_key(p: &model::Popup) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in [&p.title, &p.description, &p.image, &p.expiry]
        .iter()
        .flat_map(|s| s.bytes().chain([0]))
    {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

fn models(cfg: &DealerConfig, landings: &[LandingPage]) -> Vec<ModelCard> {
    // "View accessories" without the model's own address: the parts page, where there is one.
    let parts_page = !super::forms::parts_counters(cfg).is_empty();
    cfg.models
        .iter()
        .map(|m| {
            let slug = model_slug(m);
            let manufacturer = m
                .manufacturer
                .clone()
                .or_else(|| cfg.manufacturer.clone())
                .unwrap_or_default();
            let stock_name = m.stock_model.as_deref().unwrap_or(&m.name);
            // The make/model landing page lists exactly its cars.
            let landing = landings.iter().find(|l| {
                let first = |k: &str| l.refinements.get(k).and_then(|v| v.first());
                l.refinements.len() == 2
                    && first("make").is_some_and(|x| same(x, &manufacturer))
                    && first("model").is_some_and(|x| same(x, stock_name))
            });
            let page = m.override_url.is_none().then(|| format!("/models/{slug}/"));
            let explore_href = m.override_url.clone().or(page.clone()).unwrap_or_default();
            ModelCard {
                name: m.name.clone(),
                slug,
                manufacturer,
                status: m.status,
                status_label: m.status.label().into(),
                body: m.body.key().into(),
                body_label: m.body.label().into(),
                body_rank: ModelBody::ORDER
                    .iter()
                    .position(|b| *b == m.body)
                    .unwrap_or(ModelBody::ORDER.len()) as u32,
                image: m.image.clone(),
                description: m.description.clone(),
                page,
                explore: Link::new(&format!("Explore {}", m.name), &explore_href),
                accessories: m
                    .accessories_url
                    .as_deref()
                    .or(parts_page.then_some("/parts/"))
                    .map(|href| Link::new("View accessories", href)),
                stock: landing.map(|l| {
                    Link::new(
                        &format!("Our Stock ({})", l.count),
                        &format!("/search/{}/", l.path),
                    )
                }),
                stock_count: landing.map_or(0, |l| l.count),
            }
        })
        .collect()
}

fn offers(slug: &str, cfg: &DealerConfig, models: &[ModelCard], now: i64) -> Offers {
    let d = &cfg.offers_display;
    let items = cfg
        .offers
        .iter()
        .filter(|o| {
            !o.excluded_website_ids.iter().any(|w| w == slug) || d.show_excluded.contains(&o.id)
        })
        .filter_map(|o| {
            let expires_at = at(cfg, o.expiry.as_deref(), true);
            if ended(expires_at, now) {
                return None;
            }
            let model = o.model.as_deref().and_then(|name| {
                models
                    .iter()
                    .find(|m| same(&m.name, name) || same(&m.slug, name))
            });
            // The make segment only where the site sells several makes.
            let path = match (&cfg.manufacturer, &o.manufacturer) {
                (None, Some(make)) => format!("/offers/{}/{}/", kebab(make), o.id),
                _ => format!("/offers/{}/", o.id),
            };
            let description_html = rich_html(&o.description);
            let disclaimer_html = rich_html(&o.disclaimer);
            Some(OfferCard {
                id: o.id.clone(),
                path,
                name: o.name.clone(),
                description: html_text(&description_html),
                description_html,
                disclaimer: html_text(&disclaimer_html),
                disclaimer_html,
                category: o.category.clone(),
                manufacturer: o.manufacturer.clone(),
                model: o.model.clone(),
                image: o.image.clone().or_else(|| model.map(|m| m.image.clone())),
                starts_at: at(cfg, o.start.as_deref(), false),
                expires_at,
                explore: model.map(|m| Link::new(&format!("Explore {}", m.name), &m.explore.href)),
            })
        })
        .collect();
    Offers {
        items,
        collapse_description_over: d.collapse_description_over,
        collapsed_length: d.collapsed_length,
        collapse_disclaimer_over: d.collapse_disclaimer_over,
        buttons: d.buttons.clone(),
        thank_you_title: d.thank_you_title.clone(),
        thank_you_text: d.thank_you_text.clone(),
    }
}

fn reviews(cfg: &DealerConfig) -> Option<Reviews> {
    let r = &cfg.reviews;
    if !r.enabled {
        return None;
    }
    // A hidden review is not a review of this dealer's: in neither the
    // count nor the list. One under `min_rating` still counts (an average
    // of the favourable ones alone would misrepresent the dealer's), and
    // is only left out of the list (docs/behaviour/content.md §2).
    let items: Vec<&model::Review> = r.items.iter().filter(|i| !i.hidden).collect();
    let (count, average) = match &r.summary {
        Some(s) => (s.count, s.average_rating),
        None if items.is_empty() => return None,
        None => (
            items.len() as u32,
            items.iter().map(|i| i.rating).sum::<f64>() / items.len() as f64,
        ),
    };
    let mut shown: Vec<&model::Review> = items
        .into_iter()
        .filter(|i| r.show_list && i.rating >= f64::from(r.min_rating))
        .collect();
    shown.sort_by(|a, b| b.review_date.cmp(&a.review_date));
    shown.truncate(r.max_shown as usize);
    Some(Reviews {
        count,
        average_rating: (average * 10.0).round() / 10.0,
        items: shown
            .into_iter()
            .map(|i| ReviewItem {
                customer_name: i.customer_name.clone(),
                text: i.text.clone(),
                rating: i.rating,
                review_date: i.review_date.clone(),
                image: i.image.clone(),
            })
            .collect(),
        review_url: r
            .review_url
            .as_deref()
            .map(|u| Link::new("Leave a review", u)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::site_data::test_support::{cars, config_with};
    use serde_json::{json, Value};

    /// 2026-11-20 00:00 in Brisbane (UTC+10).
    const NOW: i64 = 1_795_096_800;

    fn built(extra: Value) -> Content {
        content("demo", &config_with(extra), &[], NOW)
    }

    fn offer(id: &str, extra: Value) -> Value {
        let mut o = json!({"id": id, "name": format!("Offer {id}"), "description": "Cheap"});
        for (k, v) in extra.as_object().unwrap() {
            o[k] = v.clone();
        }
        o
    }

    #[test]
    fn offer_pages_have_a_make_segment_only_on_multi_brand_sites() {
        let offers = json!([
            offer("eofy", json!({"manufacturer": "Mercedes-Benz"})),
            offer("any", json!({}))
        ]);
        let multi = built(json!({"offers": offers}));
        let paths: Vec<&str> = multi.offers.items.iter().map(|o| o.path.as_str()).collect();
        assert_eq!(paths, ["/offers/mercedes-benz/eofy/", "/offers/any/"]);
        let single = built(json!({"manufacturer": "Toyota", "offers": offers}));
        assert_eq!(single.offers.items[0].path, "/offers/eofy/");
    }

    #[test]
    fn offers_excluded_from_this_website_and_expired_ones_are_left_out() {
        let offers = json!([
            offer("a", json!({"excluded_website_ids": ["demo"]})),
            offer("b", json!({"excluded_website_ids": ["other-dealer"]})),
            offer("c", json!({"expiry": "2026-11-19"})),
            offer("d", json!({"start": "2026-12-01", "expiry": "2026-12-31"})),
            offer("e", json!({"expiry": "2026-11-20"})),
        ]);
        let ids = |c: Content| {
            c.offers
                .items
                .iter()
                .map(|o| o.id.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(built(json!({"offers": offers}))), ["b", "d", "e"]);
        let shown = built(json!({"offers": offers, "offers_display": {"show_excluded": ["a"]}}));
        assert_eq!(ids(shown), ["a", "b", "d", "e"]);
        // A future offer is kept with its window (the browser shows it when it starts).
        let d = &built(json!({"offers": offers})).offers.items[1];
        assert_eq!(d.starts_at, Some(1_796_047_200), "2026-12-01 00:00 +10:00");
        assert_eq!(
            d.expires_at,
            Some(1_798_725_599),
            "2026-12-31 23:59:59 +10:00"
        );
    }

    #[test]
    fn an_offer_for_a_listed_model_explores_it_and_borrows_its_image() {
        let c = built(json!({
            "manufacturer": "Toyota",
            "models": [{"name": "RAV4", "body": "suvs-4wds", "image": "/rav4.svg"},
                       {"name": "bZ4X", "body": "electrified", "image": "/bz.svg", "override_url": "https://toyota.example.com/bz4x"}],
            "offers": [offer("a", json!({"model": "rav4"})), offer("b", json!({"model": "bZ4X", "image": "/own.svg"})),
                       offer("c", json!({"model": "Camry"}))],
        }));
        let o = &c.offers.items;
        let ex = o[0].explore.as_ref().unwrap();
        assert_eq!(
            (ex.label.as_str(), ex.href.as_str()),
            ("Explore RAV4", "/models/rav4/")
        );
        assert_eq!(o[0].image.as_deref(), Some("/rav4.svg"));
        let ex = o[1].explore.as_ref().unwrap();
        assert_eq!(
            (ex.href.as_str(), ex.external),
            ("https://toyota.example.com/bz4x", true)
        );
        assert_eq!(o[1].image.as_deref(), Some("/own.svg"));
        assert!(
            o[2].explore.is_none(),
            "Camry is not a listed model: no Explore button"
        );
    }

    #[test]
    fn models_link_to_their_page_or_override_and_to_their_stock() {
        let stock = cars(&[("Toyota", "new"), ("Toyota", "used")]);
        let landings = crate::pipeline::search_index::landing_pages(&stock, "Demo");
        let cfg = config_with(json!({
            "manufacturer": "Toyota",
            "models": [{"name": "M", "body": "cars", "image": "/m.svg", "status": "coming_soon"},
                       {"name": "GR86", "body": "gr-performance", "image": "/g.svg", "override_url": "https://x.example.com/gr86"}],
        }));
        let m = content("demo", &cfg, &landings, NOW).models;
        assert_eq!(m[0].page.as_deref(), Some("/models/m/"));
        assert_eq!(m[0].explore.href, "/models/m/");
        assert_eq!(m[0].status_label, "Upcoming");
        assert_eq!((m[0].body_rank, m[0].body_label.as_str()), (0, "Cars"));
        let stock_link = m[0].stock.as_ref().unwrap();
        assert_eq!(
            (stock_link.label.as_str(), stock_link.href.as_str()),
            ("Our Stock (2)", "/search/toyota/m/")
        );
        assert_eq!(m[1].page, None);
        assert_eq!(m[1].explore.href, "https://x.example.com/gr86");
        assert_eq!(m[1].status_label, "All-New");
        assert_eq!(m[1].body_rank, 4);
        assert!(m[1].stock.is_none() && m[1].stock_count == 0);
        // No parts counter and no accessories_url: no accessories link.
        assert!(m.iter().all(|x| x.accessories.is_none()));
    }

    #[test]
    fn view_accessories_goes_to_the_models_own_address_else_the_parts_page() {
        let loc = json!({"id": "p", "name": "Spares", "kind": "parts", "phone": "(07) 3000 0001",
                         "address": {"street": "1 A St", "suburb": "Brisbane", "state": "QLD", "postcode": "4000"}});
        let cfg = config_with(json!({
            "manufacturer": "Toyota",
            "locations": [loc],
            "models": [{"name": "HiLux", "body": "utes-vans", "image": "/h.svg", "accessories_url": "https://www.toyota.com.au/hilux/accessories"},
                       {"name": "Yaris", "body": "cars", "image": "/y.svg"}],
        }));
        let m = content("demo", &cfg, &[], NOW).models;
        let a: Vec<(&str, &str)> = m
            .iter()
            .map(|x| {
                x.accessories
                    .as_ref()
                    .map(|l| (l.label.as_str(), l.href.as_str()))
                    .unwrap()
            })
            .collect();
        assert_eq!(
            a,
            [
                (
                    "View accessories",
                    "https://www.toyota.com.au/hilux/accessories"
                ),
                ("View accessories", "/parts/")
            ]
        );
    }

    #[test]
    fn reviews_below_the_minimum_are_hidden_newest_first_and_capped() {
        let item = |rating: f64, date: &str| json!({"customer_name": "C", "text": "T", "rating": rating, "review_date": date});
        let reviews = json!({"enabled": true, "max_shown": 2, "items": [
            item(5.0, "2026-01-01"), item(3.0, "2026-09-01"), item(4.0, "2026-08-01"), item(4.5, "2026-03-01")]});
        let r = built(json!({"reviews": reviews})).reviews.unwrap();
        let dates: Vec<&str> = r.items.iter().map(|i| i.review_date.as_str()).collect();
        assert_eq!(dates, ["2026-08-01", "2026-03-01"]);
        assert_eq!(
            (r.count, r.average_rating),
            (4, 4.1),
            "the summary counts every review, the 3-star one not listed included"
        );
        // A hidden review is in neither the list nor the count.
        let mut hiding = reviews.clone();
        hiding["items"][2]["hidden"] = json!(true);
        let r = built(json!({"reviews": hiding})).reviews.unwrap();
        let dates: Vec<&str> = r.items.iter().map(|i| i.review_date.as_str()).collect();
        assert_eq!(
            dates,
            ["2026-03-01", "2026-01-01"],
            "the 2026-08-01 review is hidden"
        );
        assert_eq!((r.count, r.average_rating), (3, 4.2));
        let mut with_summary = reviews.clone();
        with_summary["summary"] = json!({"count": 1410, "average_rating": 4.7});
        with_summary["show_list"] = json!(false);
        let r = built(json!({"reviews": with_summary})).reviews.unwrap();
        assert_eq!((r.count, r.average_rating, r.items.len()), (1410, 4.7, 0));
        let mut low = reviews;
        low["min_rating"] = json!(5);
        assert_eq!(
            built(json!({"reviews": low})).reviews.unwrap().items.len(),
            1
        );
        assert!(built(json!({})).reviews.is_none(), "off by default");
    }

    #[test]
    fn the_popup_and_slides_that_had_ended_at_build_are_left_out() {
        let popup = |expiry: &str| json!({"image": "/p.svg", "title": "Sale", "description": "Now", "button_label": "Go", "button_href": "/special-offers/", "expiry": expiry});
        assert!(built(json!({"popup": popup("2026-11-19")})).popup.is_none());
        let p = built(json!({"popup": popup("2026-11-20")})).popup.unwrap();
        assert_eq!(p.expires_at, NOW + 86_399);
        assert_ne!(
            p.key,
            built(json!({"popup": popup("2026-11-21")}))
                .popup
                .unwrap()
                .key,
            "a changed popup shows again"
        );
        let slides = json!([{"image": "/a.svg", "alt": "A", "expiry": "2026-11-01"},
                            {"image": "/b.svg", "alt": "B", "href": "/special-offers/", "start": "2026-11-19 08:30"}]);
        let s = built(json!({"promotions": slides})).promotions;
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].href.as_ref().unwrap().href, "/special-offers/");
        assert_eq!(s[0].starts_at, Some(NOW - 86_400 + 8 * 3600 + 1800));
    }

    #[test]
    fn location_blocks_resolve_to_locations_in_the_sites_order() {
        let cfg = config_with(
            json!({"home": {"blocks": ["stock", {"locations": {"show": "all", "exclude": ["a"], "title": "Visit"}}]}}),
        );
        let locs = crate::pipeline::site_data::locations::locations(&cfg);
        let h = home(&cfg, &locs);
        assert_eq!(h.blocks.len(), 2);
        assert!(matches!(h.blocks[0].kind, HomeBlockKind::Stock));
        assert_eq!(h.blocks[1].title, "Visit");
        assert_eq!(
            h.blocks[1].location_ids,
            ["c", "b"],
            "the primary location first"
        );
    }

    #[test]
    fn offer_descriptions_and_disclaimers_keep_formatting_but_no_script() {
        let c = built(json!({"offers": [offer("a", json!({
            "description": "<b>Save</b> &amp; drive<br>today\n<ul><li>Tint</li><li onclick=\"x()\">Mats</li></ul><script>alert(1)</script>",
            "disclaimer": "<i>Conditions</i> apply. <a href=\"javascript:alert(2)\">terms</a>",
        }))]}));
        let o = &c.offers.items[0];
        assert_eq!(
            o.description_html,
            "<p><b>Save</b> &amp; drive<br>today\n</p><ul><li>Tint</li><li>Mats</li></ul>"
        );
        assert_eq!(o.description, "Save & drive\ntoday\n\nTint\n\nMats");
        assert_eq!(
            o.disclaimer_html,
            "<p><i>Conditions</i> apply. <a rel=\"noopener noreferrer\">terms</a></p>"
        );
        assert_eq!(o.disclaimer, "Conditions apply. terms");
        let plain = built(json!({"offers": [offer("b", json!({}))]}));
        let o = &plain.offers.items[0];
        assert_eq!(
            (o.description.as_str(), o.description_html.as_str()),
            ("Cheap", "<p>Cheap</p>")
        );
        assert_eq!(
            (o.disclaimer.as_str(), o.disclaimer_html.as_str()),
            ("", "")
        );
    }

    #[test]
    fn the_guarantee_shows_only_with_promises() {
        assert!(built(json!({})).guarantee.is_none());
        let g = built(json!({"guarantee": {"items": [{"title": "48hr money back"}]}}))
            .guarantee
            .unwrap();
        assert_eq!(g.title, "Our guarantee");
        assert_eq!(g.items[0].title, "48hr money back");
    }
}
