//! Reads one built HTML page once and keeps every fact the publish checks
//! need: the URLs it references (with the attribute they came from), the
//! ids it defines, its inline scripts and styles (for the CSP hashes) and
//! its head conventions (title, description, canonical, robots).
//!
//! lol_html is a streaming tokenizer: a page is never held as a DOM, and a
//! hostile page (a megabyte attribute, unclosed tags) costs linear time.

use std::cell::RefCell;
use std::collections::HashSet;

use anyhow::{anyhow, Result};
use lol_html::html_content::{Element, TextChunk};
use lol_html::{element, text, HtmlRewriter, Settings};
use serde::{Deserialize, Serialize};

/// Where a reference was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum RefKind {
    Href,
    Src,
    Srcset,
    Action,
    Poster,
    /// `url(...)` in a `style` attribute or a `<style>` element.
    CssUrl,
    /// An `<astro-island>`'s `component-url`, `renderer-url` or
    /// `before-hydration-url`: the modules the island imports when it
    /// hydrates. A dead one breaks the island without an error in the page.
    IslandModule,
}

impl RefKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RefKind::Href => "href",
            RefKind::Src => "src",
            RefKind::Srcset => "srcset",
            RefKind::Action => "action",
            RefKind::Poster => "poster",
            RefKind::CssUrl => "css url()",
            RefKind::IslandModule => "island module",
        }
    }
}

/// One URL a page references, as written (entities decoded).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Reference {
    pub kind: RefKind,
    pub url: String,
    /// Element it is on, lower case ("a", "img", "script"); "style" for CSS.
    pub tag: String,
}

/// What a page is made of, as far as the checks care.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
pub struct PageFacts {
    pub refs: Vec<Reference>,
    /// Values of `id` attributes and of `<a name>` (both are fragment targets).
    pub ids: HashSet<String>,
    /// `<base href>`, when the page sets one.
    pub base: Option<String>,
    /// Text of every inline script the browser runs (no `src`, a
    /// JavaScript type): each needs a hash in the CSP.
    pub inline_scripts: Vec<String>,
    /// Text of every `<style>` element.
    pub inline_styles: Vec<String>,
    /// Some element has a `style` attribute.
    pub style_attributes: bool,
    /// Inline event handler attributes (`onclick` ...), which the CSP refuses.
    pub event_handlers: Vec<String>,
    /// `<script type="application/ld+json">` blocks (data, not run).
    pub json_ld: Vec<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub canonical: Vec<String>,
    /// `<meta name="robots">` contains noindex.
    pub noindex: bool,
}

/// Script types a browser executes (an absent or empty type is JavaScript).
fn is_executable_script(ty: Option<&str>) -> bool {
    match ty.map(|t| t.trim().to_ascii_lowercase()) {
        None => true,
        Some(t) => matches!(
            t.as_str(),
            "" | "module"
                | "text/javascript"
                | "application/javascript"
                | "text/ecmascript"
                | "application/ecmascript"
        ),
    }
}

/// What the text of the element being read belongs to.
#[derive(Debug, Clone, Copy, PartialEq)]
enum TextSink {
    Script,
    JsonLd,
    Other,
}

/// Scans `html` (a whole page).
pub fn scan(html: &str) -> Result<PageFacts> {
    let facts = RefCell::new(PageFacts::default());
    // Text of the current <script>/<style>/<title> arrives in chunks.
    let script = RefCell::new((TextSink::Other, String::new()));
    let style = RefCell::new(String::new());
    let title = RefCell::new(String::new());
    let in_title = RefCell::new(false);

    let on_element = |el: &mut Element| -> lol_html::HandlerResult {
        let mut f = facts.borrow_mut();
        let tag = el.tag_name();
        let reference = |kind: RefKind, url: String| Reference {
            kind,
            url,
            tag: tag.clone(),
        };
        for attr in el.attributes() {
            let name = attr.name();
            let value = decode_entities(&attr.value());
            match name.as_str() {
                "href" if tag == "base" => f.base = Some(value),
                "href" => f.refs.push(reference(RefKind::Href, value)),
                "src" => f.refs.push(reference(RefKind::Src, value)),
                "action" => f.refs.push(reference(RefKind::Action, value)),
                "poster" => f.refs.push(reference(RefKind::Poster, value)),
                // Astro writes `before-hydration-url=""` when no script runs first.
                "component-url" | "renderer-url" | "before-hydration-url"
                    if tag == "astro-island" && !value.is_empty() =>
                {
                    f.refs.push(reference(RefKind::IslandModule, value))
                }
                "srcset" | "imagesrcset" => {
                    for url in srcset_urls(&value) {
                        f.refs.push(reference(RefKind::Srcset, url));
                    }
                }
                "id" => {
                    f.ids.insert(value);
                }
                "name" if tag == "a" => {
                    f.ids.insert(value);
                }
                "style" => {
                    f.style_attributes = true;
                    for url in css_urls(&value) {
                        f.refs.push(reference(RefKind::CssUrl, url));
                    }
                }
                n if n.starts_with("on") && n.len() > 2 => f.event_handlers.push(n.to_string()),
                _ => {}
            }
        }
        match tag.as_str() {
            "script" => {
                let ty = el.get_attribute("type");
                let sink = if el.has_attribute("src") {
                    TextSink::Other
                } else if ty
                    .as_deref()
                    .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"))
                {
                    TextSink::JsonLd
                } else if is_executable_script(ty.as_deref()) {
                    TextSink::Script
                } else {
                    TextSink::Other
                };
                *script.borrow_mut() = (sink, String::new());
            }
            "meta" => {
                let name = el
                    .get_attribute("name")
                    .map(|n| n.to_ascii_lowercase())
                    .unwrap_or_default();
                let content = el
                    .get_attribute("content")
                    .map(|c| decode_entities(&c))
                    .unwrap_or_default();
                if name == "description" {
                    f.description = Some(content);
                } else if name == "robots" && content.to_ascii_lowercase().contains("noindex") {
                    f.noindex = true;
                }
            }
            "link" => {
                let rel = el.get_attribute("rel").unwrap_or_default();
                if rel
                    .split_ascii_whitespace()
                    .any(|r| r.eq_ignore_ascii_case("canonical"))
                {
                    if let Some(h) = el.get_attribute("href") {
                        f.canonical.push(decode_entities(&h));
                    }
                }
            }
            "title" => {
                *in_title.borrow_mut() = true;
                title.borrow_mut().clear();
            }
            _ => {}
        }
        Ok(())
    };
    let on_script_text = |t: &mut TextChunk| -> lol_html::HandlerResult {
        let mut s = script.borrow_mut();
        s.1.push_str(t.as_str());
        if t.last_in_text_node() {
            let text = std::mem::take(&mut s.1);
            let mut f = facts.borrow_mut();
            match s.0 {
                TextSink::Script => f.inline_scripts.push(text),
                TextSink::JsonLd => f.json_ld.push(text),
                TextSink::Other => {}
            }
            s.0 = TextSink::Other;
        }
        Ok(())
    };
    let on_style_text = |t: &mut TextChunk| -> lol_html::HandlerResult {
        let mut s = style.borrow_mut();
        s.push_str(t.as_str());
        if t.last_in_text_node() {
            let text = std::mem::take(&mut *s);
            let mut f = facts.borrow_mut();
            for url in css_urls(&text) {
                f.refs.push(Reference {
                    kind: RefKind::CssUrl,
                    url,
                    tag: "style".into(),
                });
            }
            f.inline_styles.push(text);
        }
        Ok(())
    };
    // A <noscript> is read as text (as by a browser running scripts), but a
    // browser without JavaScript parses it as markup: its <style> needs its
    // hash in the policy, its photos their origin, so it is scanned too.
    let noscript = RefCell::new(String::new());
    let on_noscript_text = |t: &mut TextChunk| -> lol_html::HandlerResult {
        let mut s = noscript.borrow_mut();
        s.push_str(t.as_str());
        if t.last_in_text_node() {
            let text = std::mem::take(&mut *s);
            let inner = scan(&text)?;
            let mut f = facts.borrow_mut();
            f.inline_styles.extend(inner.inline_styles);
            f.style_attributes |= inner.style_attributes;
            f.refs.extend(inner.refs);
        }
        Ok(())
    };
    let on_title_text = |t: &mut TextChunk| -> lol_html::HandlerResult {
        if *in_title.borrow() {
            title.borrow_mut().push_str(t.as_str());
            if t.last_in_text_node() {
                *in_title.borrow_mut() = false;
                let text = decode_entities(title.borrow().trim());
                let mut f = facts.borrow_mut();
                // The document's title is the first one (an SVG <title> later is a label).
                if f.title.is_none() {
                    f.title = Some(text);
                }
            }
        }
        Ok(())
    };

    {
        let mut rewriter = HtmlRewriter::new(
            Settings {
                element_content_handlers: vec![
                    element!("*", on_element),
                    text!("script", on_script_text),
                    text!("style", on_style_text),
                    text!("noscript", on_noscript_text),
                    text!("head > title", on_title_text),
                ],
                ..Settings::new()
            },
            |_: &[u8]| {},
        );
        rewriter
            .write(html.as_bytes())
            .map_err(|e| anyhow!("cannot read the HTML: {e}"))?;
        rewriter
            .end()
            .map_err(|e| anyhow!("cannot read the HTML: {e}"))?;
    }
    // A <script></script> or <style></style> with no text never calls the text handler.
    Ok(facts.into_inner())
}

/// The URLs of a `srcset` ("a.jpg 1x, b.jpg 640w"): each candidate is a URL
/// followed by an optional descriptor; URLs may contain commas only when
/// not followed by whitespace, which real srcsets never rely on.
pub fn srcset_urls(srcset: &str) -> Vec<String> {
    srcset
        .split(',')
        .filter_map(|candidate| candidate.split_ascii_whitespace().next())
        .filter(|u| !u.is_empty())
        .map(String::from)
        .collect()
}

/// The URLs in `url(...)` of a piece of CSS (quoted or not).
pub fn css_urls(css: &str) -> Vec<String> {
    let mut out = Vec::new();
    let lower = css.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = lower[from..].find("url(") {
        let start = from + at + 4;
        let Some(len) = css[start..].find(')') else {
            break;
        };
        let raw = css[start..start + len].trim();
        let unquoted = raw
            .strip_prefix('"')
            .and_then(|r| r.strip_suffix('"'))
            .or_else(|| raw.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')))
            .unwrap_or(raw);
        if !unquoted.is_empty() {
            out.push(unquoted.to_string());
        }
        from = start + len;
    }
    out
}

/// Decodes the character references HTML writers put in attribute values
/// and titles: numeric ones and the named ones Astro and React emit.
pub fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest[1..].find(';').map(|e| e + 1).filter(|e| *e <= 10);
        let decoded = end.and_then(|end| {
            let name = &rest[1..end];
            let c = if let Some(num) = name.strip_prefix("#x").or_else(|| name.strip_prefix("#X")) {
                u32::from_str_radix(num, 16).ok().and_then(char::from_u32)
            } else if let Some(num) = name.strip_prefix('#') {
                num.parse::<u32>().ok().and_then(char::from_u32)
            } else {
                match name {
                    "amp" => Some('&'),
                    "lt" => Some('<'),
                    "gt" => Some('>'),
                    "quot" => Some('"'),
                    "apos" => Some('\''),
                    "nbsp" => Some('\u{a0}'),
                    _ => None,
                }
            };
            c.map(|c| (c, end))
        });
        match decoded {
            Some((c, end)) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_come_from_every_attribute_that_loads_or_links() {
        let page = scan(
            r#"<!doctype html><html><head><title>A &amp; B</title>
            <meta name="description" content="About &quot;us&quot;">
            <link rel="canonical" href="https://x.example/a/"><link rel="stylesheet" href="/_astro/a.css">
            </head><body style="background:url('/bg.svg')">
            <a href="/search/?a=1&amp;b=2#top" id="top">x</a><img src="/i.svg" srcset="/i-1.svg 1x, /i-2.svg 2x">
            <form action="/api/leads"></form><video poster="/p.jpg"></video><a name="old"></a>
            <svg><title>icon</title></svg><button onclick="go()">x</button>
            <astro-island uid="1" component-url="/_astro/Quote.a1.js" component-export="default"
              renderer-url="/_astro/client.b2.js" before-hydration-url="" props="{}"></astro-island>
            <div component-url="/not-an-island.js"></div></body></html>"#,
        )
        .unwrap();
        let refs: Vec<(RefKind, &str)> =
            page.refs.iter().map(|r| (r.kind, r.url.as_str())).collect();
        assert_eq!(
            refs,
            [
                (RefKind::Href, "https://x.example/a/"),
                (RefKind::Href, "/_astro/a.css"),
                (RefKind::CssUrl, "/bg.svg"),
                (RefKind::Href, "/search/?a=1&b=2#top"),
                (RefKind::Src, "/i.svg"),
                (RefKind::Srcset, "/i-1.svg"),
                (RefKind::Srcset, "/i-2.svg"),
                (RefKind::Action, "/api/leads"),
                (RefKind::Poster, "/p.jpg"),
                (RefKind::IslandModule, "/_astro/Quote.a1.js"),
                (RefKind::IslandModule, "/_astro/client.b2.js"),
            ]
        );
        assert!(page.ids.contains("top") && page.ids.contains("old"));
        assert_eq!(page.title.as_deref(), Some("A & B"));
        assert_eq!(page.description.as_deref(), Some("About \"us\""));
        assert_eq!(page.canonical, ["https://x.example/a/"]);
        assert!(page.style_attributes);
        assert_eq!(page.event_handlers, ["onclick"]);
        assert_eq!(page.refs[4].tag, "img");
        assert!(!page.noindex);
    }

    #[test]
    fn inline_scripts_are_told_apart_from_data_blocks() {
        let page = scan(
            r#"<head><meta name="robots" content="noindex, follow"><script>run()</script>
            <script type="module">go()</script><script src="/a.js"></script>
            <script type="application/ld+json">{"@type":"AutoDealer"}</script>
            <script type="text/template"><p></p></script><style>a{color:red}</style></head>"#,
        )
        .unwrap();
        assert_eq!(page.inline_scripts, ["run()", "go()"]);
        assert_eq!(page.json_ld, [r#"{"@type":"AutoDealer"}"#]);
        assert_eq!(page.inline_styles, ["a{color:red}"]);
        assert!(page.noindex);
    }

    #[test]
    fn a_noscript_style_and_photo_are_scanned_as_a_browser_without_javascript_reads_them() {
        let page = scan(
            r#"<head><noscript><style>
        .tabs__panel[hidden] { display: block !important; }
      </style></noscript></head><body><noscript><img src="https://cdn.example/p-640.jpg" alt=""></noscript></body>"#,
        )
        .unwrap();
        assert_eq!(
            page.inline_styles,
            ["\n        .tabs__panel[hidden] { display: block !important; }\n      "]
        );
        assert_eq!(page.refs.len(), 1);
        assert_eq!(
            (
                page.refs[0].kind,
                page.refs[0].url.as_str(),
                page.refs[0].tag.as_str()
            ),
            (RefKind::Src, "https://cdn.example/p-640.jpg", "img")
        );
    }

    #[test]
    fn srcset_and_css_urls_are_split_out() {
        assert_eq!(
            srcset_urls("/a.jpg 640w,/b.jpg 1280w"),
            ["/a.jpg", "/b.jpg"]
        );
        assert_eq!(srcset_urls(" /only.jpg "), ["/only.jpg"]);
        assert_eq!(
            css_urls(r#"a{background:URL("/x.png")} b{mask:url(/y.svg)} c{src:url( 'z.woff2' )}"#),
            ["/x.png", "/y.svg", "z.woff2"]
        );
    }

    #[test]
    fn entities_decode_and_stray_ampersands_stay() {
        assert_eq!(decode_entities("a&amp;b&#39;c&#x2F;d"), "a&b'c/d");
        assert_eq!(decode_entities("AT&T & co"), "AT&T & co");
        assert_eq!(decode_entities("&unknown;"), "&unknown;");
    }
}
