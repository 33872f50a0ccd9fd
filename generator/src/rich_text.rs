//! Dealer-supplied rich text to HTML a page may print as it is: Markdown
//! pages, and any text a feed or a dealer file gives as HTML (offer
//! descriptions, disclaimers, dealer comments). Formatting survives
//! (paragraphs, emphasis, lists, links, headings, tables, images); scripts,
//! styles, frames, forms and event handlers never reach a page.
//!
//! Every field of the site data that holds such HTML is named `*_html` and
//! made by [`markdown_html`] or [`sanitize_html`]: a component prints
//! those (`set:html`) and nothing else unescaped.

use std::collections::HashSet;
use std::sync::OnceLock;

use ammonia::Builder;
use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// The one sanitising policy. `ammonia` parses with html5ever (as a browser
/// does), so no malformed markup slips past an allow-list it never saw.
fn policy() -> &'static Builder<'static> {
    static POLICY: OnceLock<Builder<'static>> = OnceLock::new();
    POLICY.get_or_init(|| {
        let tags: HashSet<&str> = [
            "p",
            "br",
            "hr",
            "strong",
            "em",
            "b",
            "i",
            "u",
            "s",
            "del",
            "ins",
            "sub",
            "sup",
            "small",
            "mark",
            "abbr",
            "blockquote",
            "q",
            "code",
            "pre",
            "ul",
            "ol",
            "li",
            "dl",
            "dt",
            "dd",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "a",
            "img",
            "table",
            "thead",
            "tbody",
            "tfoot",
            "tr",
            "th",
            "td",
            "caption",
            "figure",
            "figcaption",
            "span",
        ]
        .into();
        let mut b = Builder::default();
        b.tags(tags)
            .clean_content_tags(["script", "style", "template"].into())
            .generic_attributes(HashSet::new())
            .tag_attributes(
                [
                    ("a", ["href", "title"].into()),
                    ("img", ["src", "alt", "title", "width", "height"].into()),
                    ("abbr", ["title"].into()),
                    ("th", ["colspan", "rowspan", "scope"].into()),
                    ("td", ["colspan", "rowspan"].into()),
                    ("ol", ["start"].into()),
                ]
                .into(),
            )
            // Web pages, e-mail, phone and SMS links only: no javascript:, data: or others.
            .url_schemes(["http", "https", "mailto", "tel", "sms"].into())
            .link_rel(Some("noopener noreferrer"))
            .strip_comments(true);
        b
    })
}

/// Sanitises HTML from a feed or a dealer file.
pub fn sanitize_html(html: &str) -> String {
    policy().clean(html).to_string()
}

/// Markdown (CommonMark with tables and strikethrough) to sanitised HTML.
/// Headings move so the document's top level is `<h2>` (the page's own
/// title is its only `<h1>`, and an author starting at `##` or at `#` gets
/// the same outline). Raw HTML in the Markdown goes through the sanitiser.
pub fn markdown_html(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let events: Vec<Event> = Parser::new_ext(markdown, options).collect();
    let top = events
        .iter()
        .filter_map(|e| match e {
            Event::Start(Tag::Heading { level, .. }) => Some(*level as usize),
            _ => None,
        })
        .min()
        .unwrap_or(2);
    let shift = |level: HeadingLevel| {
        let n = (level as usize + 2).saturating_sub(top).clamp(2, 6);
        HeadingLevel::try_from(n).unwrap_or(HeadingLevel::H6)
    };
    let events = events.into_iter().map(|e| match e {
        Event::Start(Tag::Heading {
            level,
            id,
            classes,
            attrs,
        }) => Event::Start(Tag::Heading {
            level: shift(level),
            id,
            classes,
            attrs,
        }),
        Event::End(TagEnd::Heading(level)) => Event::End(TagEnd::Heading(shift(level))),
        other => other,
    });
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, events);
    sanitize_html(&html)
}

/// Plain text (a feed's comments, a YAML description) to HTML paragraphs:
/// blank lines separate paragraphs, single newlines become `<br>`.
pub fn text_html(text: &str) -> String {
    let escape = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    text.replace("\r\n", "\n")
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| format!("<p>{}</p>", escape(p).replace('\n', "<br>")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formatting_survives() {
        let html = markdown_html(
            "# Our warranty\n\nFive **years**, *unlimited* km.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[Call us](tel:0733330000) or [read more](/pages/buyers-tips/).\n",
        );
        insta::assert_snapshot!(html, @r#"
        <h2>Our warranty</h2>
        <p>Five <strong>years</strong>, <em>unlimited</em> km.</p>
        <ul>
        <li>one</li>
        <li>two</li>
        </ul>
        <table><thead><tr><th>a</th><th>b</th></tr></thead><tbody>
        <tr><td>1</td><td>2</td></tr>
        </tbody></table>
        <p><a href="tel:0733330000" rel="noopener noreferrer">Call us</a> or <a href="/pages/buyers-tips/" rel="noopener noreferrer">read more</a>.</p>
        "#);
    }

    #[test]
    fn scripts_handlers_and_dangerous_urls_never_reach_the_page() {
        let hostile = r#"<p onclick="steal()">Hi<script>alert(1)</script></p>
<img src="x.jpg" onerror="alert(2)"><a href="javascript:alert(3)">x</a>
<iframe src="https://evil.example"></iframe><style>body{display:none}</style>
<a href="data:text/html,<script>alert(4)</script>">d</a><svg onload="alert(5)"></svg>
<form action="https://evil.example"><input name="card"></form><p style="position:fixed">s</p>"#;
        for html in [sanitize_html(hostile), markdown_html(hostile)] {
            let lower = html.to_ascii_lowercase();
            for banned in [
                "<script",
                "onclick",
                "onerror",
                "onload",
                "javascript:",
                "<iframe",
                "<style",
                "data:",
                "<form",
                "<input",
                "<svg",
                "style=",
            ] {
                assert!(!lower.contains(banned), "{banned} survived in {html}");
            }
            assert!(html.contains("Hi"), "text is kept: {html}");
        }
    }

    #[test]
    fn the_top_heading_level_becomes_h2_whichever_the_author_used() {
        assert_eq!(markdown_html("## A\n### B\n"), "<h2>A</h2>\n<h3>B</h3>\n");
        assert_eq!(markdown_html("# A\n## B\n"), "<h2>A</h2>\n<h3>B</h3>\n");
        assert_eq!(markdown_html("#### Deep\n"), "<h2>Deep</h2>\n");
    }

    #[test]
    fn plain_text_becomes_escaped_paragraphs() {
        assert_eq!(
            text_html("One <b>\nline\n\n\nTwo & three"),
            "<p>One &lt;b&gt;<br>line</p><p>Two &amp; three</p>"
        );
    }
}
