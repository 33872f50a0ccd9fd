//! What must hold of a built site before it is published: `compliance`
//! (finance figures on built pages) and `asset_limits` (what Cloudflare
//! allows a site worker). The publish step (`crate::publish`) then checks
//! the links and writes the files a release carries. A shown car's photo
//! the site cannot serve is left out of the stock before any page is made
//! (`pipeline::stock::photos`).

pub mod asset_limits;
pub mod compliance;
