//! Offers and the arrival popup: unique ids (each is a page), dates that
//! parse and are in order, links and images that work.

use std::collections::HashMap;

use crate::model::{DealerConfig, Offer};
use crate::slug::kebab;

use super::dates::check_moment;
use super::home::check_dates;
use super::urls::{check_href, check_image};
use super::{root, Ctx};

pub(super) fn check(cfg: &DealerConfig, cx: &mut Ctx) {
    let tz = cfg.timezone;
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let offers: &[Offer] = if cx.skip.ok("offers") {
        &cfg.offers
    } else {
        &[]
    };
    for (i, offer) in offers.iter().enumerate() {
        let p = root().key("offers").index(i);
        if let Some(first) = ids.insert(&offer.id, i) {
            cx.err(
                &p.clone().key("id"),
                format!("offer id `{}` is used twice", offer.id),
            )
            .hint = Some(format!(
                "offers[{first}] has the same id; each offer is its own page /offers/.../{{id}}"
            ));
        }
        if kebab(&offer.id) != offer.id {
            cx.err(
                &p.clone().key("id"),
                format!("`{}` cannot be the address of the offer's page", offer.id),
            )
            .hint = Some(format!(
                "an id is lower-case words joined by dashes, e.g. `{}`",
                kebab(&offer.id)
            ));
        }
        check_dates(offer.start.as_deref(), offer.expiry.as_deref(), cfg, &p, cx);
        if let Some(image) = &offer.image {
            check_image(image, &p.clone().key("image"), cx);
        }
        for (j, w) in offer.excluded_website_ids.iter().enumerate() {
            if kebab(w) != *w {
                cx.err(
                    &p.clone().key("excluded_website_ids").index(j),
                    format!("`{w}` is not a dealer website id"),
                )
                .hint =
                    Some("a website id is a dealer file's name, e.g. sunshine-coast-toyota".into());
            }
        }
    }
    if cx.skip.ok("offers_display") && cx.skip.ok("offers") {
        for (j, id) in cfg.offers_display.show_excluded.iter().enumerate() {
            if !ids.contains_key(id.as_str()) {
                cx.err(
                    &root().key("offers_display").key("show_excluded").index(j),
                    format!("there is no offer `{id}`"),
                );
            }
        }
    }
    if let Some(popup) = cfg.popup.as_ref().filter(|_| cx.skip.ok("popup")) {
        let p = root().key("popup");
        match &popup.start {
            Some(_) => check_dates(popup.start.as_deref(), Some(&popup.expiry), cfg, &p, cx),
            None => {
                check_moment(&popup.expiry, true, tz, &p.clone().key("expiry"), cx);
            }
        }
        check_href(&popup.button_href, &p.clone().key("button_href"), cx);
        check_image(&popup.image, &p.clone().key("image"), cx);
    }
}

#[cfg(test)]
mod tests {
    use crate::check::testing::{accepted, problem_at, problems};

    fn offer(id: &str, extra: &str) -> String {
        format!("  - {{ id: {id}, name: Offer {id}, description: Cheap{extra} }}\n")
    }

    #[test]
    fn offer_ids_are_unique() {
        let over = format!(
            "offers:\n{}{}{}",
            offer("eofy", ""),
            offer("rav4", ""),
            offer("eofy", "")
        );
        let p = problem_at(&over, "offers[2].id");
        assert_eq!(p.message, "offer id `eofy` is used twice");
        assert!(p.hint.unwrap().starts_with("offers[0] has the same id"));
        assert_eq!(p.span.line, 4);
        accepted(&format!(
            "offers:\n{}{}",
            offer("eofy", ""),
            offer("rav4", "")
        ));
    }

    #[test]
    fn offer_dates_parse_and_are_in_order() {
        let over = format!(
            "offers:\n{}{}{}",
            offer("a", ", start: \"2026-11-30\", expiry: \"2026-11-01\""),
            offer("b", ", expiry: 30/11/2026"),
            offer("c", ", image: ./offer.jpg"),
        );
        let keys: Vec<String> = problems(&over).into_iter().map(|p| p.key).collect();
        assert_eq!(
            keys,
            ["offers[0].expiry", "offers[1].expiry", "offers[2].image"]
        );
        accepted(&format!(
            "offers:\n{}",
            offer(
                "a",
                ", start: \"2026-11-01\", expiry: \"2026-11-30\", image: /images/a.jpg"
            )
        ));
    }

    #[test]
    fn offer_ids_are_page_addresses_and_exclusions_name_websites_and_offers() {
        let over = format!(
            "offers:\n{}{}offers_display: {{ show_excluded: [eofy, nope] }}\n",
            offer("EOFY Sale", ""),
            offer(
                "eofy",
                ", excluded_website_ids: [sunshine-coast-toyota, Perth Auto]"
            ),
        );
        let keys: Vec<String> = problems(&over).into_iter().map(|p| p.key).collect();
        assert_eq!(
            keys,
            [
                "offers[0].id",
                "offers[1].excluded_website_ids[1]",
                "offers_display.show_excluded[1]"
            ]
        );
        assert_eq!(
            problem_at(&over, "offers[0].id").hint.as_deref(),
            Some("an id is lower-case words joined by dashes, e.g. `eofy-sale`")
        );
    }

    #[test]
    fn the_popup_has_a_date_a_link_and_an_image() {
        let over = "popup: { image: popup.jpg, title: Sale, description: Now, button_label: Go, button_href: sale, expiry: soon }\n";
        let keys: Vec<String> = problems(over).into_iter().map(|p| p.key).collect();
        assert_eq!(keys, ["popup.image", "popup.button_href", "popup.expiry"]);
        accepted("popup: { image: /popup.jpg, title: Sale, description: Now, button_label: Go, button_href: /sale, expiry: \"2026-12-24\" }\n");
        let p = problem_at("popup: { image: /popup.jpg, title: Sale, description: Now, button_label: Go, button_href: /sale, start: \"2026-12-25\", expiry: \"2026-12-24\" }\n", "popup.expiry");
        assert!(p.message.contains("is before `start`"));
    }
}
