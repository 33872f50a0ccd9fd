//! Reading finance figures out of a dealer's own text: the comparison
//! rates a disclaimer states. The config checks use it (a calculator's
//! default rate needs a comparison rate to show beside it), and so does the
//! generator's compliance check of built pages (`generator/src/checks/compliance/
//! patterns.rs`, which builds its other patterns from [`NUM`] and
//! [`pattern`]).

use std::sync::LazyLock;

use regex::Regex;

/// A pattern with ASCII word boundaries: `\b` in Unicode mode stops the
/// regex crate's fast (DFA) engines at the first non-ASCII character, and
/// dealer text has plenty ("–", "’"), so every page fell back to the slow
/// one. The words the patterns look for are ASCII, so the boundaries mean
/// the same to them.
pub fn pattern(re: &str) -> Regex {
    Regex::new(&re.replace(r"\b", r"(?-u:\b)")).expect("a valid finance text pattern")
}

/// A percentage figure: "5", "5.99", "19.425".
pub const NUM: &str = r"\d{1,2}(?:\.\d{1,3})?";

/// "comparison rate 8.37%", "comparison rate of 8.37% p.a.", "8.37%
/// comparison rate", "comparison rates from 7.5% to 9%".
static COMPARISON: LazyLock<Regex> = LazyLock::new(|| {
    pattern(&format!(
        r"(?i)(?:comparison\s+rates?\b[^%]{{0,40}}?({NUM})\s?%(?:\s*(?:to|-|–)\s*({NUM})\s?%)?)|(?:({NUM})\s?%\s*(?:p\.?\s?a\.?\s*)?comparison\s+rate)"
    ))
});

/// Whether `text` states a comparison rate (with its percentage).
pub fn states_comparison_rate(text: &str) -> bool {
    COMPARISON.is_match(text)
}

/// The lowest and highest comparison rate `text` states, e.g. a dealer
/// disclaimer's "comparison rates from 7.5% to 9.05%" → (7.5, 9.05).
/// Interest rates in the same text are not comparison rates and are left out.
pub fn comparison_rates_in(text: &str) -> Option<(f64, f64)> {
    let rates: Vec<f64> = COMPARISON
        .captures_iter(text)
        .flat_map(|c| {
            [c.get(1), c.get(2), c.get(3)]
                .into_iter()
                .flatten()
                .filter_map(|m| m.as_str().parse::<f64>().ok())
                .collect::<Vec<_>>()
        })
        .filter(|r| *r > 0.0)
        .collect();
    let lo = rates.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = rates.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (!rates.is_empty()).then_some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparison_rates_are_recognised_and_read() {
        assert!(states_comparison_rate("comparison rate 8.37% p.a."));
        assert!(states_comparison_rate("Comparison Rate of 8.37%"));
        assert!(states_comparison_rate("8.37% p.a. comparison rate*"));
        assert!(!states_comparison_rate(
            "Comparison rate based on a $30,000 secured loan over 5 years."
        ));
        assert!(!states_comparison_rate("5.99% p.a."));
        assert_eq!(
            comparison_rates_in("at 6.29% p.a., comparison rate 8.19% p.a."),
            Some((8.19, 8.19))
        );
        assert_eq!(
            comparison_rates_in("Comparison rates from 7.5% to 9.05%. And 8% comparison rate."),
            Some((7.5, 9.05))
        );
        assert_eq!(comparison_rates_in("Indicative only. Fees apply."), None);
    }
}
