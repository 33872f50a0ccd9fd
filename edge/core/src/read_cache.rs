//! A short, bounded memory of what the worker read from KV, per isolate.
//!
//! Every API call reads the dealer's origin and configuration from KV, and
//! a lead reads its car (two keys when named by id): four reads before any
//! work. What `dealergen build`/`deploy` publishes there changes at most
//! hourly, and Cloudflare KV itself takes up to 60 s to show a write
//! everywhere, so an isolate may keep what it read for [`KEEP_MS`] without
//! showing anything KV would not: a deploy reaches every isolate within
//! KV's own delay plus [`KEEP_MS`] (docs/deploy.md). `dealergen dev` keeps
//! nothing (`PUBLISHED_CACHE_SECS=0`): a saved YAML edit is live at once.
//! Absent keys are kept
//! too (an unknown origin or car costs one read per window), and the
//! memory is bounded: at [`MAX_ENTRIES`] the oldest half is dropped, so
//! requests naming random keys cannot grow it.
//!
//! Only published, read-only data goes through it; nothing a request
//! writes (sessions, counters, leads) is kept here.

use std::collections::HashMap;

/// How long a read is kept, in milliseconds, unless the worker's
/// `PUBLISHED_CACHE_SECS` says otherwise.
pub const KEEP_MS: u64 = 30_000;
/// Most keys kept at once.
pub const MAX_ENTRIES: usize = 2_000;

/// Values read by key: `Some(None)` is a key KV did not have.
#[derive(Debug)]
pub struct ReadCache {
    entries: HashMap<String, Entry>,
    keep_ms: u64,
}

impl Default for ReadCache {
    fn default() -> Self {
        Self::keeping(KEEP_MS)
    }
}

#[derive(Debug)]
struct Entry {
    read_at_ms: u64,
    value: Option<String>,
}

impl ReadCache {
    /// A cache that keeps each read `keep_ms` (0: none).
    pub fn keeping(keep_ms: u64) -> Self {
        Self {
            entries: HashMap::new(),
            keep_ms,
        }
    }

    /// The keep window in milliseconds from the worker's
    /// `PUBLISHED_CACHE_SECS` (whole seconds; absent or unreadable:
    /// [`KEEP_MS`]).
    pub fn keep_ms_from(var: Option<&str>) -> u64 {
        var.and_then(|v| v.trim().parse::<u64>().ok())
            .map_or(KEEP_MS, |secs| secs.min(3_600) * 1_000)
    }

    /// What was read for `key` less than the keep window before `now_ms`;
    /// `None` when it must be read again.
    pub fn get(&self, key: &str, now_ms: u64) -> Option<Option<String>> {
        let entry = self.entries.get(key)?;
        self.fresh(entry, now_ms).then(|| entry.value.clone())
    }

    /// Read less than the keep window ago; a clock that went back reads
    /// again.
    fn fresh(&self, entry: &Entry, now_ms: u64) -> bool {
        now_ms >= entry.read_at_ms && now_ms - entry.read_at_ms < self.keep_ms
    }

    /// Keeps what was read for `key` at `now_ms`.
    pub fn put(&mut self, key: &str, value: Option<String>, now_ms: u64) {
        if self.keep_ms == 0 {
            return;
        }
        if self.entries.len() >= MAX_ENTRIES && !self.entries.contains_key(key) {
            self.drop_oldest_half(now_ms);
        }
        self.entries.insert(
            key.to_string(),
            Entry {
                read_at_ms: now_ms,
                value,
            },
        );
    }

    /// Forgets every stale read and then, if still full, the older half.
    fn drop_oldest_half(&mut self, now_ms: u64) {
        let keep = self.keep_ms;
        self.entries
            .retain(|_, e| now_ms >= e.read_at_ms && now_ms - e.read_at_ms < keep);
        if self.entries.len() < MAX_ENTRIES {
            return;
        }
        let mut ages: Vec<u64> = self.entries.values().map(|e| e.read_at_ms).collect();
        ages.sort_unstable();
        let cut = ages[ages.len() / 2];
        self.entries.retain(|_, e| e.read_at_ms > cut);
    }

    /// How many keys are kept.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_is_kept_for_the_window_and_then_read_again() {
        let mut cache = ReadCache::default();
        assert_eq!(cache.get("dealer:a", 1_000), None);
        cache.put("dealer:a", Some("{}".into()), 1_000);
        assert_eq!(cache.get("dealer:a", 1_000), Some(Some("{}".into())));
        assert_eq!(
            cache.get("dealer:a", 1_000 + KEEP_MS - 1),
            Some(Some("{}".into()))
        );
        assert_eq!(cache.get("dealer:a", 1_000 + KEEP_MS), None);
    }

    #[test]
    fn a_window_of_zero_keeps_nothing() {
        let mut cache = ReadCache::keeping(ReadCache::keep_ms_from(Some("0")));
        cache.put("dealer:a", Some("{}".into()), 1_000);
        assert_eq!(cache.get("dealer:a", 1_000), None);
        assert!(cache.is_empty());
    }

    #[test]
    fn the_window_comes_from_the_variable_in_seconds() {
        assert_eq!(ReadCache::keep_ms_from(None), KEEP_MS);
        assert_eq!(ReadCache::keep_ms_from(Some("nonsense")), KEEP_MS);
        assert_eq!(ReadCache::keep_ms_from(Some(" 5 ")), 5_000);
        assert_eq!(
            ReadCache::keep_ms_from(Some("999999")),
            3_600_000,
            "at most an hour"
        );
    }

    #[test]
    fn an_absent_key_is_kept_as_absent() {
        let mut cache = ReadCache::default();
        cache.put("origin:https://x.example", None, 5);
        assert_eq!(cache.get("origin:https://x.example", 6), Some(None));
    }

    #[test]
    fn a_clock_that_went_back_reads_again() {
        let mut cache = ReadCache::default();
        cache.put("k", Some("v".into()), 10_000);
        assert_eq!(cache.get("k", 9_999), None);
    }

    #[test]
    fn a_newer_read_replaces_the_kept_one() {
        let mut cache = ReadCache::default();
        cache.put("k", Some("old".into()), 0);
        cache.put("k", Some("new".into()), KEEP_MS);
        assert_eq!(cache.get("k", KEEP_MS + 1), Some(Some("new".into())));
    }

    #[test]
    fn the_memory_is_bounded_and_keeps_the_newest_reads() {
        let mut cache = ReadCache::default();
        // Every key fresh: the bound drops the older half.
        for i in 0..(MAX_ENTRIES as u64 * 3) {
            cache.put(&format!("car:d:{i}"), None, i);
            assert!(cache.len() <= MAX_ENTRIES);
        }
        let last = MAX_ENTRIES as u64 * 3 - 1;
        assert_eq!(cache.get(&format!("car:d:{last}"), last), Some(None));
        assert_eq!(cache.get("car:d:0", last), None);
    }

    #[test]
    fn stale_reads_are_dropped_first() {
        let mut cache = ReadCache::default();
        for i in 0..MAX_ENTRIES {
            cache.put(&format!("k{i}"), None, 0);
        }
        cache.put("fresh", None, KEEP_MS);
        assert_eq!(cache.len(), 1, "every stale read gone, nothing fresh lost");
        assert_eq!(cache.get("fresh", KEEP_MS), Some(None));
    }
}
