//! Online reservation: `POST /api/checkout/hold` (hold the car, start the
//! Stripe Checkout payment), `POST /api/checkout/webhook` (Stripe's signed
//! events: paid → reserved and a lead to the dealer; expired → released),
//! `GET /api/cars/{slug}/status` (the Reserved badge, without waiting for
//! a rebuild) and the cron's release of lapsed holds. The rules and the
//! hold's life are in `dealer_edge_core::checkout`.

use dealer_edge_core::checkout::{
    car_status, deposit_cents, read_event, read_session, refusal, reservation_lead, return_url,
    stripe_session_form, validate_hold, verified_for_unpaid_hold, verify_signature, EventKind,
    HoldDetails, PaymentEvent, ALREADY_RESERVED, BEING_RESERVED, INSERT_HOLD, NOT_OFFERED,
    NO_SUCH_CAR, ONE_HOLD_AT_A_TIME, PAYMENT_UNAVAILABLE, PAY_WINDOW_SECS, STRIPE_API_BASE,
    UNPAID_HOLDS_FULL, UNPAID_HOLDS_MAX, WEBHOOK_GRACE_SECS,
};
use dealer_edge_core::http::{self, ApiError};
use dealer_edge_core::lead::is_honeypot_hit;
use dealer_edge_core::lead_parts::iso8601;
use dealer_edge_core::rate_limit::Route;
use dealer_rules::edge_config::{dealer_key, EdgeConfig};
use dealer_rules::slug::is_car_slug;
use serde_json::{json, Value};
use worker::{
    console_error, console_log, D1Database, Env, Fetch, Headers, Method, Request, RequestInit,
    Response, RouteContext,
};

use crate::api::{self, invalid, random_uuid, Reply};
use crate::outbound::{self, Call};
use crate::sql::{self, int, number, stmt, text};
use crate::{
    auth, captcha, cars, error_response, internal, json_response, leads, parse_config, published,
    Tenant,
};

/// Largest webhook body read: a Checkout Session event is a few KB.
const WEBHOOK_BODY_LIMIT: usize = 256 * 1024;

pub async fn hold(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, Route::Checkout, false, create_hold).await
}

pub async fn status(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    api::run(req, ctx, Route::CarStatus, true, car_status_of).await
}

fn hold_reply(status: u16, id: &str, url: &str, state: &str, expires_at: u64, cents: u64) -> Reply {
    Reply::json(
        status,
        json!({
            "hold_id": id, "checkout_url": url, "state": state,
            "expires_at": iso8601(expires_at), "amount": cents, "currency": "aud",
        }),
    )
}

async fn create_hold(
    mut req: Request,
    ctx: RouteContext<()>,
    tenant: Tenant,
) -> Result<Reply, ApiError> {
    let config = &tenant.config;
    let dealer = config.dealer.as_str();
    if !config.checkout.enabled {
        return Err(ApiError::new(404, NOT_OFFERED));
    }
    let body = api::json_body(&mut req).await?;
    let origin = tenant.site_origin();
    if is_honeypot_hit(&body) {
        leads::count_honeypot(&ctx.env, dealer, "checkout").await;
        let slug = body
            .get("car_slug")
            .and_then(Value::as_str)
            .filter(|s| is_car_slug(s))
            .unwrap_or("x");
        let id = random_uuid();
        let url = return_url(&origin, &config.checkout.path, slug, &id, "cancelled");
        return Ok(hold_reply(
            201,
            &id,
            &url,
            "pending",
            api::now() + PAY_WINDOW_SECS,
            0,
        ));
    }
    let request = validate_hold(&body, config).map_err(invalid)?;
    let car = cars::by_slug(&ctx.env, dealer, &request.car_slug)
        .await?
        .ok_or_else(|| ApiError::new(404, NO_SUCH_CAR))?;
    if let Some((status, message)) = refusal(config, &car) {
        return Err(ApiError::new(status, message));
    }
    let db = api::db(&ctx.env)?;
    let now = api::now();

    // The same shopper asking again (a second tab, back from the payment
    // page) gets their pending hold back rather than a refusal.
    let mine = sql::first(
        &db,
        "own hold",
        stmt(
            "SELECT id, checkout_url, expires_at, amount_cents FROM checkout_holds \
             WHERE dealer = ?1 AND car_slug = ?2 AND state = 'pending' AND expires_at > ?3 AND email = ?4",
            vec![dealer.into(), car.slug.as_str().into(), int(now), request.contact.email.as_str().into()],
        ),
    )
    .await?;
    if let Some(row) = mine {
        if let (Some(id), Some(url)) = (text(&row, "id"), text(&row, "checkout_url")) {
            let expires = number(&row, "expires_at").unwrap_or(now);
            let cents = number(&row, "amount_cents").unwrap_or(0);
            return Ok(hold_reply(200, id, url, "pending", expires, cents));
        }
    }

    let cents = deposit_cents(&car);
    if cents == 0 {
        let session = auth::session(&req, &ctx.env, &tenant).await?;
        verified_for_unpaid_hold(
            session.as_ref().map(|s| s.phone.as_str()),
            &request.contact.phone,
        )?;
    }

    captcha::check(
        &ctx.env,
        &tenant,
        request.turnstile_token.as_deref(),
        &api::client_address(&req),
        false,
    )
    .await?;

    let client = api::client_of(&req, &ctx.env, &tenant)?;
    let details = HoldDetails::new(&request, &car);
    let hold_secs = u64::from(config.checkout.hold_hours) * 3600;
    let (state, expires_at) = if cents == 0 {
        ("reserved", now + hold_secs)
    } else {
        ("pending", now + PAY_WINDOW_SECS + WEBHOOK_GRACE_SECS)
    };
    let id = random_uuid();
    let contact = serde_json::to_string(&details).map_err(internal("hold JSON"))?;
    // One transaction: lapse this car's stale holds, then insert unless an
    // active hold exists (the unique index on active holds per car decides
    // between two shoppers at the same moment).
    let results = sql::batch(
        &db,
        "hold transaction",
        vec![
            stmt(
                "UPDATE checkout_holds SET state = CASE state WHEN 'pending' THEN 'expired' ELSE 'ended' END \
                 WHERE dealer = ?1 AND car_slug = ?2 AND state IN ('pending', 'reserved') AND expires_at <= ?3",
                vec![dealer.into(), car.slug.as_str().into(), int(now)],
            ),
            stmt(
                INSERT_HOLD,
                vec![
                    id.as_str().into(),
                    dealer.into(),
                    car.slug.as_str().into(),
                    car.id.as_str().into(),
                    state.into(),
                    request.contact.email.as_str().into(),
                    contact.into(),
                    int(cents),
                    int(now),
                    int(expires_at),
                    request.contact.phone.as_str().into(),
                    client.as_str().into(),
                    int(UNPAID_HOLDS_MAX),
                ],
            ),
        ],
    )
    .await?;
    if results.get(1).is_none_or(Vec::is_empty) {
        return Err(conflict(&db, dealer, &car.slug, &request.contact.phone, &client, now).await);
    }

    if cents == 0 {
        // No deposit: reserved now, the dealer hears of it at once.
        send_reservation_lead(&ctx.env, &db, config, &id, &details, expires_at, 0, false).await?;
        let url = return_url(&origin, &config.checkout.path, &car.slug, &id, "success");
        return Ok(hold_reply(201, &id, &url, "reserved", expires_at, 0));
    }

    match stripe_session(&ctx.env, config, &car, &details, &id, &origin, now).await {
        Ok((session_id, url)) => {
            sql::run(
                &db,
                "hold session",
                stmt(
                    "UPDATE checkout_holds SET session_id = ?2, checkout_url = ?3 WHERE id = ?1",
                    vec![id.as_str().into(), session_id.into(), url.as_str().into()],
                ),
            )
            .await?;
            Ok(hold_reply(201, &id, &url, "pending", expires_at, cents))
        }
        Err(e) => {
            console_error!(
                "dealer {dealer}: payment session for hold {id} failed: {e}; hold released"
            );
            sql::run(
                &db,
                "release hold",
                stmt(
                    "UPDATE checkout_holds SET state = 'released' WHERE id = ?1 AND state = 'pending'",
                    vec![id.as_str().into()],
                ),
            )
            .await?;
            Err(ApiError::new(503, PAYMENT_UNAVAILABLE))
        }
    }
}

/// Why the insert stored nothing: the car is reserved or someone is
/// paying for it, the shopper holds another car, or the dealer's holds
/// without a deposit are all taken.
async fn conflict(
    db: &D1Database,
    dealer: &str,
    slug: &str,
    phone: &str,
    client: &str,
    now: u64,
) -> ApiError {
    let row = sql::first(
        db,
        "active hold",
        stmt(
            "SELECT state, car_slug = ?2 AS this_car FROM checkout_holds WHERE dealer = ?1 \
             AND state IN ('pending', 'reserved') AND expires_at > ?3 \
             AND (car_slug = ?2 OR phone = ?4 OR client = ?5) ORDER BY this_car DESC LIMIT 1",
            vec![
                dealer.into(),
                slug.into(),
                int(now),
                phone.into(),
                client.into(),
            ],
        ),
    )
    .await
    .ok()
    .flatten();
    match row {
        None => ApiError::new(409, UNPAID_HOLDS_FULL),
        Some(r) if number(&r, "this_car") != Some(1) => ApiError::new(409, ONE_HOLD_AT_A_TIME),
        Some(r) if text(&r, "state") == Some("pending") => ApiError::new(409, BEING_RESERVED),
        Some(_) => ApiError::new(409, ALREADY_RESERVED),
    }
}

/// Creates the Stripe Checkout Session: (session id, hosted page URL).
async fn stripe_session(
    env: &Env,
    config: &EdgeConfig,
    car: &dealer_rules::edge_config::EdgeCar,
    details: &HoldDetails,
    hold_id: &str,
    origin: &str,
    now: u64,
) -> Result<(String, String), String> {
    let payment = config
        .checkout
        .payment
        .as_ref()
        .ok_or("no payment account")?;
    let key = api::secret(env, &payment.secret_name)
        .ok_or_else(|| format!("worker secret {} is not set", payment.secret_name))?;
    let base = api::test_endpoint(env, "STRIPE_API_BASE").unwrap_or_else(|| STRIPE_API_BASE.into());
    let body = stripe_session_form(config, car, details, hold_id, origin, now);
    let headers = Headers::new();
    let set = |k: &str, v: &str| headers.set(k, v).map_err(|e| e.to_string());
    set("Content-Type", "application/x-www-form-urlencoded")?;
    set("Authorization", &format!("Bearer {key}"))?;
    // A retried creation for the same hold makes no second session.
    set("Idempotency-Key", &format!("hold-{hold_id}"))?;
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_headers(headers)
        .with_body(Some(body.into()));
    let request = Request::new_with_init(&format!("{base}/v1/checkout/sessions"), &init)
        .map_err(|e| e.to_string())?;
    let answer = outbound::within(Call::Payment, |signal| async move {
        let mut res = Fetch::Request(request)
            .send_with_signal(&signal)
            .await
            .map_err(|e| format!("unreachable: {e}"))?;
        let status = res.status_code();
        let value = res.json::<Value>().await.unwrap_or(Value::Null);
        if (200..300).contains(&status) {
            Ok(value)
        } else {
            Err(format!(
                "answered {status}: {}",
                read_session(&value).err().unwrap_or_default()
            ))
        }
    })
    .await
    .map_err(|e| e.to_string())??;
    read_session(&answer)
}

/// Stores and queues the reservation lead (idempotent per hold) and links
/// it to the hold.
#[allow(clippy::too_many_arguments)]
async fn send_reservation_lead(
    env: &Env,
    db: &D1Database,
    config: &EdgeConfig,
    hold_id: &str,
    details: &HoldDetails,
    reserved_until: u64,
    paid_cents: u64,
    refund_needed: bool,
) -> Result<(), ApiError> {
    let lead = reservation_lead(
        details,
        config,
        hold_id,
        reserved_until,
        paid_cents,
        refund_needed,
    );
    let (status, lead_id) = leads::store(db, &config.dealer, &lead, None, false).await?;
    if status == 201 {
        leads::queue(env, &lead_id).await;
    }
    sql::run(
        db,
        "hold lead",
        stmt(
            "UPDATE checkout_holds SET lead_id = ?2 WHERE id = ?1",
            vec![hold_id.into(), lead_id.into()],
        ),
    )
    .await
}

async fn car_status_of(
    _req: Request,
    ctx: RouteContext<()>,
    tenant: Tenant,
) -> Result<Reply, ApiError> {
    let slug = ctx.param("slug").cloned().unwrap_or_default();
    let dealer = tenant.config.dealer.as_str();
    let car = cars::by_slug(&ctx.env, dealer, &slug)
        .await?
        .ok_or_else(|| ApiError::new(404, NO_SUCH_CAR))?;
    let now = api::now();
    let db = api::db(&ctx.env)?;
    let row = sql::first(
        &db,
        "car status",
        stmt(
            "SELECT state, expires_at FROM checkout_holds WHERE dealer = ?1 AND car_slug = ?2 \
             AND state IN ('pending', 'reserved') AND expires_at > ?3",
            vec![dealer.into(), slug.as_str().into(), int(now)],
        ),
    )
    .await?;
    let active = row
        .as_ref()
        .and_then(|r| Some((text(r, "state")?, number(r, "expires_at")?)));
    let status = car_status(&car.slug, car.reserved, active, now);
    let mut reply = Reply::json(
        200,
        serde_json::to_value(&status).map_err(internal("status JSON"))?,
    );
    // Seconds-fresh is fresh enough for a badge, and spares the database
    // the car page's traffic.
    reply.cache = Some("public, max-age=5");
    Ok(reply)
}

/// `POST /api/checkout/webhook`: Stripe's events. No Origin: the dealer is
/// the session's metadata, and only its own signing secret is accepted.
pub async fn webhook(mut req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    match handle_webhook(&mut req, &ctx.env).await {
        Ok(body) => json_response(200, &body, None),
        Err(error) => error_response(&error, None),
    }
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::new(400, message)
}

async fn handle_webhook(req: &mut Request, env: &Env) -> Result<Value, ApiError> {
    let bytes = api::body_bytes(req, WEBHOOK_BODY_LIMIT).await?;
    let event_json = http::parse_json(&bytes)?;
    let event = read_event(&event_json).map_err(bad)?;
    let dealer = event
        .dealer
        .clone()
        .filter(|d| is_car_slug(d) && d.len() <= 64)
        .ok_or_else(|| bad("The event's session names no dealer (metadata.dealer)."))?;
    let config = published::text(env, &dealer_key(&dealer))
        .await
        .map_err(internal("KV dealer lookup"))?
        .ok_or_else(|| bad("Unknown dealer."))?;
    let config = parse_config(&dealer, &config)?;
    let payment = config
        .checkout
        .payment
        .clone()
        .ok_or_else(|| bad("This dealer takes no payments."))?;
    let tenant = Tenant {
        origin: String::new(),
        config,
    };
    api::limit(req, env, &tenant, Route::PaymentWebhook).await?;
    let Some(secret) = api::secret(env, &payment.webhook_secret_name) else {
        // Ours to fix; Stripe retries for days, so nothing is lost.
        console_error!(
            "dealer {dealer}: webhook secret {} is not set; event {} refused",
            payment.webhook_secret_name,
            event.id
        );
        return Err(ApiError::new(
            503,
            "Payment notifications are not set up for this dealer yet.",
        ));
    };
    let header = req
        .headers()
        .get("Stripe-Signature")
        .ok()
        .flatten()
        .unwrap_or_default();
    verify_signature(&header, &bytes, &secret, api::now()).map_err(|e| bad(e.to_string()))?;

    let db = api::db(env)?;
    let seen = sql::first(
        &db,
        "event lookup",
        stmt(
            "SELECT event_id FROM payment_events WHERE dealer = ?1 AND event_id = ?2",
            vec![dealer.as_str().into(), event.id.as_str().into()],
        ),
    )
    .await?;
    if seen.is_some() {
        return Ok(json!({ "received": true, "duplicate": true }));
    }
    let outcome = match event.kind {
        EventKind::Paid => paid(env, &db, &tenant.config, &event).await?,
        EventKind::Expired => expired(&db, &dealer, &event).await?,
        EventKind::Other => "ignored",
    };
    // Recorded last: an event whose handling failed is handled again on
    // Stripe's retry (each step above is idempotent).
    sql::run(
        &db,
        "event record",
        stmt(
            "INSERT INTO payment_events (dealer, event_id, type, outcome, received_at) VALUES (?1, ?2, ?3, ?4, ?5) \
             ON CONFLICT DO NOTHING",
            vec![
                dealer.as_str().into(),
                event.id.as_str().into(),
                event.kind_name.as_str().into(),
                outcome.into(),
                int(api::now()),
            ],
        ),
    )
    .await?;
    console_log!(
        "dealer {dealer}: payment event {} ({}): {outcome}",
        event.id,
        event.kind_name
    );
    Ok(json!({ "received": true, "outcome": outcome }))
}

/// The deposit is paid: the hold becomes a reservation for hold_hours (a
/// lapsed hold too, when nobody else holds the car meanwhile; otherwise
/// the dealer is asked to refund), and the dealer gets the lead.
async fn paid(
    env: &Env,
    db: &D1Database,
    config: &EdgeConfig,
    event: &PaymentEvent,
) -> Result<&'static str, ApiError> {
    let dealer = config.dealer.as_str();
    let Some(hold_id) = event.hold_id.as_deref() else {
        return Ok("ignored: no hold id");
    };
    let Some(hold) = sql::first(
        db,
        "hold lookup",
        stmt(
            "SELECT state, contact, lead_id, expires_at FROM checkout_holds WHERE id = ?1 AND dealer = ?2",
            vec![hold_id.into(), dealer.into()],
        ),
    )
    .await?
    else {
        console_error!("dealer {dealer}: paid event {} for unknown hold {hold_id}", event.id);
        return Ok("ignored: unknown hold");
    };
    let details: HoldDetails = serde_json::from_str(text(&hold, "contact").unwrap_or(""))
        .map_err(internal("hold details"))?;
    let now = api::now();
    let until = now + u64::from(config.checkout.hold_hours) * 3600;
    let paid_cents = event.amount_total.unwrap_or(0);
    let (outcome, refund, reserved_until) = match text(&hold, "state").unwrap_or("") {
        "pending" | "expired" | "released" => {
            // One transaction: lapse the car's other stale holds (the cron
            // may not have run yet), then reserve this one unless another
            // shopper holds the car now.
            let results = sql::batch(
                db,
                "reserve",
                vec![
                    stmt(
                        "UPDATE checkout_holds SET state = CASE state WHEN 'pending' THEN 'expired' ELSE 'ended' END \
                         WHERE dealer = ?1 AND car_slug = ?2 AND id <> ?3 AND state IN ('pending', 'reserved') AND expires_at <= ?4",
                        vec![dealer.into(), details.car.slug.as_str().into(), hold_id.into(), int(now)],
                    ),
                    stmt(
                        "UPDATE checkout_holds SET state = 'reserved', paid_at = ?2, expires_at = ?3 \
                         WHERE id = ?1 AND state IN ('pending', 'expired', 'released') AND NOT EXISTS \
                         (SELECT 1 FROM checkout_holds o WHERE o.dealer = checkout_holds.dealer \
                         AND o.car_slug = checkout_holds.car_slug AND o.id <> checkout_holds.id \
                         AND o.state IN ('pending', 'reserved')) RETURNING id",
                        vec![hold_id.into(), int(now), int(until)],
                    ),
                ],
            )
            .await?;
            if results.get(1).is_some_and(|rows| !rows.is_empty()) {
                ("reserved", false, until)
            } else {
                sql::run(
                    db,
                    "refund",
                    stmt(
                        "UPDATE checkout_holds SET state = 'refund_needed', paid_at = ?2 WHERE id = ?1",
                        vec![hold_id.into(), int(now)],
                    ),
                )
                .await?;
                ("refund needed: the car is held by someone else", true, now)
            }
        }
        // A retried event: the reservation stands; make sure the lead went.
        "reserved" => (
            "already reserved",
            false,
            number(&hold, "expires_at").unwrap_or(until),
        ),
        "refund_needed" => ("refund already needed", true, now),
        _ => return Ok("ignored: hold ended"),
    };
    if text(&hold, "lead_id").is_none() {
        send_reservation_lead(
            env,
            db,
            config,
            hold_id,
            &details,
            reserved_until,
            paid_cents,
            refund,
        )
        .await?;
    }
    Ok(outcome)
}

/// The session expired unpaid: the car is free again.
async fn expired(
    db: &D1Database,
    dealer: &str,
    event: &PaymentEvent,
) -> Result<&'static str, ApiError> {
    let Some(hold_id) = event.hold_id.as_deref() else {
        return Ok("ignored: no hold id");
    };
    let released = sql::first(
        db,
        "release",
        stmt(
            "UPDATE checkout_holds SET state = 'released' WHERE id = ?1 AND dealer = ?2 AND state = 'pending' RETURNING id",
            vec![hold_id.into(), dealer.into()],
        ),
    )
    .await?;
    Ok(if released.is_some() {
        "released"
    } else {
        "ignored: not pending"
    })
}

/// Cron: unpaid holds past their payment window become 'expired' and
/// reservations past their hold_hours 'ended'; either way the car is free.
pub async fn release_lapsed(env: &Env) {
    let Ok(db) = env.d1("DB") else { return };
    let now = api::now();
    let released = sql::all(
        &db,
        "cron: release holds",
        stmt(
            "UPDATE checkout_holds SET state = CASE state WHEN 'pending' THEN 'expired' ELSE 'ended' END \
             WHERE state IN ('pending', 'reserved') AND expires_at <= ?1 RETURNING id",
            vec![int(now)],
        ),
    )
    .await;
    if let Ok(rows) = released.as_ref() {
        if !rows.is_empty() {
            console_log!("cron: released {} lapsed hold(s)", rows.len());
        }
    }
    // Event ids are kept for 30 days (Stripe retries for 3), honeypot
    // counts for a year. Failures are logged by the helper.
    for (what, sql) in [
        (
            "cron: old payment events",
            "DELETE FROM payment_events WHERE received_at < ?1 - 30 * 86400",
        ),
        (
            "cron: old honeypot counts",
            "DELETE FROM honeypot_hits WHERE day < date(?1, 'unixepoch', '-365 days')",
        ),
    ] {
        let _ = sql::run(&db, what, stmt(sql, vec![int(now)])).await;
    }
}
