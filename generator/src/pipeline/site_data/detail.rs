//! The car page's settings that apply at view time (share buttons, sticky
//! bars); what depends on each car is in cars.json (`stock::detail`).

use dealer_config::DealerConfig;
use schemars::JsonSchema;
use serde::Serialize;

/// View-time settings of the car page.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct DetailPage {
    /// Leave the X (Twitter) button out of the share bar (`detail_page.hide_x_share`).
    pub hide_x_share: bool,
    /// A bar with name, price, Enquire and Call once the shopper has scrolled 900 px (`detail_page.sticky_sidebar`).
    pub sticky_sidebar: bool,
    /// On phones, a footer with Call Now (only while the car's location is open) and Enquire after 50 px of scrolling (`features.sticky_mobile_footer`).
    pub sticky_mobile_footer: bool,
}

pub fn detail_page(cfg: &DealerConfig) -> DetailPage {
    DetailPage {
        hide_x_share: cfg.detail_page.hide_x_share,
        sticky_sidebar: cfg.detail_page.sticky_sidebar,
        sticky_mobile_footer: cfg.features.sticky_mobile_footer,
    }
}
