//! The company, service and legal pages: each page that is on has
//! something to show (the Markdown wording is checked with the files, in
//! `content`), and the phone it prints is a phone.

use crate::model::{DealerConfig, LocationKind};

use super::identity::check_phone;
use super::{root, Ctx};

pub(super) fn check(cfg: &DealerConfig, cx: &mut Ctx) {
    if cx.skip.ok("service") {
        if let Some(phone) = &cfg.service.roadside_phone {
            check_phone(phone, &root().key("service").key("roadside_phone"), cx);
        }
        check_additional_services(&cfg.service.additional_services, cx);
    }
    if cx.skip.ok("pages") && cx.skip.ok("locations") && cfg.pages.service {
        let serviced = cfg
            .locations
            .iter()
            .any(|l| l.kind == LocationKind::Service || l.hours.service.is_some());
        if !serviced {
            cx.err(
                &root().key("pages").key("service"),
                "the service page lists the locations that service cars, and none does",
            )
            .hint = Some(
                "give a location `hours: { service: ... }` or `kind: service`, or set `pages.service: false`".into(),
            );
        }
    }
}

/// The edge keeps at most 20 extras of at most 100 characters
/// (edge/core/src/lead.rs `additional_services`): the choices fit.
const MAX_EXTRAS: usize = 20;
const MAX_EXTRA_CHARS: usize = 100;

fn check_additional_services(extras: &[String], cx: &mut Ctx) {
    let at = root().key("service").key("additional_services");
    if extras.len() > MAX_EXTRAS {
        cx.err(
            &at,
            format!(
                "{} extras: a booking carries at most {MAX_EXTRAS}",
                extras.len()
            ),
        );
    }
    for (i, e) in extras.iter().enumerate() {
        let path = at.clone().index(i);
        if e.trim().is_empty() {
            cx.err(&path, "an empty extra is no choice");
        } else if e.chars().count() > MAX_EXTRA_CHARS || e.contains('\n') {
            cx.err(
                &path,
                format!("at most {MAX_EXTRA_CHARS} characters on one line"),
            );
        } else if extras[..i]
            .iter()
            .any(|o| o.trim().eq_ignore_ascii_case(e.trim()))
        {
            cx.err(&path, format!("`{e}` is listed twice"));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::check::testing::{accepted, problem_at};

    #[test]
    fn service_extras_are_short_distinct_choices() {
        accepted("service: { additional_services: [Wheel alignment, Tyre check] }\n");
        let p = problem_at(
            "service: { additional_services: [Tyres, tyres] }\n",
            "service.additional_services[1]",
        );
        assert_eq!(p.message, "`tyres` is listed twice");
        let p = problem_at(
            "service: { additional_services: [\"\"] }\n",
            "service.additional_services[0]",
        );
        assert_eq!(p.message, "an empty extra is no choice");
    }

    #[test]
    fn the_service_page_needs_a_location_that_services_cars() {
        let p = problem_at("pages: { service: true }\n", "pages.service");
        assert!(p.message.contains("none does"), "{}", p.message);
        accepted("pages: { service: true }\nlocations:\n  - { id: s, name: Service, kind: service, phone: (07) 3555 0101, address: { street: 1 A St, suburb: Newstead, state: QLD, postcode: \"4006\" } }\n");
        accepted("pages: { service: true }\nlocations:\n  - { id: s, name: Main, phone: (07) 3555 0101, hours: { service: { mon: \"08:00-17:00\" } }, address: { street: 1 A St, suburb: Newstead, state: QLD, postcode: \"4006\" } }\n");
    }

    #[test]
    fn the_roadside_phone_is_a_phone() {
        problem_at(
            "service: { roadside_phone: \"call us\" }\n",
            "service.roadside_phone",
        );
        accepted("service: { roadside_phone: \"1800 555 010\" }\n");
    }
}
