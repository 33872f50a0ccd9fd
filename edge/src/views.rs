//! `GET /api/cars/{slug}/view.json`: counts a view of the car and answers
//! the count. The query (photos_count, updated_at, website_id) is accepted
//! and ignored: the dealer comes from the origin.
//!
//! Only the dealer's visible cars count: the build publishes their slugs to
//! KV (`cars:<dealer>`), and any other slug is a 404, so a crawler cannot
//! grow the table. The view is counted, together with the `views` rate
//! limits, by the dealer's counters object, which writes views to D1 in
//! batches (see [`crate::counters`]): one round trip here, no D1 write.

use dealer_edge_core::counters::GateRequest;
use dealer_edge_core::http::ApiError;
use dealer_edge_core::rate_limit::Route;
use dealer_rules::edge_config::{car_list_contains, cars_key};
use dealer_rules::slug::is_car_slug;
use serde_json::json;
use worker::{console_error, Request, Response, RouteContext};

use crate::api::{self, Reply};
use crate::{internal, published, Tenant};

pub async fn view(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, Route::Views, true, count).await
}

fn no_such_car() -> ApiError {
    ApiError::new(404, "No such car.")
}

async fn count(req: Request, ctx: RouteContext<()>, tenant: Tenant) -> Result<Reply, ApiError> {
    let slug = ctx.param("slug").cloned().unwrap_or_default();
    if !is_car_slug(&slug) {
        return Err(no_such_car());
    }
    let dealer = tenant.config.dealer.as_str();
    let list = published::text(&ctx.env, &cars_key(dealer))
        .await
        .map_err(internal("KV car list"))?;
    if list.is_none() {
        console_error!(
            "dealer {dealer}: no car list in KV ({}); views are not counted",
            cars_key(dealer)
        );
    }
    let known = list.is_some_and(|l| car_list_contains(&l, &slug));
    // An unknown car still counts against the limits: probing slugs is
    // rate-limited like counting them.
    let request = GateRequest {
        dealer: dealer.to_string(),
        route: Route::Views.name().to_string(),
        client: api::client_of(&req, &ctx.env, &tenant)?,
        limit: Route::Views.config(&tenant.config.rate_limits),
        view: known.then(|| slug.clone()),
    };
    let answer = match api::gate(&ctx.env, &request).await {
        Ok(answer) => answer,
        Err(e) => {
            console_error!(
                "dealer {dealer}: counters unavailable, view of {slug} not counted: {e}"
            );
            return Err(ApiError::new(
                503,
                "The view counter is unavailable just now.",
            ));
        }
    };
    if let Some(refused) = answer.refused {
        return Err(ApiError::too_many(refused.message, refused.retry_after));
    }
    if !known {
        return Err(no_such_car());
    }
    let views = answer
        .views
        .ok_or_else(|| internal("view count")("no count answered"))?;
    Ok(Reply::json(200, json!({ "slug": slug, "views": views })))
}
