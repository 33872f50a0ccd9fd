//! The company, service and legal pages (docs/behaviour/content.md §2.1, §2.3, §2.4, §8).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which company, service and legal pages the site has. A page that is off
/// does not exist: menu and footer links to it are left out. Each page has
/// built-in wording; a Markdown file in the dealer's folder,
/// `dealers/<slug>/pages/<page>.md` (e.g. `about-us.md`), replaces it.
/// /terms-and-conditions/ and /privacy-policy/ always exist (every enquiry
/// form links to them): word them in `terms-and-conditions.md` and
/// `privacy-policy.md`. Any other `dealers/<slug>/pages/<name>.md` becomes
/// the page /pages/<name>/.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct PagesConfig {
    /// /about-us/: who the dealer is, with every location. Wording: `about-us.md`.
    pub about_us: bool,
    /// /service/: the service department, its locations and hours, and Book a Service (to `service.booking_url`, else the /genuine-service/ page). Needs a location with service hours or of kind `service`. Wording: `service.md`.
    pub service: bool,
    /// /roadside-assist/: roadside assistance, with `service.roadside_phone`. Wording: `roadside-assist.md` (needed when there is no roadside phone).
    pub roadside_assist: bool,
    /// /fleet/: fleet and business buyers, with a fleet enquiry. Wording: `fleet.md`.
    pub fleet: bool,
    /// /warranty/: the dealer's warranty terms, from `warranty.md` (required: there is no built-in warranty wording).
    pub warranty: bool,
    /// /pages/complaint-handling-process/: `legal.complaints_text` and the privacy answer time. Extra wording: `complaint-handling-process.md`.
    pub complaint_handling: bool,
}

impl Default for PagesConfig {
    fn default() -> Self {
        PagesConfig {
            about_us: true,
            service: false,
            roadside_assist: false,
            fleet: false,
            warranty: false,
            complaint_handling: true,
        }
    }
}

/// A built-in page: its switch, its path and the Markdown file that words it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuiltInPage {
    /// Key under `pages:`.
    pub key: &'static str,
    /// Site path, e.g. "/about-us/".
    pub path: &'static str,
    /// File stem of its wording in `dealers/<slug>/pages/`, e.g. "about-us".
    pub file: &'static str,
    /// Title when the Markdown file does not give one.
    pub title: &'static str,
}

/// The built-in pages, in menu order.
pub const BUILT_IN_PAGES: [BuiltInPage; 8] = [
    BuiltInPage {
        key: "about_us",
        path: "/about-us/",
        file: "about-us",
        title: "About us",
    },
    BuiltInPage {
        key: "service",
        path: "/service/",
        file: "service",
        title: "Service",
    },
    BuiltInPage {
        key: "roadside_assist",
        path: "/roadside-assist/",
        file: "roadside-assist",
        title: "Roadside assist",
    },
    BuiltInPage {
        key: "fleet",
        path: "/fleet/",
        file: "fleet",
        title: "Fleet",
    },
    BuiltInPage {
        key: "warranty",
        path: "/warranty/",
        file: "warranty",
        title: "Warranty",
    },
    BuiltInPage {
        key: "terms_and_conditions",
        path: "/terms-and-conditions/",
        file: "terms-and-conditions",
        title: "Terms and conditions",
    },
    BuiltInPage {
        key: "privacy_policy",
        path: "/privacy-policy/",
        file: "privacy-policy",
        title: "Privacy policy",
    },
    BuiltInPage {
        key: "complaint_handling",
        path: "/pages/complaint-handling-process/",
        file: "complaint-handling-process",
        title: "Complaint handling process",
    },
];

/// The on-site service booking page, when Book a Service has no external target.
pub const GENUINE_SERVICE_PATH: &str = "/genuine-service/";

impl PagesConfig {
    /// Whether the built-in page `key` (a `pages:` key) is on.
    pub fn is_on(&self, key: &str) -> bool {
        match key {
            "about_us" => self.about_us,
            "service" => self.service,
            "roadside_assist" => self.roadside_assist,
            "fleet" => self.fleet,
            "warranty" => self.warranty,
            // Every enquiry form links to them.
            "terms_and_conditions" | "privacy_policy" => true,
            "complaint_handling" => self.complaint_handling,
            _ => false,
        }
    }

    /// The built-in page whose wording lives in `<file>.md`, if any.
    pub fn built_in_for_file(file: &str) -> Option<&'static BuiltInPage> {
        BUILT_IN_PAGES.iter().find(|p| p.file == file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_page_has_a_switch() {
        let all_on: PagesConfig = serde_json::from_value(serde_json::json!({
            "about_us": true, "service": true, "roadside_assist": true, "fleet": true, "warranty": true,
            "complaint_handling": true,
        }))
        .unwrap();
        let off: PagesConfig = serde_json::from_value(serde_json::json!({
            "about_us": false, "service": false, "roadside_assist": false, "fleet": false, "warranty": false,
            "complaint_handling": false,
        }))
        .unwrap();
        for p in BUILT_IN_PAGES {
            let always = ["terms_and_conditions", "privacy_policy"].contains(&p.key);
            assert!(
                all_on.is_on(p.key) && off.is_on(p.key) == always,
                "{}",
                p.key
            );
            assert_eq!(PagesConfig::built_in_for_file(p.file), Some(&p));
        }
    }
}
