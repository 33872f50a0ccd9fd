//! What counts as stating an interest rate, a repayment or a comparison rate
//! in free text (dealer comments, disclaimers, offers, legal text).
//!
//! Deliberately generous on rates ("5.99% p.a.", "0% finance", "interest
//! from 4.5%") and narrow on repayments (a dollar amount only counts with
//! finance words around it: "$99 / week" alone is a subscription or hire
//! price, "finance from $99 a week" is a repayment).

use std::sync::LazyLock;

pub use dealer_config::finance_text::{comparison_rates_in, states_comparison_rate};
use dealer_config::finance_text::{pattern, NUM};
use regex::Regex;

/// "5.99% p.a.", "4.5 % per annum", "0% finance", "2.9% APR", "6% interest",
/// "interest rate of 5.99%", "rates from 4.5%".
static RATE: LazyLock<Regex> = LazyLock::new(|| {
    pattern(&format!(
        r"(?i)(?:\b{NUM}\s?%\s*(?:p\.?\s?a\b\.?|per\s+annum\b|apr\b|interest\b|fixed\b|variable\b|finance\b|rate\b))|(?:\b(?:interest(?:\s+rates?)?|finance|rates?)\s+(?:of\s+|from\s+|at\s+|is\s+|are\s+|:\s*)?(?:only\s+|just\s+)?{NUM}\s?%)"
    ))
});

/// "finance from $99", "repayments of $1,234.50".
static REPAYMENT: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)\b(?:finance|repayments?)\s+(?:from|of|only|just|at|is|are)?\s*(?:only\s+|just\s+)?\$\s?\d[\d,]*(?:\.\d{1,2})?",
    )
});

/// "$99 / week", "$420 per month", "$99pw": a repayment when the same text
/// also speaks of finance or repayments.
static PERIODIC: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)\$\s?\d[\d,]*(?:\.\d{1,2})?\s*(?:/\s*|per\s+|a\s+|p/?\s*)(?:week|wk|w|fortnight|fn|month|mth|mo)\b",
    )
});
static FINANCE_WORDS: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(?i)\b(?:financ\w*|repay\w*|loan)\b"));

/// A rate or repayment stated in `text`: (byte offset, the words).
pub fn rate_or_repayment_mentions(text: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = RATE
        .find_iter(text)
        .chain(REPAYMENT.find_iter(text))
        .map(|m| (m.start(), m.as_str().to_string()))
        .collect();
    if FINANCE_WORDS.is_match(text) {
        out.extend(
            PERIODIC
                .find_iter(text)
                .map(|m| (m.start(), m.as_str().to_string())),
        );
    }
    out.sort();
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

/// Whether `text` holds a percentage (a marked comparison figure must).
pub fn has_percentage(text: &str) -> bool {
    static PCT: LazyLock<Regex> = LazyLock::new(|| pattern(&format!(r"{NUM}\s?%")));
    PCT.is_match(text)
}

/// Cheap test on a whole page's HTML: can it hold anything the check looks
/// at? Pages without a marked figure or a rate-like text are not parsed.
/// Markup between the words ("<b>5.99%</b> p.a.", "5.99%&nbsp;p.a.", a
/// dealer's formatted comment or offer) does not hide a rate from it.
pub fn worth_parsing(html: &str) -> bool {
    if html.contains("data-finance") {
        return true;
    }
    let text = markup_removed(html);
    RATE.is_match(&text)
        || REPAYMENT.is_match(&text)
        || (PERIODIC.is_match(&text) && FINANCE_WORDS.is_match(&text))
}

/// The page's text for [`worth_parsing`]: every tag (`<` to the next `>`)
/// removed, a `<br>` as a space, and the entities a rate or an amount is
/// written with decoded. One pass by hand: it runs on every page of every
/// build, and a regex replacement with a closure took most of the check's
/// time (the captures force the slowest engine).
fn markup_removed(html: &str) -> String {
    let mut out = String::with_capacity(html.len() / 2);
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        let Some(gt) = rest[lt..].find('>') else {
            // "<" without a ">" after it is text, and so is the rest.
            break;
        };
        out.push_str(&rest[..lt]);
        if rest
            .get(lt + 1..lt + 3)
            .is_some_and(|name| name.eq_ignore_ascii_case("br"))
        {
            out.push(' ');
        }
        rest = &rest[lt + gt + 1..];
    }
    out.push_str(rest);
    if !out.contains('&') {
        return out;
    }
    out.replace("&nbsp;", " ")
        .replace("&#160;", " ")
        .replace("&#37;", "%")
        .replace("&percnt;", "%")
        .replace("&#36;", "$")
        .replace("&dollar;", "$")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        rate_or_repayment_mentions(text)
            .into_iter()
            .map(|(_, w)| w)
            .collect()
    }

    #[test]
    fn rates_in_the_ways_dealers_write_them() {
        for (text, found) in [
            ("Finance at 5.99% p.a. available", "Finance at 5.99%"),
            ("Drive away at 5.99% p.a.", "5.99% p.a."),
            ("only 4.5 % per annum", "4.5 % per annum"),
            ("0% finance on all MG", "0% finance"),
            ("2.9% APR", "2.9% APR"),
            ("6% interest for 3 years", "6% interest"),
            ("interest rate of 5.99% fixed", "interest rate of 5.99%"),
            ("Rates from 4.5%", "Rates from 4.5%"),
            ("5.99%p.a.", "5.99%p.a."),
        ] {
            assert_eq!(words(text), [found], "{text}");
        }
        for text in [
            "10% deposit required",
            "Save 15% on accessories",
            "Only 20% of buyers",
            "4.5 stars",
            "$34,990 drive away",
            "$99 / week subscription, insurance included",
        ] {
            assert!(words(text).is_empty(), "{text}: {:?}", words(text));
        }
    }

    #[test]
    fn repayments_need_finance_words() {
        assert_eq!(
            words("Finance from $99 per week"),
            ["Finance from $99", "$99 per week"]
        );
        assert_eq!(
            words("Repayments of $1,234.50 a month"),
            ["Repayments of $1,234.50", "$1,234.50 a month"]
        );
        assert_eq!(words("Drive it for $99pw on our finance plan"), ["$99pw"]);
        assert!(words("Subscribe for $99 / week").is_empty());
    }

    #[test]
    fn the_prefilter_lets_every_case_through() {
        assert!(worth_parsing("<p>5.99% p.a.</p>"));
        assert!(worth_parsing("<span data-finance=\"rate\">"));
        assert!(worth_parsing("<p>finance from $99</p>"));
        assert!(!worth_parsing("<p>$34,990 drive away, 10% deposit</p>"));
        // Markup and entities between the words do not hide a rate.
        assert!(worth_parsing("<p><b>5.99%</b>&nbsp;p.a.</p>"));
        assert!(worth_parsing("<p>Finance from<BR/>&#36;99</p>"));
        assert!(worth_parsing("<p>5.99&#37; p.a.</p>"));
        // A tag is removed without a space ("5.9<i></i>9%" is 5.99%), a <br> is a space.
        assert_eq!(markup_removed("a<br>b<Br/>c<i>d</i>"), "a b cd");
        // A "<" with no ">" after it is text, like the rest of the page.
        assert_eq!(markup_removed("x < 5.99% p.a."), "x < 5.99% p.a.");
        assert!(worth_parsing("rates: 3 < 5.99% p.a."));
        // Dealer text's non-ASCII punctuation beside a rate.
        assert!(worth_parsing("<p>Finance – 5.99% p.a.’s best</p>"));
        assert!(worth_parsing("<p>Finance—5.99% p.a.</p>"));
        // Formatting from a feed or a dealer file hides nothing.
        assert!(worth_parsing("<p><b>5.99%</b> p.a.</p>"));
        assert!(worth_parsing("<p>Finance at <strong>5.99%</strong></p>"));
        assert!(worth_parsing("<p>5.99%&nbsp;p.a.</p>"));
        assert!(worth_parsing("<p>finance<br>from $99</p>"));
    }
}
