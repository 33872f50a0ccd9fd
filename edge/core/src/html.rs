//! The answers a form posted without JavaScript gets: a 303 to the
//! dealer's success page, or a small HTML page naming what went wrong with
//! a link back to the form. The pages run no script and load nothing: their
//! only style is one inline block allowed by its hash in the page's own
//! Content-Security-Policy, and every dealer or shopper text is escaped.

use sha2::{Digest, Sha256};

use crate::http::ApiError;
use crate::lead::FORM_ERROR;

/// The one style block of the pages (system fonts, readable on a phone).
pub const STYLE: &str = "body{font:1rem/1.5 system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;margin:0 auto;max-width:40rem;padding:1.5rem;color:#1b1b1b}h1{font-size:1.4rem}li{margin:.25rem 0}a{color:#0b3d91}";

/// Escapes text for HTML element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The Content-Security-Policy of the pages: nothing but [`STYLE`].
pub fn content_security_policy() -> String {
    let hash = base64(&Sha256::digest(STYLE.as_bytes()));
    format!("default-src 'none'; style-src 'sha256-{hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
}

/// What a field is called on the page.
pub fn field_label(field: &str) -> &str {
    match field {
        "name" => "Name",
        "last_name" => "Last name",
        "email" => "Email",
        "phone" => "Phone",
        "message" => "Message",
        "postcode" => "Postcode",
        "terms_conditions" => "Terms of use",
        "category" => "Enquiry type",
        "location_id" => "Location",
        "offer_amount" => "Offer amount",
        "preferred_date" => "Preferred date",
        "preferred_time" => "Preferred time",
        "rego" => "Registration",
        "regoState" => "Registration state",
        "kms" => "Kilometres",
        "trade_in_year" => "Year",
        "cf-turnstile-response" => "Robot check",
        other => other,
    }
}

/// Where "Back to the form" goes: the page the form was posted from when
/// it is a page of the dealer's site (`origin`), else the site's home page.
/// Never anywhere else: the Referer is the client's word.
pub fn back_link(referer: Option<&str>, origin: &str) -> String {
    let home = format!("{origin}/");
    match referer {
        Some(r) if r.starts_with(&home) && r.len() <= 2048 && !r.chars().any(char::is_control) => {
            // Without the fragment: the page opens at its top, the form's
            // own errors are the page's business.
            r.split('#').next().unwrap_or(&home).to_string()
        }
        _ => home,
    }
}

/// Percent-encodes a query value (RFC 3986 unreserved characters kept).
fn query_value(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The dealer's success page after a form post:
/// `{origin}{success_path}?category=…&car_type=…` (car_type only when known).
pub fn success_location(
    origin: &str,
    success_path: &str,
    category: &str,
    car_type: Option<&str>,
) -> String {
    let mut url = format!("{origin}{success_path}?category={}", query_value(category));
    if let Some(t) = car_type {
        url.push_str(&format!("&car_type={}", query_value(t)));
    }
    url
}

/// A whole page: `title` as the heading, `intro`, an optional list, and a
/// link back to the form.
pub fn page(title: &str, intro: &str, items: &[String], back: Option<&str>) -> String {
    let mut html = String::from("<!doctype html>\n<html lang=\"en-AU\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"robots\" content=\"noindex\">\n");
    html.push_str(&format!(
        "<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n",
        escape(title)
    ));
    html.push_str(&format!("<h1>{}</h1>\n", escape(title)));
    if !intro.is_empty() {
        html.push_str(&format!("<p>{}</p>\n", escape(intro)));
    }
    if !items.is_empty() {
        html.push_str("<ul>\n");
        for item in items {
            html.push_str(&format!("<li>{}</li>\n", escape(item)));
        }
        html.push_str("</ul>\n");
    }
    if let Some(href) = back {
        html.push_str(&format!(
            "<p><a href=\"{}\">Back to the form</a></p>\n",
            escape(href)
        ));
    }
    html.push_str("</main>\n</body>\n</html>\n");
    html
}

/// The page for an error answer of a form post, and its status. Field
/// problems are 422 ("Please fix the following errors:" and one item per
/// field); everything else keeps its status and message.
pub fn error_page(error: &ApiError, back: Option<&str>) -> (u16, String) {
    match &error.fields {
        Some(fields) if !fields.is_empty() => {
            let items: Vec<String> = fields
                .0
                .iter()
                .map(|(field, message)| format!("{}: {message}", field_label(field)))
                .collect();
            (422, page(FORM_ERROR, "", &items, back))
        }
        _ => {
            let title = match error.status {
                403 => "We could not send your enquiry",
                413 => "Your enquiry is too long",
                429 => "Please wait a moment",
                s if s >= 500 => "Something went wrong",
                _ => "We could not send your enquiry",
            };
            let mut intro = error.error.clone();
            if let Some(secs) = error.retry_after {
                intro.push_str(&format!(" You can send it again in {}.", wait_text(secs)));
            }
            (error.status, page(title, &intro, &[], back))
        }
    }
}

fn wait_text(secs: u64) -> String {
    match secs {
        0..=1 => "a second".into(),
        2..=90 => format!("{secs} seconds"),
        s => format!("{} minutes", s.div_ceil(60)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::FieldErrors;
    use std::collections::BTreeMap;

    #[test]
    fn the_policy_allows_exactly_the_style_block() {
        // sha256 of STYLE, base64 (checked with `openssl dgst -sha256 -binary | base64`).
        let csp = content_security_policy();
        assert!(
            csp.starts_with("default-src 'none'; style-src 'sha256-"),
            "{csp}"
        );
        assert!(!csp.contains("script") && !csp.contains("unsafe"));
        assert_eq!(base64(b"abc"), "YWJj");
        assert_eq!(base64(b"ab"), "YWI=");
        assert_eq!(base64(b"a"), "YQ==");
        assert_eq!(
            base64(&Sha256::digest(b"")),
            "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
        );
    }

    #[test]
    fn a_validation_error_lists_every_field() {
        let fields = FieldErrors(BTreeMap::from([
            (
                "phone".to_string(),
                "Please enter your phone number.".to_string(),
            ),
            (
                "terms_conditions".to_string(),
                "*You must agree to the terms of use before submitting.".to_string(),
            ),
        ]));
        let (status, html) = error_page(
            &ApiError::with_fields(400, FORM_ERROR, fields),
            Some("https://a.example/contact-us/"),
        );
        assert_eq!(status, 422);
        assert!(html.contains("<title>Please fix the following errors:</title>"));
        assert!(html.contains("<li>Phone: Please enter your phone number.</li>"));
        assert!(html.contains(
            "<li>Terms of use: *You must agree to the terms of use before submitting.</li>"
        ));
        assert!(html.contains(r#"<a href="https://a.example/contact-us/">Back to the form</a>"#));
        assert!(!html.contains("<script"));
    }

    #[test]
    fn other_errors_keep_their_status_and_say_when_to_retry() {
        let (status, html) = error_page(&ApiError::too_many("Too many enquiries.", 120), None);
        assert_eq!(status, 429);
        assert!(html.contains("Too many enquiries. You can send it again in 2 minutes."));
        assert!(!html.contains("Back to the form"));
        let (status, _) = error_page(&ApiError::internal(), None);
        assert_eq!(status, 500);
    }

    #[test]
    fn text_is_escaped() {
        let html = page(
            "<t>",
            "a&b",
            &["<script>alert(1)</script>".into()],
            Some("https://a.example/?q=\"x\"><script>"),
        );
        assert!(!html.contains("<script>"));
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(html.contains("href=\"https://a.example/?q=&quot;x&quot;&gt;&lt;script&gt;\""));
    }

    #[test]
    fn the_back_link_stays_on_the_dealers_site() {
        let o = "https://a.example";
        assert_eq!(
            back_link(Some("https://a.example/cars/x/?enquiry=test-drive#form"), o),
            "https://a.example/cars/x/?enquiry=test-drive"
        );
        assert_eq!(
            back_link(Some("https://a.example.evil.com/"), o),
            "https://a.example/"
        );
        assert_eq!(
            back_link(Some("https://evil.example/a.example/"), o),
            "https://a.example/"
        );
        assert_eq!(back_link(None, o), "https://a.example/");
    }

    #[test]
    fn success_locations() {
        assert_eq!(
            success_location("https://a.example", "/success", "test_drive", Some("used")),
            "https://a.example/success?category=test_drive&car_type=used"
        );
        assert_eq!(
            success_location("https://a.example", "/thanks", "general", None),
            "https://a.example/thanks?category=general"
        );
        assert_eq!(query_value("a b&c"), "a%20b%26c");
    }
}
