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

/// Elements that start a block of their own: a paragraph break before and
/// after them in [`html_text`], and no `<br>` for a newline beside them in
/// [`rich_html`].
const BLOCKS: [&str; 25] = [
    "p",
    "div",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "pre",
    "hr",
    "table",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "caption",
    "figure",
    "figcaption",
];

/// The tag name right after `<` or `</` at the start of `s`, lowercased.
fn tag_name(s: &str) -> Option<String> {
    let rest = s.strip_prefix('<')?;
    let rest = rest.strip_prefix('/').unwrap_or(rest);
    let name: String = rest
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect();
    (!name.is_empty()).then(|| name.to_ascii_lowercase())
}

fn starts_with_block(s: &str) -> bool {
    tag_name(s.trim_start()).is_some_and(|n| BLOCKS.contains(&n.as_str()))
}

fn ends_with_block(s: &str) -> bool {
    let s = s.trim_end();
    s.ends_with('>') && s.rfind('<').is_some_and(|i| starts_with_block(&s[i..]))
}

/// Dealer text that may carry HTML (an offer's description or disclaimer
/// in the dealer file, a feed's dealer comments: `<b>`, `<br>`, lists,
/// `&amp;`) to sanitised HTML blocks. Blank lines separate paragraphs; a
/// paragraph that is not already a block (`<p>`, `<ul>`, ...) becomes a
/// `<p>` with its single newlines as `<br>`. Text without markup comes out
/// as [`text_html`] would give it.
pub fn rich_html(text: &str) -> String {
    let text = text.replace("\r\n", "\n");
    let mut paragraphs: Vec<Vec<&str>> = vec![Vec::new()];
    for line in text.split('\n') {
        if line.trim().is_empty() {
            paragraphs.push(Vec::new());
        } else if let Some(p) = paragraphs.last_mut() {
            p.push(line.trim());
        }
    }
    let mut html = String::with_capacity(text.len() + 16);
    for lines in paragraphs.iter().filter(|p| !p.is_empty()) {
        let mut joined = String::new();
        for (i, line) in lines.iter().enumerate() {
            if i > 0 {
                // A newline beside a block's tag is layout, not a line break.
                let layout = ends_with_block(lines[i - 1]) || starts_with_block(line);
                joined.push_str(if layout { "\n" } else { "<br>" });
            }
            joined.push_str(line);
        }
        if starts_with_block(&joined) {
            html.push_str(&joined);
        } else {
            html.push_str("<p>");
            html.push_str(&joined);
            html.push_str("</p>");
        }
    }
    // A block inside a <p> closes it: the parser leaves an empty one behind.
    sanitize_html(&html).replace("<p></p>", "")
}

/// The text a shopper reads in sanitised HTML, for decisions on length
/// (collapse, the comments' cut) and for plain-text uses (a page's meta
/// description): blocks become paragraphs separated by a blank line,
/// `<br>` a newline, other whitespace single spaces; entities are decoded.
pub fn html_text(html: &str) -> String {
    use ego_tree::iter::Edge;
    use scraper::{Html, Node};
    const PARAGRAPH: char = '\u{1}';
    const LINE: char = '\u{2}';
    let fragment = Html::parse_fragment(html);
    let mut raw = String::with_capacity(html.len());
    for edge in fragment.tree.root().traverse() {
        match edge {
            Edge::Open(node) => match node.value() {
                Node::Text(t) => raw.push_str(&t.replace([PARAGRAPH, LINE], " ")),
                Node::Element(e) if e.name() == "br" => raw.push(LINE),
                Node::Element(e) if BLOCKS.contains(&e.name()) => raw.push(PARAGRAPH),
                _ => {}
            },
            Edge::Close(node) => {
                if let Node::Element(e) = node.value() {
                    if BLOCKS.contains(&e.name()) {
                        raw.push(PARAGRAPH);
                    }
                }
            }
        }
    }
    raw.split(PARAGRAPH)
        .map(|p| {
            p.split(LINE)
                .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
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

    /// What a feed or a dealer file gives: formatting, entities and hostile markup.
    const HOSTILE_RICH: &str = "<b>One owner</b> &amp; full history<br>Low kms\n<ul><li>Tow bar</li><li onclick=\"steal()\">Roof racks</li></ul>\n<script>alert(1)</script><a href=\"javascript:alert(2)\">click</a> <a href=\"https://example.com/x\" onmouseover=\"alert(3)\">ok</a><img src=x onerror=alert(4)>";

    #[test]
    fn rich_text_keeps_formatting_and_loses_scripts_handlers_and_javascript_links() {
        let html = rich_html(HOSTILE_RICH);
        let lower = html.to_ascii_lowercase();
        for banned in [
            "<script",
            "alert(1)",
            "onclick",
            "onmouseover",
            "onerror",
            "javascript:",
        ] {
            assert!(!lower.contains(banned), "{banned} survived in {html}");
        }
        for kept in [
            "<b>One owner</b> &amp; full history<br>Low kms",
            "<ul><li>Tow bar</li><li>Roof racks</li></ul>",
            "<a href=\"https://example.com/x\" rel=\"noopener noreferrer\">ok</a>",
        ] {
            assert!(html.contains(kept), "{kept} lost in {html}");
        }
        assert!(!html.contains("<p></p>"), "{html}");
        assert_eq!(
            html_text(&html),
            "One owner & full history\nLow kms\n\nTow bar\n\nRoof racks\n\nclick ok"
        );
    }

    #[test]
    fn rich_text_without_markup_is_escaped_paragraphs() {
        let text = "Drive away today.\nNo deposit.\n\n\nConditions apply & more.";
        assert_eq!(rich_html(text), text_html(text));
        assert_eq!(
            html_text(&rich_html(text)),
            "Drive away today.\nNo deposit.\n\nConditions apply & more."
        );
        assert_eq!(
            rich_html("<p>Already</p>\n<p>blocks</p>"),
            "<p>Already</p>\n<p>blocks</p>"
        );
        assert_eq!(rich_html("5 < 6 and 7 > 2"), "<p>5 &lt; 6 and 7 &gt; 2</p>");
        assert_eq!(rich_html("  \n "), "");
    }
}
