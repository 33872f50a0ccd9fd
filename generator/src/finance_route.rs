//! The finance page's route. Its path is the dealer's (`finance.finance_page`,
//! checked to be lower-case words, digits and hyphens), so the route file is
//! written per build rather than kept in templates/site: a static route at
//! `src/pages/<path>/index.astro` that renders the shared FinancePage with
//! the site data. The file's text holds no dealer value; the path only
//! decides where it goes (and how many `../` reach the data).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use dealer_config::DealerConfig;

/// The finance page's folder below `src/pages`, e.g. "finance" or
/// "finance/apply"; none while finance is off.
pub fn route_dir(cfg: &DealerConfig) -> Option<PathBuf> {
    if !cfg.finance.enabled {
        return None;
    }
    let path = cfg.finance.finance_page.trim_matches('/');
    let safe = !path.is_empty()
        && path.split('/').all(|seg| {
            !seg.is_empty()
                && seg
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        });
    // The config check refuses anything else; this guard keeps a path that
    // slipped through from ever writing outside src/pages.
    safe.then(|| path.split('/').collect())
}

/// The built page every finance build must produce, e.g. "finance/index.html".
pub fn built_page(cfg: &DealerConfig) -> Option<String> {
    route_dir(cfg).map(|dir| format!("{}/index.html", dir.to_string_lossy().replace('\\', "/")))
}

/// Writes the route into the generated project (`src/` is fresh each build).
pub fn write(site_dir: &Path, cfg: &DealerConfig) -> Result<()> {
    let Some(dir) = route_dir(cfg) else {
        return Ok(());
    };
    let depth = dir.components().count();
    let data = format!("{}data/site.json", "../".repeat(depth + 1));
    let file = site_dir.join("src/pages").join(&dir).join("index.astro");
    let text = format!(
        "---\n// Written by dealergen (generator/src/finance_route.rs) at the dealer's finance.finance_page.\n\
         import FinancePage from '@app/pages/FinancePage.astro';\n\
         import type {{ SiteData }} from '@app/types/site';\n\
         import siteJson from '{data}';\n---\n<FinancePage site={{siteJson as SiteData}} />\n"
    );
    std::fs::create_dir_all(file.parent().expect("a folder"))
        .with_context(|| format!("cannot create {}", file.display()))?;
    std::fs::write(&file, text).with_context(|| format!("cannot write {}", file.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site_data::test_support::config_with;
    use serde_json::json;

    #[test]
    fn the_route_goes_where_the_dealer_says_and_nowhere_else() {
        let dir = tempfile::tempdir().unwrap();
        let cfg = config_with(json!({"finance": {"finance_page": "/finance/apply/"}}));
        write(dir.path(), &cfg).unwrap();
        let text = std::fs::read_to_string(dir.path().join("src/pages/finance/apply/index.astro"))
            .unwrap();
        assert!(
            text.contains("import siteJson from '../../../data/site.json';"),
            "{text}"
        );
        assert_eq!(
            built_page(&cfg).as_deref(),
            Some("finance/apply/index.html")
        );
        let default = config_with(json!({}));
        assert_eq!(built_page(&default).as_deref(), Some("finance/index.html"));
        // Finance off: no page. A hostile path (the config check refuses it): no file.
        assert_eq!(
            built_page(&config_with(json!({"finance": {"enabled": false}}))),
            None
        );
        for bad in ["/../../etc", "/a/./b", "/", "/Finance"] {
            let cfg = config_with(json!({"finance": {"finance_page": bad}}));
            assert_eq!(route_dir(&cfg), None, "{bad}");
        }
    }
}
