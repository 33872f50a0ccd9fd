//! What must hold before a site is published: `photos` (a shown car's
//! photo the site cannot serve is left out, with a warning), `compliance`
//! (finance figures on built pages), `publish` (links, sitemap, headers,
//! redirects, the staged site's checks) and `asset_limits` (what
//! Cloudflare allows a site worker).

pub mod asset_limits;
pub mod compliance;
pub mod photos;
pub mod publish;
