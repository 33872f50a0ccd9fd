//! Offers and the arrival popup: unique ids (each is a page), dates that
//! parse and are in order, links and images that work.

use std::collections::HashMap;

use crate::model::{DealerConfig, Offer};

use super::dates::{check_moment, check_window};
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
        match (&offer.start, &offer.expiry) {
            (Some(s), Some(e)) => check_window(s, e, tz, &p, ("start", "expiry"), cx),
            (start, expiry) => {
                if let Some(v) = start {
                    check_moment(v, false, tz, &p.clone().key("start"), cx);
                }
                if let Some(v) = expiry {
                    check_moment(v, true, tz, &p.clone().key("expiry"), cx);
                }
            }
        }
        if let Some(image) = &offer.image {
            check_image(image, &p.clone().key("image"), cx);
        }
    }
    if let Some(popup) = cfg.popup.as_ref().filter(|_| cx.skip.ok("popup")) {
        let p = root().key("popup");
        check_moment(&popup.expiry, true, tz, &p.clone().key("expiry"), cx);
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
    fn the_popup_has_a_date_a_link_and_an_image() {
        let over = "popup: { image: popup.jpg, title: Sale, description: Now, button_label: Go, button_href: sale, expiry: soon }\n";
        let keys: Vec<String> = problems(over).into_iter().map(|p| p.key).collect();
        assert_eq!(keys, ["popup.image", "popup.button_href", "popup.expiry"]);
        accepted("popup: { image: /popup.jpg, title: Sale, description: Now, button_label: Go, button_href: /sale, expiry: \"2026-12-24\" }\n");
    }
}
