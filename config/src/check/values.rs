//! Values that deserialise into checked types (the time zone): checked on
//! the YAML tree before the config is typed, so the problem gets its line
//! and hint and the section is set aside instead of failing the whole file.

use crate::diagnostic::Problem;
use crate::model::TimeZone;
use crate::suggest::closest;
use crate::yaml::{Node, Scalar};

/// Problems of values that would not deserialise although the schema (text)
/// accepts them.
pub(crate) fn check(tree: &Node) -> Vec<Problem> {
    let mut out = Vec::new();
    check_time_zone(tree.get("timezone"), "timezone", &mut out);
    // A location in another state has its own time zone.
    if let Some(Node::Seq(locations, _)) = tree.get("locations") {
        for (i, loc) in locations.iter().enumerate() {
            check_time_zone(
                loc.get("timezone"),
                &format!("locations[{i}].timezone"),
                &mut out,
            );
        }
    }
    out
}

fn check_time_zone(node: Option<&Node>, key: &str, out: &mut Vec<Problem>) {
    if let Some(Node::Scalar(Scalar::Str(name), span)) = node {
        if let Err(message) = name.parse::<TimeZone>() {
            let hint = closest(name, chrono_tz::TZ_VARIANTS.iter().map(|t| t.name()))
                .map(|s| format!("did you mean `{s}`?"))
                .unwrap_or_else(|| {
                    "use an IANA name such as Australia/Brisbane, Australia/Sydney or Australia/Perth"
                        .into()
                });
            out.push(Problem::error(*span, key, message).hint(hint));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::check::testing::{accepted, problem_at};

    #[test]
    fn time_zones_must_exist() {
        let p = problem_at("timezone: Australia/Brisbain\n", "timezone");
        assert_eq!(p.message, "time zone `Australia/Brisbain` does not exist");
        assert_eq!(
            p.hint.as_deref(),
            Some("did you mean `Australia/Brisbane`?")
        );
        assert_eq!((p.span.file, p.span.line, p.span.col), (1, 1, 11));
        let p = problem_at("timezone: Queensland time\n", "timezone");
        assert!(p.hint.unwrap().contains("IANA name"));
        accepted("timezone: Australia/Perth\n");
    }

    #[test]
    fn a_location_may_have_its_own_time_zone_if_it_exists() {
        let loc = "locations:\n  - { id: main, name: Main, phone: (07) 3555 0101, timezone: Australia/Adelaid, address: { street: 1 A St, suburb: Newstead, state: QLD, postcode: \"4006\" } }\n";
        let p = problem_at(loc, "locations[0].timezone");
        assert_eq!(
            p.hint.as_deref(),
            Some("did you mean `Australia/Adelaide`?")
        );
        accepted(&loc.replace("Adelaid,", "Adelaide,"));
    }
}
