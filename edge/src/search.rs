//! Popular searches: `POST /api/search/queries` counts a search the
//! keyword box reports, `GET /api/search/popular` answers the dealer's most
//! searched queries that found cars. The rules (normalising, what is
//! dropped as personal, the visitor hash, the privacy threshold, the SQL)
//! are in [`dealer_edge_core::search_queries`].

use dealer_edge_core::http::{self, ApiError};
use dealer_edge_core::rate_limit::Route;
use dealer_edge_core::search_queries::{
    self as rules, day_of, is_denied, matches_stock, popular_params, validate_report, visitor_hash,
    visitor_network,
};
use dealer_rules::search_words::search_words_key;
use serde_json::{json, Value};
use worker::wasm_bindgen::JsValue;
use worker::{Env, Request, Response, RouteContext};

use crate::api::{self, invalid, Reply};
use crate::sql::{self, int, stmt};
use crate::{internal, published, Tenant};

pub async fn report(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, Route::SearchQueries, false, record).await
}

pub async fn popular(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, Route::PopularSearches, true, list).await
}

async fn record(
    mut req: Request,
    ctx: RouteContext<()>,
    tenant: Tenant,
) -> Result<Reply, ApiError> {
    let content_type = req.headers().get("Content-Type").ok().flatten();
    http::check_json_content_type(content_type.as_deref())?;
    let body = http::parse_json(&api::body_bytes(&mut req, rules::BODY_LIMIT).await?)?;
    let report = validate_report(&body).map_err(invalid)?;
    let query = match report.query {
        Ok(query) => query,
        // Answered like a counted search: nothing for the site to fix.
        Err(dropped) => {
            return Ok(Reply::json(
                202,
                json!({ "recorded": false, "dropped": dropped.name() }),
            ))
        }
    };
    let dealer = tenant.config.dealer.as_str();
    // A phrase with a word no car of the dealer's has is never counted
    // (nor a denied word): nobody can plant text on the dealer's site.
    let stock = published::text(&ctx.env, &search_words_key(dealer))
        .await
        .map_err(internal("stock words"))?
        .unwrap_or_default();
    if !matches_stock(&query, &stock, &tenant.config.popular_searches_deny) {
        return Ok(Reply::json(
            202,
            json!({ "recorded": false, "dropped": "not_in_stock" }),
        ));
    }
    let day = day_of(api::now());
    // One visitor per /24 or /48 a day: three addresses of one block are
    // not three visitors.
    let network = visitor_network(&api::client_address(&req));
    let visitor = visitor_hash(&api::session_key(&ctx.env)?, dealer, day, &network);
    let params = |extra: Vec<JsValue>| {
        let mut p = vec![dealer.into(), int(day), query.as_str().into()];
        p.extend(extra);
        p
    };
    let db = api::db(&ctx.env)?;
    sql::batch(
        &db,
        "record search query",
        vec![
            stmt(rules::RECORD_VISITOR, params(vec![visitor.as_str().into()])),
            // Counted as finding cars: its words are the stock's (the
            // client's own count is not trusted).
            stmt(rules::RECORD_COUNT, params(vec![int(1)])),
        ],
    )
    .await?;
    Ok(Reply::json(
        202,
        json!({ "recorded": true, "query": query }),
    ))
}

async fn list(req: Request, ctx: RouteContext<()>, tenant: Tenant) -> Result<Reply, ApiError> {
    // The URL as JavaScript has it: parsing it in Rust would link the `url`
    // crate and its Unicode tables into the worker (+190 KB raw).
    let url = req.inner().url();
    let query = url.split('#').next().unwrap_or_default();
    let (days, limit) = popular_params(query.split_once('?').map_or("", |(_, q)| q));
    let today = day_of(api::now());
    let since = today.saturating_sub(days - 1);
    let db = api::db(&ctx.env)?;
    let rows = sql::all(
        &db,
        "popular searches",
        stmt(
            rules::POPULAR,
            vec![
                tenant.config.dealer.as_str().into(),
                int(since),
                int(rules::MIN_VISITORS),
                int(limit),
            ],
        ),
    )
    .await?;
    // A word the dealer denied after a search was counted hides it too.
    let deny = &tenant.config.popular_searches_deny;
    let queries: Vec<Value> = rows
        .iter()
        .filter_map(|r| sql::text(r, "query"))
        .filter(|q| !is_denied(q, deny))
        .map(|q| Value::from(q.to_string()))
        .collect();
    let mut reply = Reply::json(200, json!({ "queries": queries, "days": days }));
    reply.cache = Some(rules::POPULAR_CACHE);
    Ok(reply)
}

/// Cron: drops visitor hashes of past days and counts older than kept.
pub async fn prune(env: &Env) {
    let Ok(db) = env.d1("DB") else { return };
    let today = day_of(api::now());
    // Failures are logged by the helper; the next run tries again.
    let _ = sql::run(
        &db,
        "cron: old search visitors",
        stmt(rules::PRUNE_VISITORS, vec![int(today)]),
    )
    .await;
    let _ = sql::run(
        &db,
        "cron: old search counts",
        stmt(
            rules::PRUNE_COUNTS,
            vec![int(today.saturating_sub(rules::KEEP_DAYS))],
        ),
    )
    .await;
}
