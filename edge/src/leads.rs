//! `POST /api/leads`: lead capture, from the form islands (JSON) and from
//! forms posted without JavaScript (urlencoded; answered with a 303 to the
//! dealer's success page or an HTML page listing the problems).
//!
//! In order: the client's own rate limit (before the body is read), the
//! honeypot (a bot gets a fake success, nothing is stored), validation,
//! a later step's flow token ([`dealer_edge_core::lead_flow`]: `lead_id`
//! alone proves nothing), an idempotent retry, the captcha, the vehicle
//! from the dealer's published stock, and only then the dealer's lead
//! budget: junk turned away by the honeypot or the captcha spends none of
//! it, and a lead whose own captcha passed never counts against it (a
//! later step of a flow counts like any lead). A lead over the budget is
//! not refused: it is stored 'held' and the cron releases held leads at
//! the budget's rate, so a flood can neither close the form nor flood the
//! dealer's CRM (docs/deploy.md, "How leads are protected"). The lead is
//! written to D1 before anything else happens and handed to the delivery
//! queue ([`crate::delivery`]). If that hand-over fails the lead is still
//! stored as 'pending' and the cron re-drive picks it up: a stored lead is
//! never lost.

use dealer_edge_core::form_post;
use dealer_edge_core::html::success_location;
use dealer_edge_core::http;
use dealer_edge_core::lead::{
    clean_user_agent, is_honeypot_hit, same_request, validate_lead, CaptchaCheck, Lead,
    LeadCategory, KEY_REUSED_MESSAGE,
};
use dealer_edge_core::lead_flow::{self, FlowBinding, FlowStep};
use dealer_edge_core::rate_limit::Route;
use dealer_edge_core::turnstile;
use dealer_edge_core::vehicle;
use serde_json::{json, Value};
use worker::{console_error, console_log, D1Database, Env, Request, Response, RouteContext};

use crate::api::{self, invalid, random_bytes, random_uuid, Format, Reply};
use crate::sql::{self, opt, stmt};
use crate::{captcha, cars, delivery, internal, Tenant};
use dealer_edge_core::http::ApiError;

/// What a second post of a flow step answers (its token was used).
const STEP_SENT_MESSAGE: &str =
    "This step of the form was already sent. Please start the form again.";

pub async fn create(req: Request, ctx: RouteContext<()>) -> worker::Result<Response> {
    let content_type = req.headers().get("Content-Type").ok().flatten();
    let format = if form_post::is_form_post(content_type.as_deref()) {
        Format::Form
    } else {
        Format::Json
    };
    api::run_as(
        req,
        ctx,
        Route::Leads,
        false,
        format,
        move |req, ctx, tenant| accept(req, ctx, tenant, format),
    )
    .await
}

/// The answer to a stored (or pretend-stored) lead: its id and the token
/// for the flow's next step, or for a form post the dealer's success page
/// with the category and car type.
fn stored(
    tenant: &Tenant,
    status: u16,
    lead_id: &str,
    flow_token: Option<String>,
    category: &str,
    car_type: Option<&str>,
) -> Reply {
    let body = match flow_token {
        Some(token) => json!({ "lead_id": lead_id, "flow_token": token }),
        None => json!({ "lead_id": lead_id }),
    };
    let mut reply = Reply::json(status, body);
    reply.redirect = Some(success_location(
        &tenant.site_origin(),
        &tenant.config.forms.success_path,
        category,
        car_type,
    ));
    reply
}

/// Who a flow token of this request is bound to.
fn binding<'a>(dealer: &'a str, client: &'a str, lead: &'a Lead) -> FlowBinding<'a> {
    FlowBinding {
        dealer,
        client,
        category: lead.category.as_str(),
    }
}

/// The token for the step after stored lead `lead_id` (none past a flow's
/// last step).
fn next_token(
    key: &[u8],
    binding: FlowBinding<'_>,
    lead_id: &str,
    proven: Option<&FlowStep>,
    captcha_passed: bool,
) -> Option<String> {
    lead_flow::next_step(lead_id, proven, captcha_passed, api::now())
        .map(|step| lead_flow::sign(key, binding, &step))
}

/// new, used or demo: the car type the success page shows.
fn car_type_of(lead: &Lead) -> Option<&str> {
    let from_stock = lead.vehicle.as_ref().and_then(|v| v.car_type.as_deref());
    let claimed = lead
        .claimed_vehicle
        .as_ref()
        .and_then(|c| c.car_type.as_deref());
    from_stock
        .or(claimed)
        .filter(|t| matches!(*t, "new" | "used" | "demo"))
}

/// Checks, validates and stores one lead, then queues its delivery.
async fn accept(
    mut req: Request,
    ctx: RouteContext<()>,
    tenant: Tenant,
    format: Format,
) -> Result<Reply, ApiError> {
    let body = match format {
        Format::Form => api::form_body(&mut req).await?,
        Format::Json => api::json_body(&mut req).await?,
    };
    let dealer = tenant.config.dealer.clone();
    if is_honeypot_hit(&body) {
        count_honeypot(&ctx.env, &dealer, "leads").await;
        let category = body
            .get("category")
            .and_then(Value::as_str)
            .and_then(LeadCategory::parse)
            .map_or("general", LeadCategory::as_str);
        // A token as real ones look, signed with a throwaway key: the bot
        // cannot tell it was caught.
        let id = random_uuid();
        let decoy = lead_flow::next_step(&id, None, false, api::now()).map(|step| {
            lead_flow::sign(
                &random_bytes(),
                FlowBinding {
                    dealer: &dealer,
                    client: "",
                    category,
                },
                &step,
            )
        });
        return Ok(stored(&tenant, 201, &id, decoy, category, None));
    }
    let now = api::now();
    let mut lead = validate_lead(&body, &tenant.config, now).map_err(invalid)?;
    if lead.user_agent.is_none() {
        lead.user_agent = req
            .headers()
            .get("User-Agent")
            .ok()
            .flatten()
            .and_then(|ua| clean_user_agent(&ua));
    }
    let db = api::db(&ctx.env)?;
    let key = api::session_key(&ctx.env)?;
    let client_ip = api::client_address(&req);
    let network = http::client_network(&client_ip);
    let proven = prove_step(&key, binding(&dealer, &network, &lead), &lead, now);
    if proven.is_none() {
        // Judged as a flow's first lead: the captcha if the dealer has one,
        // and not linked to a lead the client could not show it continues.
        lead.previous_lead_id = None;
    }
    let follow_up = proven.as_ref().is_some_and(|step| step.verified);
    let car = cars::lookup(&ctx.env, &dealer, vehicle::car_ref(&lead)).await;
    let ignored = vehicle::fill(&mut lead, &tenant.config, car.as_ref());
    if !ignored.is_empty() {
        console_log!(
            "dealer {dealer}: lead for car {} claimed other facts than the stock (ignored): {}",
            lead.car_id.as_deref().unwrap_or("?"),
            ignored.join("; ")
        );
    }
    // With the captcha on, a retry of a stored lead is answered before the
    // captcha: its token was used up by the first attempt. (Compared once
    // filled, as stored.) Without it the insert below finds the retry by
    // its key: one D1 round trip fewer for every lead.
    let idempotency_key = lead
        .idempotency_key
        .as_ref()
        .filter(|_| tenant.config.forms.captcha.is_some());
    if let Some(idempotency_key) = idempotency_key {
        if let Some((id, payload)) = keyed(&db, &dealer, idempotency_key).await? {
            return if same_request(&payload, &lead) {
                let token = next_token(
                    &key,
                    binding(&dealer, &network, &lead),
                    &id,
                    proven.as_ref(),
                    payload_verified(&payload),
                );
                Ok(stored(
                    &tenant,
                    200,
                    &id,
                    token,
                    lead.category.as_str(),
                    car_type_of(&lead),
                ))
            } else {
                Err(ApiError::new(422, KEY_REUSED_MESSAGE))
            };
        }
    }
    lead.captcha = Some(
        captcha::check(
            &ctx.env,
            &tenant,
            lead.turnstile_token.as_deref(),
            &client_ip,
            follow_up,
        )
        .await?,
    );
    // Past the honeypot and the captcha: only now does the lead count
    // against the dealer's budget, and one whose own token passed never
    // does (a flood of unverified posts cannot hold it back). A later step
    // of a flow counts like any lead: one solved captcha is worth a few
    // leads at most. Over the budget the lead is stored held, not refused;
    // the cron releases held leads at the budget's rate
    // ([`crate::delivery::release_held`]).
    let verified = matches!(lead.captcha, Some(CaptchaCheck::Verified));
    let limits = &tenant.config.rate_limits;
    let held = !verified
        && api::dealer_budget(&ctx.env, &dealer, limits, Route::Leads)
            .await
            .is_some();
    // Step-up under attack: the budget is spent, so a form that can show
    // the platform's widget is asked to (403 with its site key; nothing
    // stored, the refused call counts nowhere). A lead that passes it is
    // verified: delivered at once, ahead of the held ones. A form post
    // without JavaScript, or a form whose widget could not load, is held
    // as before: never lost.
    if held
        && tenant.config.forms.captcha.is_none()
        && format == Format::Json
        && !lead.captcha_unavailable
    {
        if let Some(site_key) = captcha::step_up_key(&ctx.env) {
            return Err(turnstile::step_up_refusal(&site_key));
        }
    }
    let stored_as = store(&db, &dealer, &lead, proven.as_ref(), held).await;
    if !verified && !held && !matches!(stored_as, Ok((201, _))) {
        // A retry of a stored lead (or a failed insert) sends nothing new.
        api::return_dealer_budget(&ctx.env, &dealer, limits, Route::Leads).await;
    }
    let (status, lead_id) = stored_as?;
    if held && status == 201 {
        console_log!("dealer {dealer}: lead {lead_id} held (over the dealer's lead budget)");
    } else if status == 201 {
        queue(&ctx.env, &lead_id).await;
    }
    let token = next_token(
        &key,
        binding(&dealer, &network, &lead),
        &lead_id,
        proven.as_ref(),
        verified,
    );
    Ok(stored(
        &tenant,
        status,
        &lead_id,
        token,
        lead.category.as_str(),
        car_type_of(&lead),
    ))
}

/// The flow step a later step's token admits; `None` (logged) for a post
/// that names a lead without a token signed for this client and form, or
/// names none.
fn prove_step(key: &[u8], binding: FlowBinding<'_>, lead: &Lead, now: u64) -> Option<FlowStep> {
    let first = lead.previous_lead_id.as_deref()?;
    let Some(token) = lead.flow_token.as_deref() else {
        console_log!(
            "dealer {}: a lead named lead {first} without a flow token; judged as a first lead",
            binding.dealer
        );
        return None;
    };
    lead_flow::verify(key, binding, first, token, now)
        .map_err(|why| {
            console_log!(
                "dealer {}: flow token for lead {first} refused ({}); judged as a first lead",
                binding.dealer,
                why.as_str()
            );
        })
        .ok()
}

/// Whether a stored lead's own captcha passed (its payload's `captcha`).
fn payload_verified(payload: &str) -> bool {
    serde_json::from_str::<Value>(payload)
        .ok()
        .and_then(|v| v.get("captcha").cloned())
        .is_some_and(|c| c == json!("verified"))
}

/// Hands a stored lead to the delivery queue; a failure only delays it
/// (the cron re-drive queues pending leads).
pub async fn queue(env: &Env, lead_id: &str) {
    if let Err(e) = delivery::enqueue(env, lead_id).await {
        console_error!("queueing lead {lead_id} failed (cron will retry): {e}");
    }
}

/// Counts a honeypot hit (per dealer, day and route); a failure is only
/// logged.
pub async fn count_honeypot(env: &Env, dealer: &str, route: &str) {
    let Ok(db) = env.d1("DB") else { return };
    // Failures are logged by the helper; a lost count loses no lead.
    let _ = sql::run(
        &db,
        "honeypot count",
        stmt(
            "INSERT INTO honeypot_hits (dealer, day, route, hits) VALUES (?1, date('now'), ?2, 1) \
             ON CONFLICT (dealer, day, route) DO UPDATE SET hits = hits + 1",
            vec![dealer.into(), route.into()],
        ),
    )
    .await;
}

/// The dealer's lead stored under idempotency key `key`: (id, payload).
async fn keyed(
    db: &D1Database,
    dealer: &str,
    key: &str,
) -> Result<Option<(String, String)>, ApiError> {
    let row = sql::first(
        db,
        "look up idempotent lead",
        stmt(
            "SELECT id, payload FROM leads WHERE dealer = ?1 AND idempotency_key = ?2",
            vec![dealer.into(), key.into()],
        ),
    )
    .await?;
    Ok(row.and_then(|r| {
        Some((
            sql::text(&r, "id")?.to_string(),
            sql::text(&r, "payload")?.to_string(),
        ))
    }))
}

/// Inserts the lead. A retry with the same idempotency key (per dealer)
/// inserts nothing: the same request gets the first attempt's id with 200
/// instead of 201; another request under that key gets 422, as the IETF
/// Idempotency-Key draft asks (a reused key must not silently answer for a
/// different enquiry). A later step of a flow is stored once: its step
/// sent again under another key is 409.
///
/// `held`: over the dealer's budget, stored as 'held' for the cron to
/// release at the budget's rate instead of 'pending'.
pub async fn store(
    db: &D1Database,
    dealer: &str,
    lead: &Lead,
    step: Option<&FlowStep>,
    held: bool,
) -> Result<(u16, String), ApiError> {
    let payload = serde_json::to_string(lead).map_err(internal("lead payload JSON"))?;
    // No conflict target: a key conflict and a flow step's second post
    // both insert nothing; the look-up below tells which it was.
    let inserted = sql::first(
        db,
        "insert lead",
        stmt(
            "INSERT INTO leads (id, dealer, category, payload, idempotency_key, subcategory, car_id, delivery_status, flow_of, flow_step) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) \
             ON CONFLICT DO NOTHING RETURNING id",
            vec![
                random_uuid().into(),
                dealer.into(),
                lead.category.as_str().into(),
                payload.into(),
                opt(lead.idempotency_key.as_deref()),
                opt(lead.subcategory.as_deref()),
                opt(lead.car_id.as_deref()),
                if held { "held" } else { "pending" }.into(),
                opt(step.map(|s| s.first_lead.as_str())),
                step.map_or(worker::wasm_bindgen::JsValue::NULL, |s| sql::int(u64::from(s.step))),
            ],
        ),
    )
    .await?;
    if let Some(id) = inserted.as_ref().and_then(|r| sql::text(r, "id")) {
        return Ok((201, id.to_string()));
    }
    if let Some(key) = lead.idempotency_key.as_deref() {
        match keyed(db, dealer, key).await? {
            Some((id, payload)) if same_request(&payload, lead) => return Ok((200, id)),
            Some(_) => return Err(ApiError::new(422, KEY_REUSED_MESSAGE)),
            None => {}
        }
    }
    // Not the key (NULL keys never conflict): the flow step was stored.
    if step.is_some() {
        return Err(ApiError::new(409, STEP_SENT_MESSAGE));
    }
    Err(internal("lead insert")("no row, no key and no flow step"))
}
