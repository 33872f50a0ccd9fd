//! The dealer's published stock in KV, one car at a time: `car:<dealer>:<slug>`
//! (an `EdgeCar`) and `car-id:<dealer>:<id>` (its slug). Written by
//! `dealergen build` (edge-kv.json); read by leads (vehicle filling),
//! checkout and the car status.

use dealer_edge_core::http::ApiError;
use dealer_edge_core::vehicle::CarRef;
use dealer_rules::edge_config::{car_id_key, car_key, EdgeCar};
use dealer_rules::slug::is_car_slug;
use worker::{console_error, Env};

use crate::{internal, published};

/// The car with page slug `slug`, `None` when the stock has none. A KV
/// value that does not read as a car is logged and counts as none.
pub async fn by_slug(env: &Env, dealer: &str, slug: &str) -> Result<Option<EdgeCar>, ApiError> {
    if !is_car_slug(slug) {
        return Ok(None);
    }
    let Some(text) = published::text(env, &car_key(dealer, slug))
        .await
        .map_err(internal("KV car lookup"))?
    else {
        return Ok(None);
    };
    match serde_json::from_str::<EdgeCar>(&text) {
        Ok(car) => Ok(Some(car)),
        Err(e) => {
            console_error!("dealer {dealer}: KV car {slug} is unreadable: {e}");
            Ok(None)
        }
    }
}

/// The car a lead names (by slug, else by id), `None` when it names none
/// or one the stock does not have. Storage trouble is logged and also
/// `None`: the lead is stored without the stock's facts rather than lost.
pub async fn lookup(env: &Env, dealer: &str, reference: Option<CarRef>) -> Option<EdgeCar> {
    let slug = match reference? {
        CarRef::Slug(slug) => slug,
        CarRef::Id(id) => {
            if id.is_empty() || id.len() > 64 || id.chars().any(char::is_control) {
                return None;
            }
            match published::text(env, &car_id_key(dealer, &id)).await {
                Ok(Some(slug)) => slug,
                Ok(None) => return None,
                Err(e) => {
                    console_error!("dealer {dealer}: KV car id {id}: {e}");
                    return None;
                }
            }
        }
    };
    by_slug(env, dealer, &slug).await.unwrap_or_default()
}
