//! The vehicle detail page and photo sizes: a photo address template the
//! site can expand, sizes in order, sidebar buttons and tabs that each do
//! something once, tab entries with a heading, a servicing table whose
//! every row can be shown, and no result-card call button where the
//! numbers are masked.

use std::collections::HashMap;

use crate::images::{check_template, TemplateError, PLACEHOLDERS};
use crate::model::{CardButton, DealerConfig, DetailTab, TabItem};

use super::{root, Ctx, KeyPath};

pub(super) fn check(cfg: &DealerConfig, cx: &mut Ctx) {
    if cx.skip.ok("images") {
        images(cfg, cx);
    }
    if cx.skip.ok("detail_page") {
        detail_page(cfg, cx);
    }
    if cx.skip.ok("cards") {
        cards(cfg, cx);
    }
}

/// The certified badge's image loads on the site, and badges a make.
fn certified_image(cfg: &DealerConfig, cx: &mut Ctx) {
    let Some(src) = &cfg.cards.certified_badge_image else {
        return;
    };
    let at = root().key("cards").key("certified_badge_image");
    super::urls::check_image(src, &at, cx);
    if cfg.cards.certified_badge_make.is_none() {
        cx.err(
            &at,
            "a certified badge image, but no `cards.certified_badge_make`: no car gets the badge",
        )
        .hint = Some("name the programme's make, e.g. certified_badge_make: Toyota".into());
    }
}

/// With `features.phone_reveal` on, a number is given only by the reveal,
/// which records the call (docs/behaviour/phone-reveal.md): a result card's
/// Call Dealer would have to show it, so it is refused rather than left
/// doing nothing (the search index carries no masked number).
fn cards(cfg: &DealerConfig, cx: &mut Ctx) {
    labels(cfg, cx);
    certified_image(cfg, cx);
    if !cfg.features.phone_reveal {
        return;
    }
    if cfg.search.cta_card == crate::model::CtaCard::CallDealer {
        cx.err(
            &root().key("search").key("cta_card"),
            "`call_dealer` among the results would show the number `features.phone_reveal` masks",
        )
        .hint = Some("use find_similar, or set `features: { phone_reveal: false }` to show the numbers everywhere".into());
    }
    for (i, b) in cfg.cards.buttons.iter().enumerate() {
        if *b == CardButton::CallDealer {
            cx.err(
                &root().key("cards").key("buttons").index(i),
                "`call_dealer` on a result card would show the number `features.phone_reveal` masks",
            )
            .hint = Some("remove it: shoppers call from the car page, where the number is revealed and the call recorded; or set `features: { phone_reveal: false }` to show the numbers everywhere".into());
        }
    }
}

/// Longest button label: the buttons share a card's width on a phone.
const MAX_LABEL: usize = 40;

/// Each button label a few words on one line.
fn labels(cfg: &DealerConfig, cx: &mut Ctx) {
    for (kind, label) in cfg.cards.labels.set() {
        let name = kind.key();
        let chars = label.chars().count();
        if chars == 0 || chars > MAX_LABEL || label.contains(['\n', '\r']) {
            cx.err(
                &root().key("cards").key("labels").key(name),
                format!(
                    "the `{name}` button's label must be 1 to {MAX_LABEL} characters on one line"
                ),
            )
            .hint = Some("leave it out to keep the platform's wording".into());
        }
    }
}

fn images(cfg: &DealerConfig, cx: &mut Ctx) {
    let base = root().key("images");
    if let Some(t) = &cfg.images.url_template {
        if let Err(e) = check_template(t) {
            let hint = match &e {
                TemplateError::Unknown(_) | TemplateError::Unbalanced => format!(
                    "placeholders are {}",
                    PLACEHOLDERS.map(|p| format!("{{{p}}}")).join(", ")
                ),
                TemplateError::NoWidth => {
                    "add `{width}` where the image host takes the width, e.g. {url}?w={width}&q={quality}".into()
                }
                TemplateError::NoPhoto => {
                    "`{url}` is the photo's address as the feed gives it; `{base}` is that address without its extension".into()
                }
                TemplateError::Char(_) => {
                    "write the template alone, without quotes or spaces".into()
                }
            };
            cx.err(
                &base.clone().key("url_template"),
                format!("photo address template: {e}"),
            )
            .hint = Some(hint);
        }
    }
    let widths = &cfg.images.srcset_widths;
    for (i, w) in widths.iter().enumerate() {
        let p = base.clone().key("srcset_widths").index(i);
        if !(160..=4096).contains(w) {
            cx.err(
                &p,
                format!("{w} px is not a photo width between 160 and 4096"),
            );
        } else if i > 0 && *w <= widths[i - 1] {
            cx.err(
                &p,
                format!("{w} px does not come after {} px", widths[i - 1]),
            )
            .hint = Some(
                "list the widths smallest first, each once, e.g. [480, 640, 960, 1280]".into(),
            );
        }
    }
    if cfg.images.url_template.is_some() && widths.is_empty() {
        cx.err(
            &base.key("srcset_widths"),
            "with a photo address template, at least one width is needed",
        )
        .hint = Some("e.g. [480, 640, 960, 1280]: phones take the small ones".into());
    }
}

fn detail_page(cfg: &DealerConfig, cx: &mut Ctx) {
    let d = &cfg.detail_page;
    let base = root().key("detail_page");
    let mut seen: HashMap<CardButton, usize> = HashMap::new();
    for (i, b) in d.sidebar_buttons.iter().enumerate() {
        let p = base.clone().key("sidebar_buttons").index(i);
        if *b == CardButton::ViewDetails {
            cx.err(&p, "`view_details` links a car to its own page: it does nothing in the car page's sidebar")
                .hint = Some("remove it; the sidebar offers enquire, history_report, finance, trade_in, reserve, buy_online, call_dealer, test_drive and make_offer".into());
        } else if let Some(first) = seen.insert(*b, i) {
            cx.err(&p, "this sidebar button is listed twice").hint =
                Some(format!("sidebar_buttons[{first}] is the same button"));
        }
    }
    let mut tabs: HashMap<DetailTab, usize> = HashMap::new();
    for (i, t) in d.tabs.iter().enumerate() {
        if let Some(first) = tabs.insert(*t, i) {
            cx.err(
                &base.clone().key("tabs").index(i),
                "this tab is listed twice",
            )
            .hint = Some(format!("tabs[{first}] is the same tab"));
        }
    }
    for (key, items) in [
        ("whats_included", &d.whats_included),
        ("why_buy_from_us", &d.why_buy_from_us),
        ("protect_your_car", &d.protect_your_car),
    ] {
        tab_items(items, &base.clone().key(key), cx);
    }
    for (i, b) in d.certified_benefits.iter().enumerate() {
        if b.trim().is_empty() {
            cx.err(
                &base.clone().key("certified_benefits").index(i),
                "an empty line would show as a blank bullet",
            );
        }
    }
    if let Some(sa) = &d.service_advantage {
        let p = base.clone().key("service_advantage");
        if sa.make.trim().is_empty() {
            cx.err(
                &p.clone().key("make"),
                "the make whose cars show the block is empty",
            );
        }
        if sa.title.trim().is_empty() {
            cx.err(
                &p.clone().key("title"),
                "the block needs a heading, e.g. \"Toyota Service Advantage\"",
            );
        }
        plan_numbers(
            [
                ("price", Some(sa.default.price)),
                ("services", Some(sa.default.services)),
                ("years", Some(sa.default.years)),
                ("max_km", Some(sa.default.max_km)),
                ("interval_months", Some(sa.default.interval_months)),
                ("interval_km", Some(sa.default.interval_km)),
            ],
            &p.clone().key("default"),
            cx,
        );
        let mut names: HashMap<String, usize> = HashMap::new();
        for (i, m) in sa.models.iter().enumerate() {
            let mp = p.clone().key("models").index(i);
            if m.interval_unknown && (m.interval_months.is_some() || m.interval_km.is_some()) {
                cx.err(
                    &mp.clone().key("interval_unknown"),
                    "the interval is unknown, yet this row gives one",
                )
                .hint = Some("keep `interval_unknown: true` only where the manufacturer gives no interval; else remove it".into());
            }
            if m.models.is_empty() {
                cx.err(
                    &mp.clone().key("models"),
                    "no model names: this row would never show",
                );
            }
            for (j, name) in m.models.iter().enumerate() {
                let key = crate::model::name_key(name);
                let np = mp.clone().key("models").index(j);
                if key.is_empty() {
                    cx.err(&np, "an empty model name matches no car");
                } else if let Some(first) = names.insert(key, i) {
                    cx.err(&np, format!("`{name}` is already in models[{first}]"))
                        .hint = Some(
                        "a model gets the first row naming it; this one would never show".into(),
                    );
                }
            }
            plan_numbers(
                [
                    ("price", Some(m.price)),
                    ("services", m.services),
                    ("years", m.years),
                    ("max_km", m.max_km),
                    ("interval_months", m.interval_months),
                    ("interval_km", m.interval_km),
                ],
                &mp,
                cx,
            );
        }
    }
}

fn tab_items(items: &[TabItem], path: &KeyPath, cx: &mut Ctx) {
    for (i, item) in items.iter().enumerate() {
        if item.title.trim().is_empty() {
            cx.err(
                &path.clone().index(i).key("title"),
                "each entry needs a heading",
            );
        }
    }
}

/// A plan shows each figure as text: a zero would read "$0 per service".
fn plan_numbers(values: [(&str, Option<u32>); 6], path: &KeyPath, cx: &mut Ctx) {
    for (key, value) in values {
        if value == Some(0) {
            cx.err(&path.clone().key(key), format!("`{key}` must be above 0"));
        }
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_call_card_among_the_results_only_where_numbers_are_not_masked() {
        crate::check::testing::accepted(
            "search: { cta_card: call_dealer }\nfeatures: { phone_reveal: false }\n",
        );
        let p = crate::check::testing::problem_at(
            "search: { cta_card: call_dealer }\nfeatures: { phone_reveal: true }\n",
            "search.cta_card",
        );
        assert!(p.message.contains("phone_reveal"), "{p:?}");
    }

    #[test]
    fn a_certified_badge_image_loads_on_the_site_and_badges_a_make() {
        accepted("cards: { certified_badge_make: Toyota, certified_badge_image: /images/certified-pre-owned.svg }\n");
        let p = problem_at(
            "cards: { certified_badge_make: null, certified_badge_image: /images/cpo.svg }\n",
            "cards.certified_badge_image",
        );
        assert!(p.message.contains("no car gets the badge"), "{p:?}");
        let p = problem_at(
            "cards: { certified_badge_make: Toyota, certified_badge_image: images/cpo.svg }\n",
            "cards.certified_badge_image",
        );
        assert!(p.message.contains("would not load"), "{p:?}");
    }

    #[test]
    fn a_button_label_is_a_few_words_on_one_line() {
        crate::check::testing::accepted(
            "cards: { labels: { finance: Finance Enquiry, reserve: Reserve Car Now } }\n",
        );
        for bad in [
            "\"\"",
            "\"  \"",
            "\"a very long label that goes on and on past forty\"",
            "\"two\\nlines\"",
        ] {
            let p = crate::check::testing::problem_at(
                &format!("cards: {{ labels: {{ finance: {bad} }} }}\n"),
                "cards.labels.finance",
            );
            assert!(p.message.contains("1 to 40 characters"), "{bad}: {p:?}");
        }
    }
    use crate::check::testing::{accepted, problem_at, problems};

    #[test]
    fn photo_address_templates_must_expand() {
        let p = problem_at(
            "images: { url_template: \"{url}?w={widht}\" }\n",
            "images.url_template",
        );
        assert_eq!(
            p.message,
            "photo address template: `{widht}` is not a placeholder"
        );
        assert!(p.hint.unwrap().contains("{width}"));
        let p = problem_at(
            "images: { url_template: \"{url}?q={quality}\" }\n",
            "images.url_template",
        );
        assert_eq!(
            p.message,
            "photo address template: the template has no `{width}`"
        );
        problem_at(
            "images: { url_template: \"https://img.example/{width}\" }\n",
            "images.url_template",
        );
        accepted("images: { url_template: \"{url}?w={width}&q={quality}\" }\n");
        accepted(
            "images: { url_template: \"{base}-{width}.{ext}\", srcset_widths: [480, 1280] }\n",
        );
    }

    #[test]
    fn srcset_widths_go_up_and_exist_with_a_template() {
        let p = problem_at(
            "images: { srcset_widths: [480, 960, 640] }\n",
            "images.srcset_widths[2]",
        );
        assert_eq!(p.message, "640 px does not come after 960 px");
        problem_at(
            "images: { srcset_widths: [100] }\n",
            "images.srcset_widths[0]",
        );
        problem_at(
            "images: { url_template: \"{url}?w={width}\", srcset_widths: [] }\n",
            "images.srcset_widths",
        );
        accepted("images: { srcset_widths: [] }\n");
        // The fallback width and the quality have ranges in the schema.
        problem_at("images: { width: 50 }\n", "images.width");
        problem_at("images: { quality: 0 }\n", "images.quality");
    }

    #[test]
    fn result_cards_offer_no_call_button_where_the_numbers_are_masked() {
        let p = problem_at(
            "features: { phone_reveal: true }\ncards: { buttons: [enquire, call_dealer] }\n",
            "cards.buttons[1]",
        );
        assert!(p.message.contains("`features.phone_reveal` masks"));
        accepted("features: { phone_reveal: false }\ncards: { buttons: [enquire, call_dealer] }\n");
        accepted("features: { phone_reveal: true }\ncards: { buttons: [enquire, finance] }\n");
    }

    #[test]
    fn sidebar_buttons_and_tabs_each_do_something_once() {
        let p = problem_at(
            "detail_page: { sidebar_buttons: [enquire, view_details] }\n",
            "detail_page.sidebar_buttons[1]",
        );
        assert!(p.message.contains("does nothing in the car page's sidebar"));
        let p = problem_at(
            "detail_page: { sidebar_buttons: [enquire, call_dealer, enquire] }\n",
            "detail_page.sidebar_buttons[2]",
        );
        assert_eq!(
            p.hint.as_deref(),
            Some("sidebar_buttons[0] is the same button")
        );
        problem_at(
            "detail_page: { tabs: [features, dealer_comments, features] }\n",
            "detail_page.tabs[2]",
        );
        accepted("detail_page: { sidebar_buttons: [enquire, make_offer, test_drive], tabs: [features] }\n");
    }

    #[test]
    fn tab_entries_and_benefits_have_text() {
        problem_at(
            "detail_page: { why_buy_from_us: [{ title: \" \" }] }\n",
            "detail_page.why_buy_from_us[0].title",
        );
        problem_at(
            "detail_page: { certified_benefits: [\"\"] }\n",
            "detail_page.certified_benefits[0]",
        );
        accepted("detail_page: { whats_included: [{ title: 12 months roadside assist, car_types: [used] }] }\n");
    }

    const ADVANTAGE: &str = "detail_page:\n  service_advantage:\n    title: Service Advantage\n    make: Toyota\n    default: { price: 250, services: 5, years: 5, max_km: 75000, interval_months: 12, interval_km: 15000 }\n";

    #[test]
    fn every_servicing_row_can_show() {
        accepted(&format!(
            "{ADVANTAGE}    models:\n      - {{ models: [HiAce, HiLux], price: 290, years: 3 }}\n"
        ));
        let over = format!(
            "{ADVANTAGE}    models:\n      - {{ models: [HiLux], price: 290 }}\n      - {{ models: [Hi-Lux], price: 0 }}\n      - {{ models: [], price: 300 }}\n"
        );
        let keys: Vec<String> = problems(&over).into_iter().map(|p| p.key).collect();
        assert_eq!(
            keys,
            [
                "detail_page.service_advantage.models[1].models[0]",
                "detail_page.service_advantage.models[1].price",
                "detail_page.service_advantage.models[2].models",
            ]
        );
        let p = problem_at(
            &format!("{ADVANTAGE}    models:\n      - {{ models: [LandCruiser 70], price: 525, interval_unknown: true, interval_km: 7500 }}\n"),
            "detail_page.service_advantage.models[0].interval_unknown",
        );
        assert_eq!(p.message, "the interval is unknown, yet this row gives one");
        problem_at(
            "detail_page:\n  service_advantage:\n    title: X\n    make: \"\"\n    default: { price: 250, services: 5, years: 5, max_km: 75000, interval_months: 12, interval_km: 15000 }\n",
            "detail_page.service_advantage.make",
        );
    }
}
