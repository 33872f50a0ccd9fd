//! The check of one built page's HTML. See the module above for the markup
//! contract; this file only reads it.

use std::collections::BTreeMap;

use dealer_rules::finance_display::COMPARISON_WARNING;
use ego_tree::NodeId;
use scraper::{ElementRef, Html, Node};

use super::patterns::{has_percentage, rate_or_repayment_mentions, states_comparison_rate};

/// The figure kinds of the markup contract (`data-finance="..."`).
const RATE: &str = "rate";
const REPAYMENT: &str = "repayment";
const COMPARISON: &str = "comparison";
const WARNING: &str = "warning";

/// Size tokens, smallest first: a comparison rate's token must rank at
/// least as high as every rate and repayment of its block.
pub const SIZES: [&str; 4] = ["fin-size-sm", "fin-size-md", "fin-size-lg", "fin-size-xl"];

/// Elements that start a new run of text (paragraph-like): a rate and its
/// comparison rate are "beside" each other when they share one.
const BLOCKS: [&str; 39] = [
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "caption",
    "dd",
    "details",
    "dialog",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "html",
    "legend",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "section",
    "summary",
    "table",
    "td",
    "th",
    "tr",
    "ul",
    "output",
];

/// Text no shopper reads on the page.
const UNSEEN: [&str; 6] = ["script", "style", "noscript", "template", "title", "head"];

fn normalise(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A figure's text: an input's value, else its text.
fn figure_text(el: ElementRef) -> String {
    match el.value().name() {
        "input" => el.value().attr("value").unwrap_or("").to_string(),
        _ => el.text().collect(),
    }
}

fn size_rank(el: ElementRef) -> Option<usize> {
    el.value()
        .classes()
        .filter_map(|c| SIZES.iter().position(|s| *s == c))
        .max()
}

fn inline_font(el: ElementRef) -> bool {
    el.value().attr("style").is_some_and(|s| {
        let s = s.to_ascii_lowercase();
        s.contains("font-size") || s.contains("font:") || s.contains("zoom") || s.contains("scale")
    })
}

fn short(text: &str, at: usize, len: usize) -> String {
    let mut start = at.saturating_sub(50);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (at + len + 50).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    format!(
        "{}{}{}",
        if start > 0 { "…" } else { "" },
        text[start..end].trim(),
        if end < text.len() { "…" } else { "" }
    )
}

/// Every compliance problem of one page, as sentences.
pub fn check_html(html: &str) -> Vec<String> {
    let doc = Html::parse_document(html);
    let mut problems = Vec::new();
    let warning = normalise(COMPARISON_WARNING);
    let page_has_warning =
        normalise(&doc.root_element().text().collect::<String>()).contains(&warning);

    // 1. Marked figures, grouped by their block.
    #[derive(Default)]
    struct Block {
        shown: Vec<(String, String, usize)>,
        comparisons: Vec<(String, usize)>,
        warned: bool,
    }
    let mut blocks: BTreeMap<NodeId, Block> = BTreeMap::new();
    for node in doc.tree.nodes() {
        let Some(el) = ElementRef::wrap(node) else {
            continue;
        };
        let Some(kind) = el.value().attr("data-finance") else {
            continue;
        };
        let block = el
            .ancestors()
            .filter_map(ElementRef::wrap)
            .find(|a| a.value().attr("data-finance-block").is_some())
            .or_else(|| {
                el.value()
                    .attr("data-finance-block")
                    .is_some()
                    .then_some(el)
            });
        let text = normalise(&figure_text(el));
        let Some(block) = block else {
            // A warning on its own harms nothing: only figures must be in a block.
            if kind != WARNING && text.chars().any(|c| c.is_ascii_digit()) {
                problems.push(format!(
                    "a marked {kind} figure “{text}” sits outside any finance block (data-finance-block)"
                ));
            }
            continue;
        };
        let entry = blocks.entry(block.id()).or_default();
        if kind == WARNING {
            entry.warned |= text.contains(&warning);
            continue;
        }
        if ![RATE, REPAYMENT, COMPARISON].contains(&kind) {
            problems.push(format!("unknown finance mark data-finance=\"{kind}\""));
            continue;
        }
        // A figure shows something only when it holds a number
        // ("Enquire for Finance" and an empty rate input do not).
        if !text.chars().any(|c| c.is_ascii_digit()) {
            continue;
        }
        let Some(rank) = size_rank(el) else {
            problems.push(format!(
                "the {kind} figure “{text}” has no size class ({}), so its prominence cannot be judged",
                SIZES.join(", ")
            ));
            continue;
        };
        // Inline sizes between the block and the figure defeat the size
        // classes: the static check could no longer judge prominence.
        let mut on_path = el
            .ancestors()
            .filter_map(ElementRef::wrap)
            .take_while(|a| a.id() != block.id());
        if inline_font(el) || on_path.any(inline_font) {
            problems.push(format!(
                "the {kind} figure “{text}” (or an element around it) has an inline font size, so its prominence cannot be judged"
            ));
        }
        if kind == COMPARISON {
            if has_percentage(&text) {
                entry.comparisons.push((text, rank));
            } else {
                problems.push(format!(
                    "the comparison figure “{text}” states no percentage"
                ));
            }
        } else {
            entry.shown.push((kind.to_string(), text, rank));
        }
    }
    for block in blocks.values() {
        let Some((kind, text, _)) = block.shown.first() else {
            continue;
        };
        let Some(top) = block.comparisons.iter().map(|c| c.1).max() else {
            problems.push(format!(
                "the {kind} “{text}” has no comparison rate beside it (a data-finance=\"comparison\" figure with a percentage in the same block)"
            ));
            continue;
        };
        for (kind, text, rank) in &block.shown {
            if *rank > top {
                problems.push(format!(
                    "the comparison rate ({}) is less prominent than the {kind} “{text}” ({})",
                    SIZES[top], SIZES[*rank]
                ));
            }
        }
        if !block.warned {
            problems.push(format!(
                "the comparison rate beside “{text}” lacks the warning (a data-finance=\"warning\" element with: {COMPARISON_WARNING})"
            ));
        }
    }

    // 2. Rates and repayments in unmarked text (dealer comments, offers,
    // disclaimers, legal text): a comparison rate must be stated in the
    // same paragraph, and the warning must be on the page.
    #[derive(Default)]
    struct Run {
        full: String,
        unmarked: String,
    }
    let mut runs: BTreeMap<NodeId, Run> = BTreeMap::new();
    for node in doc.tree.nodes() {
        // A line break reads as a space ("finance<br>from $99").
        let text: &str = match node.value() {
            Node::Text(text) => text,
            Node::Element(e) if e.name() == "br" => " ",
            _ => continue,
        };
        let mut container = None;
        let mut marked = false;
        let mut unseen = false;
        for a in node.ancestors().filter_map(ElementRef::wrap) {
            let name = a.value().name();
            if UNSEEN.contains(&name) {
                unseen = true;
                break;
            }
            if a.value()
                .attr("data-finance")
                .is_some_and(|k| [RATE, REPAYMENT, COMPARISON].contains(&k))
            {
                marked = true;
            }
            if container.is_none() && BLOCKS.contains(&name) {
                container = Some(a.id());
            }
        }
        let (Some(container), false) = (container, unseen) else {
            continue;
        };
        let run = runs.entry(container).or_default();
        run.full.push_str(text);
        if marked {
            run.unmarked.push(' ');
        } else {
            run.unmarked.push_str(text);
        }
    }
    for run in runs.values() {
        let unmarked = normalise(&run.unmarked);
        let mentions = rate_or_repayment_mentions(&unmarked);
        let Some((at, words)) = mentions.first() else {
            continue;
        };
        let context = short(&unmarked, *at, words.len());
        if !states_comparison_rate(&normalise(&run.full)) {
            problems.push(format!(
                "the text states “{words}” without a comparison rate in the same paragraph: “{context}”"
            ));
        } else if !page_has_warning {
            problems.push(format!(
                "the text states “{words}” with a comparison rate, but the page lacks the comparison-rate warning ({COMPARISON_WARNING}): “{context}”"
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(body: &str) -> String {
        format!("<!doctype html><html><head><title>5.99% p.a. in the title is unseen</title></head><body>{body}</body></html>")
    }

    fn warning() -> String {
        format!("<p data-finance=\"warning\">{COMPARISON_WARNING}</p>")
    }

    fn panel(repayment_size: &str, comparison_size: &str) -> String {
        format!(
            "<section data-finance-block><p><span data-finance=\"repayment\" class=\"{repayment_size}\">$233</span> per week*</p>\
             <p><span data-finance=\"comparison\" class=\"{comparison_size}\">8.37% p.a.</span> comparison rate*</p>\
             <p><span data-finance=\"rate\" class=\"fin-size-sm\">7.35% p.a.</span> interest rate</p>{}</section>",
            warning()
        )
    }

    #[test]
    fn a_compliant_panel_passes() {
        assert_eq!(
            check_html(&page(&panel("fin-size-lg", "fin-size-lg"))),
            Vec::<String>::new()
        );
        assert_eq!(
            check_html(&page(&panel("fin-size-md", "fin-size-xl"))),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_comparison_rate_smaller_than_the_repayment_fails() {
        let p = check_html(&page(&panel("fin-size-xl", "fin-size-lg")));
        assert_eq!(
            p,
            ["the comparison rate (fin-size-lg) is less prominent than the repayment “$233” (fin-size-xl)"]
        );
    }

    #[test]
    fn a_block_without_a_comparison_rate_or_warning_fails() {
        let no_comparison = "<div data-finance-block><strong data-finance=\"repayment\" class=\"fin-size-lg\">$99/wk*</strong></div>";
        let p = check_html(&page(&format!("{no_comparison}{}", warning())));
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(
            p[0].starts_with("the repayment “$99/wk*” has no comparison rate beside it"),
            "{p:?}"
        );
        let no_warning = "<div data-finance-block><b data-finance=\"rate\" class=\"fin-size-md\">5.99% p.a.</b>\
            <b data-finance=\"comparison\" class=\"fin-size-md\">6.5% p.a.</b> comparison rate</div>";
        let p = check_html(&page(no_warning));
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].contains("lacks the warning"), "{p:?}");
    }

    #[test]
    fn figures_without_a_number_show_nothing() {
        let calculator = "<form data-finance-block><input data-finance=\"rate\" class=\"fin-size-md\" value=\"\">\
            <output data-finance=\"repayment\" class=\"fin-size-lg\">Enquire for Finance</output></form>";
        assert_eq!(check_html(&page(calculator)), Vec::<String>::new());
        let filled = calculator.replace("value=\"\"", "value=\"7.5\"");
        let p = check_html(&page(&filled));
        assert_eq!(p.len(), 1, "an input's value is a figure: {p:?}");
        assert!(p[0].contains("no comparison rate"), "{p:?}");
    }

    #[test]
    fn unmarked_unsized_or_inline_sized_figures_fail() {
        let outside = "<p><span data-finance=\"rate\" class=\"fin-size-sm\">5.99% p.a.</span></p>";
        assert!(check_html(&page(outside))[0].contains("outside any finance block"));
        let no_size = panel("fin-size-lg", "fin-size-lg").replace("class=\"fin-size-sm\"", "");
        assert!(check_html(&page(&no_size))[0].contains("has no size class"));
        let inline = panel("fin-size-lg", "fin-size-lg").replace(
            "<p><span data-finance=\"repayment\"",
            "<p style=\"font-size: 3rem\"><span data-finance=\"repayment\"",
        );
        assert!(check_html(&page(&inline))[0].contains("inline font size"));
    }

    #[test]
    fn dealer_text_stating_a_rate_needs_a_comparison_rate_in_the_same_paragraph() {
        let comment = "<section><h2>Our comments</h2><p>Low kms. Finance at 5.99% p.a. available, ask us!</p></section>";
        let p = check_html(&page(comment));
        assert_eq!(
            p,
            ["the text states “Finance at 5.99%” without a comparison rate in the same paragraph: “Low kms. Finance at 5.99% p.a. available, ask us!”"]
        );
        // With the comparison rate in the same paragraph and the warning on the page: fine.
        let ok = format!(
            "<p>Finance at 5.99% p.a., comparison rate 6.42% p.a.</p>{}",
            panel("fin-size-lg", "fin-size-lg")
        );
        assert_eq!(check_html(&page(&ok)), Vec::<String>::new());
        // A comparison rate in another paragraph is not beside it.
        let apart = format!(
            "<p>Finance at 5.99% p.a.</p><p>Comparison rate 6.42%.</p>{}",
            warning()
        );
        assert_eq!(check_html(&page(&apart)).len(), 1);
        // Without the warning anywhere on the page.
        let unwarned = "<p>Finance at 5.99% p.a., comparison rate 6.42% p.a.</p>";
        assert!(check_html(&page(unwarned))[0].contains("lacks the comparison-rate warning"));
        // A repayment in dealer text.
        let weekly = "<footer><p>Drive away today: finance from $99 per week.</p></footer>";
        assert!(check_html(&page(weekly))[0].contains("“finance from $99”"));
        // A dealer's formatting (bold, a line break, a list item) hides no rate.
        for formatted in [
            "<p>Low kms. <b>Finance at 5.99%</b> p.a.</p>",
            "<p>Ask us about finance<br>from $99 per week</p>",
            "<ul><li>Finance at <strong>5.99%</strong> p.a.</li></ul>",
        ] {
            assert_eq!(check_html(&page(formatted)).len(), 1, "{formatted}");
            assert!(
                super::super::patterns::worth_parsing(formatted),
                "{formatted}"
            );
        }
        // Inline elements stay in their paragraph; scripts are not text.
        let inline = "<p>Rates from <strong>4.5%</strong>, <em>comparison rate 5.1%</em>.</p><script>var r = '5.99% p.a.'</script>";
        assert_eq!(
            check_html(&page(&format!("{inline}{}", warning()))),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_collapsed_disclaimer_is_still_one_paragraph() {
        // The disclaimer's hidden remainder is a span of the same paragraph.
        let d = format!(
            "<p>Indicative repayment at 7.35% p.a., <span class=\"rest\">comparison rate 8.37% p.a.</span></p>{}",
            warning()
        );
        assert_eq!(check_html(&page(&d)), Vec::<String>::new());
    }
}
