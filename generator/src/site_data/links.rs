//! Links of every page: header navigation, footer groups and social links.

use dealer_config::DealerConfig;
use schemars::JsonSchema;
use serde::Serialize;

/// A link.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Link {
    /// Link text.
    pub label: String,
    /// Site path or https URL.
    pub href: String,
    /// Opens another site (rel="noopener", target="_blank").
    pub external: bool,
}

impl Link {
    fn new(label: &str, href: &str) -> Self {
        Link {
            label: label.into(),
            href: href.into(),
            external: is_external(href),
        }
    }
}

/// Links to another site open in a new tab (the YAML only allows https
/// for those; site paths start with /).
fn is_external(href: &str) -> bool {
    href.starts_with("https://")
}

/// A header menu entry.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct NavItem {
    /// Link text.
    pub label: String,
    /// Site path or https URL; "" for a dropdown that is not itself a link.
    pub href: String,
    /// Opens another site.
    pub external: bool,
    /// Dropdown entries; empty for a plain link.
    pub children: Vec<Link>,
}

/// The footer.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Footer {
    /// Titled link columns.
    pub groups: Vec<FooterGroup>,
    /// Legal / disclaimer paragraph shown at the bottom of every page.
    pub legal_text: String,
    /// "© 2026 Example Motor Group Pty Ltd".
    pub copyright: String,
}

/// A titled column of footer links.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct FooterGroup {
    /// Heading.
    pub title: String,
    /// Links in order.
    pub links: Vec<Link>,
}

/// Social media links in display order; unset ones left out.
pub fn social(cfg: &DealerConfig) -> Vec<Link> {
    [
        ("Facebook", &cfg.social.facebook_url),
        ("Instagram", &cfg.social.instagram_url),
        ("YouTube", &cfg.social.youtube_url),
        ("LinkedIn", &cfg.social.linkedin_url),
    ]
    .into_iter()
    .filter_map(|(label, url)| url.as_ref().map(|u| Link::new(label, u)))
    .collect()
}

/// The header menu.
pub fn navigation(cfg: &DealerConfig) -> Vec<NavItem> {
    cfg.navigation
        .iter()
        .map(|n| NavItem {
            label: n.label.clone(),
            href: n.href.clone().unwrap_or_default(),
            external: n.href.as_deref().is_some_and(is_external),
            children: n
                .children
                .iter()
                .map(|c| Link::new(&c.label, &c.href))
                .collect(),
        })
        .collect()
}

/// The footer; the copyright names the legal entity when there is one.
pub fn footer(cfg: &DealerConfig, year: i32) -> Footer {
    Footer {
        groups: cfg
            .footer
            .groups
            .iter()
            .map(|g| FooterGroup {
                title: g.title.clone(),
                links: g
                    .links
                    .iter()
                    .map(|l| Link::new(&l.label, &l.href))
                    .collect(),
            })
            .collect(),
        legal_text: cfg.footer.legal_text.clone(),
        copyright: format!(
            "© {year} {}",
            cfg.legal_name.as_deref().unwrap_or(&cfg.name)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site_data::test_support::config_with;
    use serde_json::json;

    #[test]
    fn https_links_open_another_site_and_paths_stay_here() {
        assert!(Link::new("Facebook", "https://facebook.com/demo").external);
        assert!(!Link::new("Stock", "/search/").external);
        let cfg = config_with(json!({
            "navigation": [{"label": "Stock", "children": [{"label": "All", "href": "/search/"}]},
                           {"label": "Blog", "href": "https://blog.demo.com.au"}],
        }));
        let nav = navigation(&cfg);
        assert_eq!((nav[0].href.as_str(), nav[0].external), ("", false));
        assert!(nav[1].external);
        assert_eq!(nav[0].children[0].href, "/search/");
    }

    #[test]
    fn social_links_keep_their_order_and_skip_unset_ones() {
        let cfg = config_with(
            json!({"social": {"youtube_url": "https://youtube.com/@demo",
                                                 "facebook_url": "https://facebook.com/demo"}}),
        );
        let labels: Vec<String> = social(&cfg).into_iter().map(|l| l.label).collect();
        assert_eq!(labels, ["Facebook", "YouTube"]);
    }

    #[test]
    fn the_copyright_names_the_legal_entity_when_there_is_one() {
        assert_eq!(
            footer(&config_with(json!({})), 2026).copyright,
            "© 2026 Demo"
        );
        let cfg = config_with(json!({"legal_name": "Demo Motors Pty Ltd"}));
        assert_eq!(footer(&cfg, 2027).copyright, "© 2027 Demo Motors Pty Ltd");
    }
}
