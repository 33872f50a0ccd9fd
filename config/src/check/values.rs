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
    if let Some(Node::Scalar(Scalar::Str(name), span)) = tree.get("timezone") {
        if let Err(message) = name.parse::<TimeZone>() {
            let hint = closest(name, chrono_tz::TZ_VARIANTS.iter().map(|t| t.name()))
                .map(|s| format!("did you mean `{s}`?"))
                .unwrap_or_else(|| {
                    "use an IANA name such as Australia/Brisbane, Australia/Sydney or Australia/Perth"
                        .into()
                });
            out.push(Problem::error(*span, "timezone", message).hint(hint));
        }
    }
    out
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
}
