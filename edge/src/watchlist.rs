//! The watchlist: `POST /api/watchlist/save-car` and
//! `remove-car` (JSON phone_number, car_id → `{success, message?}`) and
//! `GET /api/watchlist`. The session (see [`crate::auth`]) decides whose list it is; a
//! phone_number in the body that differs from the session is refused. Save
//! and remove are idempotent.

use dealer_edge_core::rate_limit::Route;
use dealer_edge_core::requests::{
    phone_matches_session, validate_watchlist_change, WATCHLIST_FULL_MESSAGE, WATCHLIST_MAX,
};
use dealer_edge_core::session::Session;
use serde::Deserialize;
use serde_json::json;
use worker::{Request, Response, RouteContext};

use crate::api::{self, invalid, Reply};
use crate::auth::{require_watchlist, session};
use crate::sql::{self, stmt};
use crate::{internal, Tenant};
use dealer_edge_core::http::ApiError;

pub async fn save(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, Route::Watchlist, false, |r, c, t| {
        change(r, c, t, true)
    })
    .await
}
pub async fn remove(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, Route::Watchlist, false, |r, c, t| {
        change(r, c, t, false)
    })
    .await
}
pub async fn list(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, Route::Watchlist, true, read).await
}

/// The sites' shape for failures (`success: false` and a message), on top of
/// the API's usual `error`.
fn failure(status: u16, message: &str) -> ApiError {
    ApiError::new(status, message).with_success_flag()
}

async fn signed_in(
    req: &Request,
    ctx: &RouteContext<()>,
    tenant: &Tenant,
) -> Result<Session, ApiError> {
    require_watchlist(tenant)?;
    session(req, &ctx.env, tenant)
        .await?
        .ok_or_else(|| failure(401, "Please sign in to use your watchlist."))
}

async fn change(
    req: Request,
    ctx: RouteContext<()>,
    tenant: Tenant,
    save: bool,
) -> Result<Reply, ApiError> {
    apply(req, ctx, tenant, save)
        .await
        .map_err(ApiError::with_success_flag)
}

async fn apply(
    mut req: Request,
    ctx: RouteContext<()>,
    tenant: Tenant,
    save: bool,
) -> Result<Reply, ApiError> {
    let session = signed_in(&req, &ctx, &tenant).await?;
    let body = api::json_body(&mut req).await?;
    let change = validate_watchlist_change(&body).map_err(invalid)?;
    if !phone_matches_session(change.phone_number.as_deref(), &session.phone) {
        return Err(failure(403, "You can only change your own watchlist."));
    }
    let db = api::db(&ctx.env)?;
    let dealer = tenant.config.dealer.as_str();
    let params = vec![
        dealer.into(),
        session.phone.as_str().into(),
        change.car_id.as_str().into(),
    ];
    if save {
        // Saved only while the list has room, in one statement (two saves
        // at once cannot both take the last place).
        let mut with_max = params.clone();
        with_max.push(sql::int(u64::from(WATCHLIST_MAX)));
        let added = sql::first(
            &db,
            "watchlist save",
            stmt(
                "INSERT INTO watchlist (dealer, phone, car_id) SELECT ?1, ?2, ?3 \
                 WHERE (SELECT count(*) FROM watchlist WHERE dealer = ?1 AND phone = ?2) < ?4 \
                 ON CONFLICT DO NOTHING RETURNING car_id",
                with_max,
            ),
        )
        .await?;
        if added.is_none() {
            let saved = sql::first(
                &db,
                "watchlist saved",
                stmt(
                    "SELECT car_id FROM watchlist WHERE dealer = ?1 AND phone = ?2 AND car_id = ?3",
                    params,
                ),
            )
            .await?;
            if saved.is_none() {
                return Err(failure(409, WATCHLIST_FULL_MESSAGE));
            }
        }
    } else {
        sql::run(
            &db,
            "watchlist remove",
            stmt(
                "DELETE FROM watchlist WHERE dealer = ?1 AND phone = ?2 AND car_id = ?3",
                params,
            ),
        )
        .await?;
    }
    Ok(Reply::json(
        200,
        json!({ "success": true, "car_id": change.car_id, "saved": save }),
    ))
}

#[derive(Deserialize)]
struct Car {
    car_id: String,
}

async fn read(req: Request, ctx: RouteContext<()>, tenant: Tenant) -> Result<Reply, ApiError> {
    let session = signed_in(&req, &ctx, &tenant).await?;
    let rows = api::db(&ctx.env)?
        .prepare("SELECT car_id FROM watchlist WHERE dealer = ?1 AND phone = ?2 ORDER BY created_at, car_id")
        .bind(&[tenant.config.dealer.as_str().into(), session.phone.as_str().into()])
        .map_err(internal("bind watchlist list"))?
        .all()
        .await
        .map_err(internal("watchlist list"))?
        .results::<Car>()
        .map_err(internal("watchlist rows"))?;
    let ids: Vec<String> = rows.into_iter().map(|c| c.car_id).collect();
    Ok(Reply::json(
        200,
        json!({ "success": true, "phone_number": session.phone, "car_ids": ids }),
    ))
}
