//! Locations: unique ids and pages, contact details in Australian form,
//! coordinates in Australia, opening hours that parse, one primary.

use std::collections::HashMap;

use chrono::{Datelike, NaiveDate, Weekday};
use dealer_rules::contact;

use crate::hours::parse_day;
use crate::model::{Location, Maps};
use crate::slug::location_slug;
use crate::yaml::Node;

use super::identity::{check_email, check_phone};
use super::urls::{check_https, check_image};
use super::{root, Ctx, KeyPath};

/// The static map image and directions link templates: https, with the
/// coordinates (or the address) to fill in.
pub(super) fn check_maps(maps: &Maps, cx: &mut Ctx) {
    let base = root().key("maps");
    if let Some(url) = &maps.static_map_url {
        let path = base.clone().key("static_map_url");
        if check_https(
            url,
            &path,
            &format!("`{url}` is not an https:// address"),
            cx,
        ) && !(url.contains("{lat}") && url.contains("{lng}"))
        {
            cx.err(&path, "the map image address has no `{lat}` and `{lng}`")
                .hint =
                Some("write where the coordinates go, e.g. ...?center={lat},{lng}&zoom=15".into());
        }
    }
    let path = base.key("directions_url");
    let url = &maps.directions_url;
    if check_https(
        url,
        &path,
        &format!("`{url}` is not an https:// address"),
        cx,
    ) && !(url.contains("{lat}") && url.contains("{lng}"))
        && !url.contains("{address}")
    {
        cx.err(
            &path,
            "the directions address has no `{lat}`/`{lng}` or `{address}`",
        )
        .hint = Some("write where the destination goes, e.g. ...?destination={lat},{lng}".into());
    }
}

pub(super) fn check(locations: &[Location], cx: &mut Ctx) {
    let base = root().key("locations");
    let written =
        matches!(cx.tree.get("locations"), Some(Node::Seq(items, _)) if !items.is_empty());
    if locations.is_empty() && !written && cx.skip.ok("locations") {
        cx.err(&base, "a dealer needs at least one location").hint =
            Some("locations hold the address, phone and hours shown on the contact page".into());
    }
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut slugs: HashMap<String, usize> = HashMap::new();
    // A hidden location is placed nowhere: the site needs a visible main one.
    if !locations.is_empty() && locations.iter().all(|l| !l.visible) {
        cx.err(&base, "every location is hidden (visible: false)")
            .hint = Some("the site lists at least one location: make the main one visible".into());
    }
    for (k, loc) in locations.iter().enumerate() {
        let i = cx.skip.location(k);
        let p = base.clone().index(i);
        if loc.primary && !loc.visible {
            cx.err(
                &p.clone().key("visible"),
                "the primary location cannot be hidden",
            )
            .hint = Some(
                "cars at a hidden location are shown at the primary one: mark another location primary, or leave this one visible".into(),
            );
        }
        if let Some(first) = ids.insert(&loc.id, i) {
            cx.err(
                &p.clone().key("id"),
                format!("location id `{}` is used twice", loc.id),
            )
            .hint = Some(format!(
                "locations[{first}] has the same id; ids must be unique"
            ));
        }
        let slug = location_slug(loc);
        if let Some(first) = slugs.insert(slug.clone(), i) {
            cx.err(
                &p.clone().key("name"),
                format!("location page /contact-us/{slug} would be made twice"),
            )
            .hint = Some(format!(
                "locations[{first}] gets the same slug; set `slug` on one of them"
            ));
        }
        check_phone(&loc.phone, &p.clone().key("phone"), cx);
        if let Some(landline) = &loc.landline {
            let at = p.clone().key("landline");
            match dealer_rules::contact::parse_au_phone(landline) {
                Some(n) if n.kind() == dealer_rules::contact::PhoneKind::Landline => {
                    if dealer_rules::contact::parse_au_phone(&loc.phone).is_some_and(|m| m == n) {
                        cx.err(
                            &at,
                            "the landline is the location's `phone` again: leave it out",
                        );
                    }
                }
                _ => {
                    cx.err(&at, format!("`{landline}` is not an Australian landline"))
                        .expected =
                        Some("a fixed-line number with its area code, e.g. (07) 3555 0199".into());
                }
            }
        }
        for (key, v) in [("email", &loc.email), ("lead_email", &loc.lead_email)] {
            if let Some(v) = v {
                check_email(v, &p.clone().key(key), cx);
            }
        }
        check_address(loc, &p, cx);
        check_hours(loc, &p, cx);
        if let Some(img) = &loc.image {
            check_image(img, &p.clone().key("image"), cx);
        }
    }
    let primaries = locations.iter().filter(|l| l.primary).count();
    if primaries > 1 {
        let second = locations
            .iter()
            .enumerate()
            .filter(|(_, l)| l.primary)
            .nth(1)
            .map(|(k, _)| cx.skip.location(k))
            .unwrap_or(0);
        cx.err(
            &base.clone().index(second).key("primary"),
            "only one location can be primary",
        );
    }
}

fn check_address(loc: &Location, p: &KeyPath, cx: &mut Ctx) {
    let a = &loc.address;
    if !contact::is_valid_postcode(&a.postcode) {
        cx.err(
            &p.clone().key("address").key("postcode"),
            format!("`{}` is not a postcode", a.postcode),
        )
        .expected = Some("exactly 4 digits, in quotes, e.g. \"4006\"".into());
    }
    if a.lat.is_some_and(|l| !(-45.0..=-9.0).contains(&l))
        || a.lng.is_some_and(|l| !(112.0..=155.0).contains(&l))
    {
        cx.err(
            &p.clone().key("address"),
            "latitude/longitude are outside Australia",
        )
        .hint = Some(
            "latitude is negative in Australia (e.g. -27.45), longitude about 113 to 154".into(),
        );
    }
    if let Some(url) = &a.map_url {
        check_https(
            url,
            &p.clone().key("address").key("map_url"),
            &format!("`{url}` is not an https:// link"),
            cx,
        );
    }
}

fn check_hours(loc: &Location, p: &KeyPath, cx: &mut Ctx) {
    for (dept, week) in [
        ("sales", &loc.hours.sales),
        ("service", &loc.hours.service),
        ("parts", &loc.hours.parts),
    ] {
        let Some(week) = week else { continue };
        for (day, value) in week.days() {
            if let Some(v) = value {
                if let Err(e) = parse_day(v) {
                    cx.err(
                        &p.clone().key("hours").key(dept).key(day),
                        format!("opening hours: {e}"),
                    )
                    .expected = Some("\"08:30-17:30\" (24-hour) or \"closed\"".into());
                }
            }
        }
    }
    for (j, sh) in loc.special_hours.iter().enumerate() {
        let sp = p.clone().key("special_hours").index(j);
        if NaiveDate::parse_from_str(&sh.date, "%Y-%m-%d").is_err() {
            cx.err(
                &sp.clone().key("date"),
                format!("`{}` is not a date", sh.date),
            )
            .expected = Some("a date like \"2026-12-25\"".into());
        }
        if let Err(e) = parse_day(&sh.hours) {
            cx.err(&sp.clone().key("hours"), format!("special hours: {e}"))
                .expected = Some("\"09:00-13:00\" or \"closed\"".into());
        }
    }
    if let Some(alt) = &loc.alternate_saturdays {
        let ap = p.clone().key("alternate_saturdays").key("from");
        match NaiveDate::parse_from_str(&alt.from, "%Y-%m-%d") {
            Ok(d) if d.weekday() != Weekday::Sat => {
                cx.err(
                    &ap,
                    format!("{} is a {:?}, not a Saturday", alt.from, d.weekday()),
                );
            }
            Ok(_) => {}
            Err(_) => {
                cx.err(&ap, format!("`{}` is not a date", alt.from))
                    .expected = Some("a Saturday like \"2025-06-14\"".into());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::check::testing::{accepted, problem_at, problems};

    const SECOND: &str = "{ id: north, name: North, phone: (07) 3555 0102, address: { street: 2 B St, suburb: Albion, state: QLD, postcode: \"4010\" } }";

    fn with_main(main_extra: &str, second: &str) -> String {
        format!(
            "locations:\n  - {{ id: main, name: Main, phone: (07) 3555 0101, address: {{ street: 1 A St, suburb: Newstead, state: QLD, postcode: \"4006\" }}{main_extra} }}\n  - {second}\n"
        )
    }

    #[test]
    fn ids_and_pages_are_unique() {
        let p = problem_at(
            &with_main("", &SECOND.replace("id: north", "id: main")),
            "locations[1].id",
        );
        assert!(p.hint.unwrap().contains("locations[0]"));
        // "Main Sales" and "Main" both make /contact-us/main.
        let p = problem_at(
            &with_main("", &SECOND.replace("name: North", "name: Main Sales")),
            "locations[1].name",
        );
        assert_eq!(
            p.message,
            "location page /contact-us/main would be made twice"
        );
        accepted(&with_main(
            "",
            &SECOND.replace("name: North", "name: Main Sales, slug: main-sales"),
        ));
    }

    #[test]
    fn a_hidden_location_is_never_the_primary_nor_the_only_kind_left() {
        let hidden_second = format!("{}, visible: false }}", SECOND.strip_suffix('}').unwrap());
        accepted(&with_main(", primary: true", &hidden_second));
        let p = problem_at(
            &with_main(", primary: true, visible: false", SECOND),
            "locations[0].visible",
        );
        assert_eq!(p.message, "the primary location cannot be hidden");
        let both = with_main(", visible: false", &hidden_second);
        let p = problem_at(&both, "locations");
        assert_eq!(p.message, "every location is hidden (visible: false)");
    }

    #[test]
    fn a_landline_is_a_fixed_line_other_than_the_phone() {
        accepted(&with_main(", landline: (07) 3555 0199", SECOND));
        let p = problem_at(
            &with_main(", landline: 0412 345 678", SECOND),
            "locations[0].landline",
        );
        assert_eq!(p.message, "`0412 345 678` is not an Australian landline");
        let p = problem_at(
            &with_main(", landline: 07 3555 0101", SECOND),
            "locations[0].landline",
        );
        assert!(p.message.contains("`phone` again"), "{}", p.message);
    }

    #[test]
    fn only_one_location_is_primary() {
        let p = problem_at(
            &with_main(
                ", primary: true",
                &SECOND.replace("id: north", "id: north, primary: true"),
            ),
            "locations[1].primary",
        );
        assert_eq!(p.message, "only one location can be primary");
        accepted(&with_main(", primary: true", SECOND));
    }

    #[test]
    fn addresses_are_australian() {
        let p = problem_at(
            &with_main("", &SECOND.replace("\"4010\"", "\"401\"")),
            "locations[1].address.postcode",
        );
        assert!(p.expected.unwrap().contains("4 digits"));
        let p = problem_at(
            &with_main(
                "",
                &SECOND.replace(
                    "postcode: \"4010\"",
                    "postcode: \"4010\", lat: 27.4, lng: 153.0",
                ),
            ),
            "locations[1].address",
        );
        assert!(p.hint.unwrap().contains("negative"));
        problem_at(
            &with_main(
                "",
                &SECOND.replace(
                    "postcode: \"4010\"",
                    "postcode: \"4010\", map_url: \"http://maps.example.com/x\"",
                ),
            ),
            "locations[1].address.map_url",
        );
        accepted(&with_main("", &SECOND.replace("postcode: \"4010\"", "postcode: \"4010\", lat: -27.4, lng: 153.0, map_url: \"https://maps.example.com/?q=1+B+St\"")));
    }

    #[test]
    fn hours_special_hours_and_alternate_saturdays_parse() {
        let over = with_main(
            ", hours: { sales: { mon: \"9-5\" } }, special_hours: [{ date: 25/12/2026, hours: closed }, { date: \"2026-12-26\", hours: \"13:00-09:00\" }], alternate_saturdays: { department: service, from: \"2025-06-13\" }",
            SECOND,
        );
        let keys: Vec<String> = problems(&over).into_iter().map(|p| p.key).collect();
        assert_eq!(
            keys,
            [
                "locations[0].hours.sales.mon",
                "locations[0].special_hours[0].date",
                "locations[0].special_hours[1].hours",
                "locations[0].alternate_saturdays.from",
            ]
        );
        assert_eq!(
            problem_at(&over, "locations[0].alternate_saturdays.from").message,
            "2025-06-13 is a Fri, not a Saturday"
        );
        accepted(&with_main(
            ", alternate_saturdays: { department: service, from: \"2025-06-14\" }",
            SECOND,
        ));
    }

    #[test]
    fn location_images_and_map_templates_work() {
        problem_at(
            &with_main(
                "",
                &SECOND.replace("id: north", "id: north, image: north.jpg"),
            ),
            "locations[1].image",
        );
        let p = problem_at(
            "maps: { static_map_url: \"https://maps.example.com/static?center=-27,153\" }\n",
            "maps.static_map_url",
        );
        assert_eq!(
            p.message,
            "the map image address has no `{lat}` and `{lng}`"
        );
        problem_at(
            "maps: { directions_url: \"https://maps.example.com/dir\" }\n",
            "maps.directions_url",
        );
        problem_at(
            "maps: { directions_url: \"http://maps.example.com/?q={address}\" }\n",
            "maps.directions_url",
        );
        accepted("maps: { static_map_url: \"https://maps.example.com/static?center={lat},{lng}&key=PUBLIC\", directions_url: \"https://maps.example.com/?q={address}\" }\n");
    }

    #[test]
    fn a_dealer_needs_a_location() {
        let p = problem_at("locations: []\n", "locations");
        assert_eq!(p.message, "a dealer needs at least one location");
        assert_eq!((p.span.file, p.span.line), (1, 1));
    }
}
