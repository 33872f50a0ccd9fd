//! `_headers` (Cloudflare's format): a strict Content-Security-Policy for
//! every page and a year-long immutable cache for the hashed assets.
//!
//! The policy is computed from the built pages, so it is exactly as wide as
//! the site needs: every inline script Astro emits (the island loader) is
//! allowed by its sha256 and nothing else inline runs; other origins appear
//! only when a page loads something from them (car photos on an image CDN)
//! or the site calls them (the edge API, a hosted search service).

use std::collections::BTreeSet;

use base64::Engine as _;
use sha2::{Digest, Sha256};

use super::link_check::ScannedPage;

/// Origins the browser talks to that no page's HTML shows: the edge API and
/// the search service are called from islands, car photos in search
/// results are rendered by an island.
#[derive(Debug, Clone, Default)]
pub struct RuntimeOrigins {
    /// `fetch` targets (connect-src).
    pub connect: BTreeSet<String>,
    /// Image origins (img-src).
    pub images: BTreeSet<String>,
    /// Form posts (form-action).
    pub forms: BTreeSet<String>,
    /// Scripts loaded at run time (script-src), e.g. the captcha widget's.
    pub scripts: BTreeSet<String>,
    /// Frames opened at run time (frame-src), e.g. the captcha widget's challenge.
    pub frames: BTreeSet<String>,
}

/// `'sha256-…'` of a script or style text, as CSP wants it.
pub fn csp_hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// "https://cdn.example" of an absolute http(s) URL, else None.
pub fn origin_of(url: &str) -> Option<String> {
    let url = url.trim();
    let url = if let Some(rest) = url.strip_prefix("//") {
        format!("https://{rest}")
    } else {
        url.to_string()
    };
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "https" && scheme != "http" {
        return None;
    }
    let host = rest.split(['/', '?', '#']).next()?;
    (!host.is_empty()).then(|| format!("{scheme}://{}", host.to_ascii_lowercase()))
}

/// The policy for the site's pages.
#[derive(Debug, Clone, PartialEq)]
pub struct Csp {
    pub script_hashes: BTreeSet<String>,
    pub style_hashes: BTreeSet<String>,
    pub style_attributes: bool,
    pub script_origins: BTreeSet<String>,
    pub style_origins: BTreeSet<String>,
    pub img_origins: BTreeSet<String>,
    pub media_origins: BTreeSet<String>,
    pub frame_origins: BTreeSet<String>,
    pub connect_origins: BTreeSet<String>,
    pub form_origins: BTreeSet<String>,
}

impl Csp {
    /// The policy every page of `pages` is allowed under; `site_origin` is
    /// 'self' and left out of the lists.
    pub fn for_pages(pages: &[ScannedPage], site_origin: &str, runtime: &RuntimeOrigins) -> Csp {
        let own = site_origin.trim_end_matches('/').to_ascii_lowercase();
        let foreign = |url: &str| origin_of(url).filter(|o| *o != own);
        let mut csp = Csp {
            script_hashes: BTreeSet::new(),
            style_hashes: BTreeSet::new(),
            style_attributes: false,
            script_origins: runtime
                .scripts
                .iter()
                .filter(|o| **o != own)
                .cloned()
                .collect(),
            style_origins: BTreeSet::new(),
            img_origins: runtime
                .images
                .iter()
                .filter(|o| **o != own)
                .cloned()
                .collect(),
            media_origins: BTreeSet::new(),
            frame_origins: runtime
                .frames
                .iter()
                .filter(|o| **o != own)
                .cloned()
                .collect(),
            connect_origins: runtime
                .connect
                .iter()
                .filter(|o| **o != own)
                .cloned()
                .collect(),
            form_origins: runtime
                .forms
                .iter()
                .filter(|o| **o != own)
                .cloned()
                .collect(),
        };
        for page in pages {
            let f = &page.facts;
            csp.script_hashes
                .extend(f.inline_scripts.iter().map(|s| csp_hash(s)));
            csp.style_hashes
                .extend(f.inline_styles.iter().map(|s| csp_hash(s)));
            csp.style_attributes |= f.style_attributes;
            for r in &f.refs {
                let Some(origin) = foreign(&r.url) else {
                    continue;
                };
                use super::scan::RefKind::*;
                let set = match (r.tag.as_str(), r.kind) {
                    ("script", Src) | (_, IslandModule) => &mut csp.script_origins,
                    ("link", Href) => continue, // a link is only followed; stylesheets are 'self'
                    ("img" | "source", Src | Srcset) | (_, Poster) | (_, CssUrl) => {
                        &mut csp.img_origins
                    }
                    ("video" | "audio" | "track", Src) => &mut csp.media_origins,
                    ("iframe", Src) => &mut csp.frame_origins,
                    ("form", Action) => &mut csp.form_origins,
                    _ => continue,
                };
                set.insert(origin);
            }
        }
        csp
    }

    /// The header value.
    pub fn header(&self) -> String {
        let list = |base: &[&str], extra: &[&BTreeSet<String>]| {
            let mut parts: Vec<String> = base.iter().map(|s| s.to_string()).collect();
            for set in extra {
                parts.extend(set.iter().cloned());
            }
            parts.join(" ")
        };
        let frames = if self.frame_origins.is_empty() {
            "'none'".to_string()
        } else {
            list(&[], &[&self.frame_origins])
        };
        [
            "default-src 'self'".to_string(),
            format!(
                "script-src {}",
                list(&["'self'"], &[&self.script_origins, &self.script_hashes])
            ),
            // Inline <style> only by hash; style attributes (if any page
            // has one) are allowed on their own: they cannot run code.
            format!(
                "style-src {}",
                list(&["'self'"], &[&self.style_origins, &self.style_hashes])
            ),
            format!(
                "style-src-attr {}",
                if self.style_attributes {
                    "'unsafe-inline'"
                } else {
                    "'none'"
                }
            ),
            format!(
                "img-src {}",
                list(&["'self'", "data:"], &[&self.img_origins])
            ),
            format!("media-src {}", list(&["'self'"], &[&self.media_origins])),
            "font-src 'self'".to_string(),
            format!(
                "connect-src {}",
                list(&["'self'"], &[&self.connect_origins])
            ),
            format!("frame-src {frames}"),
            "object-src 'none'".to_string(),
            "base-uri 'self'".to_string(),
            format!("form-action {}", list(&["'self'"], &[&self.form_origins])),
            // No upgrade-insecure-requests: the site and every origin above
            // are https already, and it would break the http://127.0.0.1 copy
            // the end-to-end tests load under this very policy.
            "frame-ancestors 'none'".to_string(),
        ]
        .join("; ")
    }
}

/// The `_headers` file.
pub fn render(csp: &Csp) -> String {
    format!(
        "# Generated by dealergen from the built pages (inline scripts are allowed by hash only).\n\
         /*\n  Content-Security-Policy: {}\n  X-Content-Type-Options: nosniff\n  Referrer-Policy: strict-origin-when-cross-origin\n  X-Frame-Options: DENY\n  Permissions-Policy: camera=(), microphone=(), geolocation=(), payment=()\n\
         # The sitemap is data: no policy, so a browser's XML viewer can style it.\n\
         /sitemap.xml\n  ! Content-Security-Policy\n\
         # Astro's bundles carry a content hash in their names: cache them for a year.\n\
         /_astro/*\n  Cache-Control: public, max-age=31536000, immutable\n\
         # Photos, logos and icons keep their names when replaced: a week, then\n\
         # checked again in the background (a replaced logo shows within a week).\n\
         /images/*\n  Cache-Control: public, max-age=604800, stale-while-revalidate=86400\n",
        csp.header()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::publish::link_check::ScannedPage;
    use crate::publish::scan::scan;

    fn page(html: &str) -> ScannedPage {
        ScannedPage {
            file: "index.html".into(),
            facts: scan(html).unwrap(),
        }
    }

    #[test]
    fn the_hash_is_the_one_browsers_compute() {
        // echo -n 'alert(1)' | openssl dgst -sha256 -binary | base64
        assert_eq!(
            csp_hash("alert(1)"),
            "'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='"
        );
    }

    #[test]
    fn inline_code_is_allowed_by_hash_and_origins_only_where_used() {
        let pages = [
            page(
                r#"<script>one()</script><script type="application/ld+json">{}</script><style>a{}</style>
                    <img src="https://cdn.photos.example/a.jpg" srcset="https://img2.example/a.jpg 2x">
                    <img src="https://www.dealer.com.au/own.jpg"><a href="https://facebook.com/x">fb</a>
                    <script src="https://challenges.example/api.js"></script>"#,
            ),
            page(
                r#"<script>one()</script><script type="module">two()</script><div style="color:red"></div>"#,
            ),
        ];
        let runtime = RuntimeOrigins {
            connect: ["https://api.dealergen.example".to_string()].into(),
            images: ["https://www.dealer.com.au".to_string()].into(),
            forms: BTreeSet::new(),
            scripts: BTreeSet::new(),
            frames: BTreeSet::new(),
        };
        let csp = Csp::for_pages(&pages, "https://www.dealer.com.au", &runtime);
        assert_eq!(
            csp.script_hashes,
            [csp_hash("one()"), csp_hash("two()")].into()
        );
        assert_eq!(
            csp.img_origins,
            [
                "https://cdn.photos.example".to_string(),
                "https://img2.example".to_string()
            ]
            .into()
        );
        assert_eq!(
            csp.script_origins,
            ["https://challenges.example".to_string()].into()
        );
        let header = csp.header();
        assert!(
            header.contains("connect-src 'self' https://api.dealergen.example;"),
            "{header}"
        );
        assert!(
            header.contains("style-src-attr 'unsafe-inline'"),
            "{header}"
        );
        assert!(
            !header.contains("facebook"),
            "links are not loads: {header}"
        );
        assert!(
            !header.contains("'unsafe-inline'; ")
                || header.contains("style-src-attr 'unsafe-inline';")
        );
        assert!(!header.contains("script-src 'self' 'unsafe"), "{header}");
        assert!(render(&csp)
            .contains("/_astro/*\n  Cache-Control: public, max-age=31536000, immutable"));
        // Photos and logos (public/images): cached, not immutable (their names stay when replaced).
        assert!(render(&csp).contains(
            "/images/*\n  Cache-Control: public, max-age=604800, stale-while-revalidate=86400\n"
        ));
    }

    #[test]
    fn origins_are_scheme_and_host() {
        assert_eq!(
            origin_of("https://CDN.example:8443/a?b#c").as_deref(),
            Some("https://cdn.example:8443")
        );
        assert_eq!(
            origin_of("//cdn.example/x").as_deref(),
            Some("https://cdn.example")
        );
        assert_eq!(origin_of("/local.jpg"), None);
        assert_eq!(origin_of("data:image/png;base64,AA"), None);
    }

    #[test]
    fn scripts_and_frames_loaded_at_run_time_are_allowed() {
        let turnstile = "https://challenges.cloudflare.com".to_string();
        let runtime = RuntimeOrigins {
            scripts: [turnstile.clone()].into(),
            frames: [turnstile.clone()].into(),
            ..RuntimeOrigins::default()
        };
        let header = Csp::for_pages(&[], "https://www.dealer.com.au", &runtime).header();
        assert!(
            header.contains(&format!("script-src 'self' {turnstile};")),
            "{header}"
        );
        assert!(
            header.contains(&format!("frame-src {turnstile};")),
            "{header}"
        );
        let none =
            Csp::for_pages(&[], "https://www.dealer.com.au", &RuntimeOrigins::default()).header();
        assert!(none.contains("frame-src 'none';"), "{none}");
    }
}
