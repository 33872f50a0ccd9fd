//! Reading what `dealergen build` publishes to the `CONFIG` namespace
//! (origins, dealer configs, the stock's cars and car list) through the
//! isolate's short memory of earlier reads
//! ([`dealer_edge_core::read_cache`]): a busy dealer's calls do not each
//! pay four KV round trips for data that changes hourly.

use std::cell::RefCell;

use dealer_edge_core::read_cache::ReadCache;
use worker::Env;

thread_local! {
    // One per isolate (a worker isolate runs one thread); made on the
    // first read, with the keep window of the worker's environment.
    static READS: RefCell<Option<ReadCache>> = const { RefCell::new(None) };
}

/// The text of published key `key`, `None` when KV has none.
pub async fn text(env: &Env, key: &str) -> worker::Result<Option<String>> {
    let now = worker::Date::now().as_millis();
    READS.with(|reads| {
        reads.borrow_mut().get_or_insert_with(|| {
            let var = env.var("PUBLISHED_CACHE_SECS").ok().map(|v| v.to_string());
            ReadCache::keeping(ReadCache::keep_ms_from(var.as_deref()))
        });
    });
    if let Some(kept) = READS.with(|reads| reads.borrow().as_ref()?.get(key, now)) {
        return Ok(kept);
    }
    let value = env.kv("CONFIG")?.get(key).text().await?;
    READS.with(|reads| {
        if let Some(cache) = reads.borrow_mut().as_mut() {
            cache.put(key, value.clone(), now);
        }
    });
    Ok(value)
}
