//! `GET /api/cars/{slug}/view.json`: counts a view of the car
//! and answers the count. The query (photos_count, updated_at, website_id)
//! is accepted and ignored: the dealer comes from the origin.

use dealer_rules::slug::is_car_slug;
use serde::Deserialize;
use serde_json::json;
use worker::{Request, Response, RouteContext};

use crate::api::{self, Reply};
use crate::{internal, Tenant};
use dealer_edge_core::http::ApiError;

pub async fn view(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, true, count).await
}

#[derive(Deserialize)]
struct Views {
    views: u64,
}

async fn count(_req: Request, ctx: RouteContext<()>, tenant: Tenant) -> Result<Reply, ApiError> {
    let slug = ctx.param("slug").cloned().unwrap_or_default();
    if !is_car_slug(&slug) {
        return Err(ApiError::new(404, "No such car."));
    }
    let db = api::db(&ctx.env)?;
    let row = db
        .prepare(
            "INSERT INTO car_views (dealer, slug, views) VALUES (?1, ?2, 1) \
             ON CONFLICT (dealer, slug) DO UPDATE SET views = views + 1 RETURNING views",
        )
        .bind(&[tenant.config.dealer.as_str().into(), slug.as_str().into()])
        .map_err(internal("bind view"))?
        .first::<Views>(None)
        .await
        .map_err(internal("count view"))?;
    let views = row.map_or(1, |r| r.views);
    Ok(Reply::json(200, json!({ "slug": slug, "views": views })))
}
