//! What is deployed, kept remotely in the `CONFIG` KV namespace so any CI
//! runner (no local `sites/`) knows it:
//!
//! - `deployed:<slug>`: [`Deployed`], the live release of a dealer and the
//!   one before it (what `rollback` returns to);
//! - `release:<slug>:<release-id>`: the KV entries of that release (the
//!   `wrangler kv bulk put` file), so a rollback restores the dealer's edge
//!   config and knows which keys to delete;
//! - `deployed:@edge`: the key of the edge worker last deployed.
//!
//! The worker never reads these keys (it reads `dealer:`, `origin:`,
//! `cars:`, `search-words:`, `car:`, `car-id:`).

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::{Deserialize, Serialize};

use super::wrangler::{Outcome, Wrangler};
use crate::run::release::KvEntry;

/// The deployment of one dealer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Deployed {
    pub slug: String,
    /// Build key of the live release.
    pub key: String,
    /// Id of the live release.
    pub release: String,
    /// The site worker version serving it.
    pub version: Option<String>,
    pub deployed_at: String,
    pub dealergen_version: String,
    /// The deployment before this one: what `rollback` returns to.
    pub previous: Option<Pointer>,
    /// Set by `rollback`: the release it left, which `deploy --changed`
    /// does not put back by itself (a new build or `--dealer` does).
    #[serde(default)]
    pub rolled_back_from: Option<Pointer>,
    /// Set while a deployment or rollback changes the dealer's KV entries
    /// (the release it is putting in place); the record written when it
    /// finishes has none. A record still carrying it means that run did not
    /// finish, so KV may hold a mix of two releases' entries: the next
    /// deployment writes every key, not only those that changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub switching_to: Option<String>,
}

/// A release as deployed once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pointer {
    pub key: String,
    pub release: String,
    pub version: Option<String>,
}

impl Deployed {
    pub fn pointer(&self) -> Pointer {
        Pointer {
            key: self.key.clone(),
            release: self.release.clone(),
            version: self.version.clone(),
        }
    }
}

/// The edge worker as last deployed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EdgeDeployed {
    pub key: String,
    pub version: Option<String>,
    pub deployed_at: String,
}

pub fn deployed_key(slug: &str) -> String {
    format!("deployed:{slug}")
}
pub const EDGE_KEY: &str = "deployed:@edge";
pub fn release_key(slug: &str, release: &str) -> String {
    format!("release:{slug}:{release}")
}

/// A remote read.
#[derive(Debug)]
pub enum Remote<T> {
    Found(T),
    /// The key does not exist (never deployed).
    Absent,
    /// It could not be read: no credentials, no network, an error.
    Unknown(String),
}

/// The KV namespace, through wrangler.
pub struct Store<'a> {
    pub wrangler: &'a Wrangler,
    /// Folder holding the wrangler.json that names the account.
    pub dir: PathBuf,
    pub namespace_id: String,
    /// Whether credentials are there at all; without them nothing is asked.
    pub reachable: Result<(), String>,
}

impl Store<'_> {
    fn kv(&self, args: &[&str], stdin: Option<&str>) -> Result<Outcome> {
        let mut all: Vec<&str> = vec!["kv"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--namespace-id", &self.namespace_id, "--remote"]);
        self.wrangler.run(&self.dir, &all, stdin)
    }

    /// `wrangler kv key get <key>`.
    pub fn get(&self, key: &str) -> Remote<String> {
        if let Err(why) = &self.reachable {
            return Remote::Unknown(why.clone());
        }
        match self.kv(&["key", "get", key], None) {
            Err(e) => Remote::Unknown(format!("{e:#}")),
            Ok(o) if o.ok => Remote::Found(o.stdout),
            // wrangler reports a missing key as the API's 404.
            Ok(o) if o.stderr.contains("404") || o.stdout.contains("404") => Remote::Absent,
            Ok(o) => Remote::Unknown(format!(
                "wrangler kv key get {key} failed:\n    {}",
                o.said()
            )),
        }
    }

    pub fn get_json<T: for<'de> Deserialize<'de>>(&self, key: &str) -> Remote<T> {
        match self.get(key) {
            Remote::Found(text) => match serde_json::from_str(text.trim()) {
                Ok(v) => Remote::Found(v),
                Err(e) => Remote::Unknown(format!("{key} holds something unreadable ({e})")),
            },
            Remote::Absent => Remote::Absent,
            Remote::Unknown(w) => Remote::Unknown(w),
        }
    }

    /// `wrangler kv key put <key> --path <file>`.
    pub fn put_file(&self, key: &str, file: &Path) -> Result<()> {
        let path = file.to_string_lossy();
        self.kv(&["key", "put", key, "--path", &path], None)?
            .checked(&format!("kv key put {key}"))?;
        Ok(())
    }

    pub fn put_json<T: Serialize>(&self, key: &str, value: &T) -> Result<()> {
        let f = tempfile::NamedTempFile::new_in(&self.dir)?;
        std::fs::write(f.path(), serde_json::to_string_pretty(value)?)?;
        self.put_file(key, f.path())
    }

    /// `wrangler kv bulk put <file>`.
    fn bulk_put(&self, file: &Path) -> Result<()> {
        let path = file.to_string_lossy();
        self.kv(&["bulk", "put", &path], None)?
            .checked("kv bulk put")?;
        Ok(())
    }

    /// Writes `record` marked as switching to release `to`
    /// (`Deployed::switching_to`): done before a run changes the dealer's
    /// KV entries, so a run that does not finish leaves the mark.
    pub fn mark_switching(&self, record: &Deployed, to: &str) -> Result<()> {
        let marked = Deployed {
            switching_to: Some(to.to_string()),
            ..record.clone()
        };
        self.put_json(&deployed_key(&record.slug), &marked)
    }

    pub fn bulk_put_entries(&self, entries: &[KvEntry]) -> Result<()> {
        let f = tempfile::NamedTempFile::new_in(&self.dir)?;
        std::fs::write(f.path(), serde_json::to_string(entries)?)?;
        self.bulk_put(f.path())
    }

    /// `wrangler kv bulk delete <file> --force`.
    pub fn bulk_delete(&self, keys: &[String]) -> Result<()> {
        if keys.is_empty() {
            return Ok(());
        }
        let f = tempfile::NamedTempFile::new_in(&self.dir)?;
        std::fs::write(f.path(), serde_json::to_string(keys)?)?;
        let path = f.path().to_string_lossy().into_owned();
        self.kv(&["bulk", "delete", &path, "--force"], None)?
            .checked("kv bulk delete")?;
        Ok(())
    }
}

/// Keys of `old` that `new` no longer has: deleted after a switch, so a
/// sold car's `car:` key does not outlive its page.
pub fn stale_keys(old: &[KvEntry], new: &[KvEntry]) -> Vec<String> {
    let keep: std::collections::HashSet<&str> = new.iter().map(|e| e.key.as_str()).collect();
    let mut gone: Vec<String> = old
        .iter()
        .filter(|e| !keep.contains(e.key.as_str()))
        .map(|e| e.key.clone())
        .collect();
    gone.sort();
    gone.dedup();
    gone
}

/// Each entry's value by its key.
fn values(entries: &[KvEntry]) -> std::collections::HashMap<&str, &str> {
    entries
        .iter()
        .map(|e| (e.key.as_str(), e.value.as_str()))
        .collect()
}

/// The entries of `new` that `old` lacks or holds with another value: what
/// a deployment writes when KV holds `old` (an hourly refresh changes a few
/// cars' keys of a dealer's hundreds).
pub fn changed_entries(old: &[KvEntry], new: &[KvEntry]) -> Vec<KvEntry> {
    let before = values(old);
    new.iter()
        .filter(|e| before.get(e.key.as_str()) != Some(&e.value.as_str()))
        .cloned()
        .collect()
}

/// Added, changed, removed and unchanged keys from `old` to `new`.
pub fn kv_change(old: &[KvEntry], new: &[KvEntry]) -> (usize, usize, usize, usize) {
    let before = values(old);
    let (mut added, mut changed, mut same) = (0, 0, 0);
    for e in new {
        match before.get(e.key.as_str()) {
            None => added += 1,
            Some(v) if *v == e.value => same += 1,
            Some(_) => changed += 1,
        }
    }
    (added, changed, stale_keys(old, new).len(), same)
}
