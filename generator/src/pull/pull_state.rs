//! What the last pull of a URL feed learnt from the server (its ETag and
//! Last-Modified), kept next to the feed as `<feed>.pull-state.json`, so
//! the next pull can ask "changed since?" and a 304 costs no download.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PullState {
    /// The URL the validators belong to: a changed `stock.source.url`
    /// starts afresh.
    pub url: String,
    /// The server's `ETag` of the feed now in place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
    /// The server's `Last-Modified` of the feed now in place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
    /// When the feed now in place was fetched (RFC 3339).
    pub fetched_at: String,
}

/// `stock/x.json` → `stock/x.json.pull-state.json`.
pub fn path_for(feed: &Path) -> PathBuf {
    let mut name = feed.file_name().unwrap_or_default().to_os_string();
    name.push(".pull-state.json");
    feed.with_file_name(name)
}

/// The state of the last pull from `url`, if the feed it describes is
/// still in place. A missing, unreadable or foreign state means "no
/// validators": the pull downloads the whole feed, which is always safe.
pub fn load(feed: &Path, url: &str) -> Option<PullState> {
    if !feed.is_file() {
        return None;
    }
    let text = std::fs::read_to_string(path_for(feed)).ok()?;
    let state: PullState = serde_json::from_str(&text).ok()?;
    (state.url == url).then_some(state)
}

/// Writes the state atomically (a temporary file renamed over the old one).
pub fn save(feed: &Path, state: &PullState) -> Result<()> {
    let path = path_for(feed);
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("cannot write in {}", dir.display()))?;
    serde_json::to_writer_pretty(&mut tmp, state)?;
    std::io::Write::write_all(&mut tmp, b"\n")?;
    tmp.persist(&path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_belongs_to_its_url_and_its_feed() {
        let dir = tempfile::tempdir().unwrap();
        let feed = dir.path().join("x.json");
        let state = PullState {
            url: "https://a.example/s.json".into(),
            etag: Some("\"v1\"".into()),
            last_modified: None,
            fetched_at: "2026-11-20T00:00:00Z".into(),
        };
        std::fs::write(&feed, "[]").unwrap();
        save(&feed, &state).unwrap();
        assert_eq!(path_for(&feed), dir.path().join("x.json.pull-state.json"));
        assert_eq!(load(&feed, "https://a.example/s.json"), Some(state));
        assert_eq!(load(&feed, "https://b.example/s.json"), None);
        std::fs::remove_file(&feed).unwrap();
        assert_eq!(
            load(&feed, "https://a.example/s.json"),
            None,
            "no feed: nothing to compare against"
        );
    }
}
