//! The home page's blocks and what they show: location blocks that pick at
//! least one location, slides and posts with dates, links and images that
//! work, reviews that have something to show.

use chrono::NaiveDate;

use crate::model::{DealerConfig, HomeBlock, LOCATION_SHOW_WORDS};
use crate::places;
use crate::suggest::closest;

use super::dates::{check_moment, check_window};
use super::urls::{check_href, check_image};
use super::{root, Ctx, KeyPath};

pub(super) fn check(cfg: &DealerConfig, cx: &mut Ctx) {
    if cx.skip.ok("home") && cx.skip.ok("locations") {
        check_location_blocks(cfg, cx);
    }
    if cx.skip.ok("promotions") {
        for (i, p) in cfg.promotions.iter().enumerate() {
            let path = root().key("promotions").index(i);
            check_image(&p.image, &path.clone().key("image"), cx);
            if let Some(h) = &p.href {
                check_href(h, &path.clone().key("href"), cx);
            }
            check_dates(p.start.as_deref(), p.expiry.as_deref(), cfg, &path, cx);
        }
    }
    if cx.skip.ok("features_banner") {
        for (i, f) in cfg.features_banner.iter().enumerate() {
            let path = root().key("features_banner").index(i);
            if let Some(img) = &f.image {
                check_image(img, &path.clone().key("image"), cx);
            }
            if let Some(h) = &f.href {
                check_href(h, &path.clone().key("href"), cx);
            }
        }
    }
    if cx.skip.ok("blog") {
        if let Some(h) = &cfg.blog.href {
            check_href(h, &root().key("blog").key("href"), cx);
        }
        for (i, post) in cfg.blog.posts.iter().enumerate() {
            let path = root().key("blog").key("posts").index(i);
            check_href(&post.href, &path.clone().key("href"), cx);
            if let Some(img) = &post.image {
                check_image(img, &path.clone().key("image"), cx);
            }
            check_date(&post.date, &path.clone().key("date"), cx);
        }
    }
    if cx.skip.ok("reviews") {
        check_reviews(cfg, cx);
    }
}

/// Start and expiry: each parses, and the window is in order.
pub(super) fn check_dates(
    start: Option<&str>,
    expiry: Option<&str>,
    cfg: &DealerConfig,
    path: &KeyPath,
    cx: &mut Ctx,
) {
    let tz = cfg.timezone;
    match (start, expiry) {
        (Some(s), Some(e)) => check_window(s, e, tz, path, ("start", "expiry"), cx),
        (s, e) => {
            if let Some(v) = s {
                check_moment(v, false, tz, &path.clone().key("start"), cx);
            }
            if let Some(v) = e {
                check_moment(v, true, tz, &path.clone().key("expiry"), cx);
            }
        }
    }
}

fn check_date(value: &str, path: &KeyPath, cx: &mut Ctx) {
    if NaiveDate::parse_from_str(value, "%Y-%m-%d").is_err() {
        cx.err(path, format!("`{value}` is not a date")).expected =
            Some("a date like \"2026-10-02\"".into());
    }
}

fn check_location_blocks(cfg: &DealerConfig, cx: &mut Ctx) {
    // Blocks show visible locations only (a hidden one is on no page).
    let visible: Vec<crate::model::Location> = cfg
        .locations
        .iter()
        .filter(|l| l.visible)
        .cloned()
        .collect();
    let ids: Vec<&str> = visible.iter().map(|l| l.id.as_str()).collect();
    let hidden = |id: &str| cfg.locations.iter().any(|l| !l.visible && l.id == id);
    for (i, block) in cfg.home.blocks.iter().enumerate() {
        let HomeBlock::Locations(b) = block else {
            // Every other block shows the same content wherever it is: once is enough.
            if let Some(first) = cfg.home.blocks[..i].iter().position(|x| x == block) {
                cx.err(
                    &root().key("home").key("blocks").index(i),
                    "this block is listed twice",
                )
                .hint = Some(format!(
                    "home.blocks[{first}] is the same block; remove one"
                ));
            }
            continue;
        };
        let path = root().key("home").key("blocks").index(i).key("locations");
        if hidden(&b.show) {
            cx.err(
                &path.clone().key("show"),
                format!(
                    "`{}` is a hidden location (visible: false): no block shows it",
                    b.show
                ),
            )
            .hint = Some("show a visible location, or make this one visible".into());
            continue;
        }
        if !LOCATION_SHOW_WORDS.contains(&b.show.as_str()) && !ids.contains(&b.show.as_str()) {
            let words = LOCATION_SHOW_WORDS
                .iter()
                .copied()
                .chain(ids.iter().copied());
            cx.err(
                &path.clone().key("show"),
                format!(
                    "`{}` is neither a kind of location nor a location id",
                    b.show
                ),
            )
            .hint = Some(match closest(&b.show, words) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!(
                    "use one of {} or a location's id ({})",
                    LOCATION_SHOW_WORDS.join(", "),
                    ids.join(", ")
                ),
            });
            continue;
        }
        let mut narrowed = false;
        for (j, id) in b.exclude.iter().enumerate() {
            if !ids.contains(&id.as_str()) && !hidden(id) {
                cx.err(
                    &path.clone().key("exclude").index(j),
                    format!("there is no location `{id}`"),
                )
                .hint = closest(id, ids.iter().copied()).map(|s| format!("did you mean `{s}`?"));
                narrowed = true;
            }
        }
        if let Some(m) = &b.manufacturer {
            if !visible.iter().any(|l| {
                l.manufacturers
                    .iter()
                    .any(|x| x.trim().eq_ignore_ascii_case(m.trim()))
            }) {
                cx.err(
                    &path.clone().key("manufacturer"),
                    format!("no location lists `{m}` in its `manufacturers`"),
                );
                narrowed = true;
            }
        }
        if let Some(s) = &b.subtype {
            if !visible.iter().any(|l| {
                l.subtype
                    .as_deref()
                    .is_some_and(|x| x.trim().eq_ignore_ascii_case(s.trim()))
            }) {
                cx.err(
                    &path.clone().key("subtype"),
                    format!("no location has the subtype `{s}`"),
                );
                narrowed = true;
            }
        }
        if !narrowed && places::pick(&visible, b).is_empty() {
            cx.err(&path, "this block would show no location").hint = Some(format!(
                "no location matches `show: {}` together with the make, subtype and exclusions",
                b.show
            ));
        }
    }
}

fn check_reviews(cfg: &DealerConfig, cx: &mut Ctx) {
    let r = &cfg.reviews;
    let path = root().key("reviews");
    for (i, item) in r.items.iter().enumerate() {
        let p = path.clone().key("items").index(i);
        check_date(&item.review_date, &p.clone().key("review_date"), cx);
        if let Some(img) = &item.image {
            check_image(img, &p.clone().key("image"), cx);
        }
    }
    if r.enabled && r.summary.is_none() && r.items.is_empty() {
        cx.err(
            &path.clone().key("enabled"),
            "reviews are on but there is nothing to show",
        )
        .hint = Some("add the review `summary` (count and average) or some `items`".into());
    } else if r.enabled
        && r.summary.is_none()
        && !r.items.iter().any(|i| i.rating >= f64::from(r.min_rating))
    {
        cx.err(
            &path.clone().key("min_rating"),
            format!("no review is rated {} or more", r.min_rating),
        )
        .hint = Some("every review would be hidden; lower `min_rating` or add reviews".into());
    }
}

#[cfg(test)]
mod tests {
    use crate::check::testing::{accepted, problem_at, problems};

    const TWO: &str = "locations:\n  - { id: main, name: Main, primary: true, phone: (07) 3555 0101, manufacturers: [Kia], address: { street: 1 A St, suburb: Newstead, state: QLD, postcode: \"4006\" } }\n  - { id: shop, name: Shop, kind: service, phone: (07) 3555 0102, address: { street: 2 B St, suburb: Albion, state: QLD, postcode: \"4010\" } }\n";

    fn blocks(b: &str) -> String {
        format!("{TWO}home:\n  blocks:\n    - stock\n    - {b}\n")
    }

    #[test]
    fn location_blocks_name_a_kind_or_a_location() {
        accepted(&blocks("locations: { show: service }"));
        accepted(&blocks("locations: { show: shop, title: Our workshop }"));
        let p = problem_at(
            &blocks("locations: { show: servise }"),
            "home.blocks[1].locations.show",
        );
        assert_eq!(
            p.message,
            "`servise` is neither a kind of location nor a location id"
        );
        assert_eq!(p.hint.as_deref(), Some("did you mean `service`?"));
    }

    #[test]
    fn a_hidden_location_is_in_no_block() {
        let hidden =
            |b: &str| blocks(b).replace("kind: service,", "kind: service, visible: false,");
        let p = problem_at(
            &hidden("locations: { show: shop }"),
            "home.blocks[1].locations.show",
        );
        assert_eq!(
            p.message,
            "`shop` is a hidden location (visible: false): no block shows it"
        );
        // Its kind has no visible location left to show.
        let p = problem_at(
            &hidden("locations: { show: service }"),
            "home.blocks[1].locations",
        );
        assert_eq!(p.message, "this block would show no location");
        // Excluding it is harmless.
        accepted(&hidden("locations: { show: all, exclude: [shop] }"));
    }

    #[test]
    fn location_blocks_must_show_something() {
        let p = problem_at(
            &blocks("locations: { show: parts }"),
            "home.blocks[1].locations",
        );
        assert_eq!(p.message, "this block would show no location");
        let p = problem_at(
            &blocks("locations: { manufacturer: Mazda }"),
            "home.blocks[1].locations.manufacturer",
        );
        assert_eq!(
            p.message,
            "no location lists `Mazda` in its `manufacturers`"
        );
        problem_at(
            &blocks("locations: { subtype: buying }"),
            "home.blocks[1].locations.subtype",
        );
        let p = problem_at(
            &blocks("locations: { exclude: [mian] }"),
            "home.blocks[1].locations.exclude[0]",
        );
        assert_eq!(p.hint.as_deref(), Some("did you mean `main`?"));
        accepted(&blocks("locations: { manufacturer: kia, exclude: [shop] }"));
        // Every location excluded: nothing left.
        problem_at(
            &blocks("locations: { exclude: [main, shop] }"),
            "home.blocks[1].locations",
        );
    }

    #[test]
    fn a_block_is_listed_once_but_location_blocks_may_repeat() {
        let p = problem_at(&blocks("stock"), "home.blocks[1]");
        assert_eq!(p.message, "this block is listed twice");
        accepted(&format!(
            "{TWO}home:\n  blocks:\n    - locations: {{ show: sales }}\n    - locations: {{ show: service }}\n"
        ));
    }

    #[test]
    fn unknown_blocks_are_refused_with_a_suggestion() {
        let p = problem_at(&blocks("reveiws"), "home.blocks[1]");
        assert_eq!(p.hint.as_deref(), Some("did you mean `reviews`?"));
    }

    #[test]
    fn slides_posts_and_banners_have_dates_links_and_images_that_work() {
        let over = "promotions:\n  - { image: banner.jpg, alt: Sale, href: sale, start: \"2026-11-30\", expiry: \"2026-11-01\" }\nblog:\n  posts:\n    - { title: News, href: /pages/news, date: 2/10/2026, image: /images/n.jpg }\nfeatures_banner:\n  - { title: Servicing, text: For life, href: \"http://x.example.com\" }\n";
        let keys: Vec<String> = problems(over).into_iter().map(|p| p.key).collect();
        assert_eq!(
            keys,
            [
                "promotions[0].image",
                "promotions[0].href",
                "promotions[0].expiry",
                "blog.posts[0].date",
                "features_banner[0].href",
            ]
        );
        accepted("promotions:\n  - { image: /images/banner.svg, alt: Sale, href: /special-offers/, start: \"2026-11-01\", expiry: \"2026-11-30 17:00\" }\nblog:\n  href: https://blog.example.com.au\n  posts:\n    - { title: News, href: /pages/news, date: \"2026-10-02\" }\n");
    }

    #[test]
    fn reviews_that_are_on_have_something_to_show() {
        let p = problem_at("reviews: { enabled: true }\n", "reviews.enabled");
        assert_eq!(p.message, "reviews are on but there is nothing to show");
        let low = "reviews: { enabled: true, items: [{ customer_name: Sam, text: Ok, rating: 3, review_date: \"2026-10-02\" }] }\n";
        assert_eq!(
            problem_at(low, "reviews.min_rating").message,
            "no review is rated 4 or more"
        );
        let p = problem_at(
            "reviews: { items: [{ customer_name: Sam, text: Ok, rating: 6, review_date: \"2026-10-02\" }] }\n",
            "reviews.items[0].rating",
        );
        assert_eq!(p.message, "6 is out of range");
        accepted("reviews: { enabled: true, summary: { count: 1410, average_rating: 4.7 } }\n");
        accepted(&low.replace("enabled: true", "enabled: true, min_rating: 3"));
    }
}
