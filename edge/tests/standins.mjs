// Local stand-ins for the outside services the forms use, speaking their
// documented request, response and signature formats, on 127.0.0.1 with an
// OS-chosen port:
//   - Stripe: POST /v1/checkout/sessions (form-encoded, Bearer secret key,
//     Idempotency-Key) → a Checkout Session; and the webhook Stripe sends
//     when a session completes or expires, signed with Stripe-Signature
//     (t=<unix>,v1=<hex HMAC-SHA256 of "t.payload">).
//   - Cloudflare Turnstile: POST /turnstile/v0/siteverify (form-encoded
//     secret, response, remoteip, idempotency_key) → {success, error-codes,
//     hostname}.
// Used by the edge integration tests and the full-stack e2e.
import { createHmac } from "node:crypto";
import { createServer } from "node:http";

function listen(handler) {
  const server = createServer(handler);
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(server)));
}

function readBody(req) {
  return new Promise((ok) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => ok(body));
  });
}

function send(res, status, body) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

/** The Stripe-Signature header for `payload` (a string) at unix time `t`. */
export function stripeSignature(payload, secret, t = Math.floor(Date.now() / 1000)) {
  const v1 = createHmac("sha256", secret).update(`${t}.${payload}`).digest("hex");
  return `t=${t},v1=${v1}`;
}

/**
 * A Stripe stand-in. `secretKey` is the API key the worker must send;
 * `failNext` makes the next session creation answer 500 (or hang with
 * `hangNext`). `sessions` maps session ids to what was asked; `requests`
 * records every call.
 */
export async function stripeStandIn({ secretKey }) {
  const state = { sessions: new Map(), requests: [], byKey: new Map(), failNext: 0, hangNext: 0, events: 0 };
  const server = await listen(async (req, res) => {
    const body = await readBody(req);
    const entry = { method: req.method, url: req.url, headers: req.headers, body, form: Object.fromEntries(new URLSearchParams(body)) };
    state.requests.push(entry);
    if (req.method === "GET" && req.url.startsWith("/pay/")) {
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end(`<!doctype html><title>Stripe stand-in</title><h1>Pay ${req.url.slice(5)}</h1>`);
      return;
    }
    if (req.method !== "POST" || req.url !== "/v1/checkout/sessions") {
      return send(res, 404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${req.url})` } });
    }
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return send(res, 401, { error: { type: "invalid_request_error", message: "Invalid API Key provided" } });
    }
    if (state.hangNext > 0) {
      state.hangNext--;
      return; // never answers: the worker's deadline must end it
    }
    if (state.failNext > 0) {
      state.failNext--;
      return send(res, 500, { error: { type: "api_error", message: "Something went wrong" } });
    }
    const key = req.headers["idempotency-key"];
    if (key && state.byKey.has(key)) return send(res, 200, state.byKey.get(key));
    const f = entry.form;
    const amount = Number(f["line_items[0][price_data][unit_amount]"]);
    const missing = ["mode", "success_url", "cancel_url", "line_items[0][price_data][currency]", "line_items[0][quantity]"].filter((k) => !f[k]);
    if (missing.length || !Number.isInteger(amount) || amount < 50) {
      return send(res, 400, { error: { type: "invalid_request_error", message: `Bad session: ${missing.join(", ") || "amount"}` } });
    }
    const expiresAt = Number(f.expires_at);
    if (expiresAt && expiresAt - Date.now() / 1000 < 30 * 60 - 5) {
      return send(res, 400, { error: { type: "invalid_request_error", message: "expires_at must be at least 30 minutes from now" } });
    }
    const id = `cs_test_${state.sessions.size + 1}${Math.random().toString(36).slice(2, 8)}`;
    const metadata = {};
    for (const [k, v] of Object.entries(f)) {
      const m = /^metadata\[(.+)\]$/.exec(k);
      if (m) metadata[m[1]] = v;
    }
    const session = {
      id, object: "checkout.session", mode: f.mode, url: `http://127.0.0.1:${server.address().port}/pay/${id}`,
      amount_total: amount, currency: f["line_items[0][price_data][currency]"], customer_email: f.customer_email ?? null,
      client_reference_id: f.client_reference_id ?? null, success_url: f.success_url, cancel_url: f.cancel_url,
      expires_at: expiresAt || null, metadata, payment_status: "unpaid", status: "open",
    };
    state.sessions.set(id, { session, form: f });
    if (key) state.byKey.set(key, session);
    send(res, 200, session);
  });
  const base = `http://127.0.0.1:${server.address().port}`;

  /** An event as Stripe sends it, for session `id`. */
  function event(type, id, overrides = {}) {
    const { session } = state.sessions.get(id) ?? { session: { id, metadata: {} } };
    state.events++;
    return {
      id: `evt_test_${state.events}_${Math.random().toString(36).slice(2, 8)}`, object: "event", type, api_version: "2024-06-20",
      created: Math.floor(Date.now() / 1000), livemode: false,
      data: { object: { ...session, ...overrides } },
    };
  }

  /** POSTs a signed event to the worker's webhook; answers the worker's Response and the event. */
  async function deliver(webhookUrl, evt, secret, { t, signature } = {}) {
    const payload = JSON.stringify(evt);
    const res = await fetch(webhookUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": signature ?? stripeSignature(payload, secret, t) },
      body: payload,
    });
    return { res, event: evt, payload };
  }

  return {
    base,
    state,
    event,
    deliver,
    /** The shopper pays session `id`: Stripe sends checkout.session.completed. */
    complete: (webhookUrl, id, secret) =>
      deliver(webhookUrl, event("checkout.session.completed", id, { status: "complete", payment_status: "paid" }), secret),
    /** Session `id` lapses unpaid: Stripe sends checkout.session.expired. */
    expire: (webhookUrl, id, secret) =>
      deliver(webhookUrl, event("checkout.session.expired", id, { status: "expired", payment_status: "unpaid" }), secret),
    close: () => new Promise((ok) => { server.close(ok); server.closeAllConnections(); }),
  };
}

/**
 * A Turnstile siteverify stand-in. Tokens: `pass:<hostname>[:<anything>]`
 * succeeds for that host; `slow` answers after `slowMs`; anything else fails with
 * `invalid-input-response`; a token seen before fails with
 * `timeout-or-duplicate` (tokens are single-use), unless the call repeats
 * the same idempotency_key.
 */
export async function turnstileStandIn({ secret, slowMs = 8000 }) {
  const seen = new Map();
  const calls = [];
  const timers = new Set();
  const server = await listen(async (req, res) => {
    const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
    calls.push({ url: req.url, headers: req.headers, form });
    if (req.method !== "POST" || req.url !== "/turnstile/v0/siteverify") return send(res, 404, {});
    if (form.secret !== secret) return send(res, 200, { success: false, "error-codes": ["invalid-input-secret"] });
    const token = form.response ?? "";
    if (token === "slow") {
      const timer = setTimeout(() => { timers.delete(timer); if (!res.destroyed) send(res, 200, { success: true }); }, slowMs);
      timers.add(timer);
      return;
    }
    const before = seen.get(token);
    if (before !== undefined && before !== form.idempotency_key) {
      return send(res, 200, { success: false, "error-codes": ["timeout-or-duplicate"] });
    }
    seen.set(token, form.idempotency_key);
    const m = /^pass:([^:]+)(?::.*)?$/.exec(token);
    if (!m) return send(res, 200, { success: false, "error-codes": ["invalid-input-response"] });
    send(res, 200, { success: true, challenge_ts: new Date().toISOString(), hostname: m[1], "error-codes": [], action: "", cdata: "" });
  });
  return {
    url: `http://127.0.0.1:${server.address().port}/turnstile/v0/siteverify`,
    calls,
    close: () => new Promise((ok) => { for (const t of timers) clearTimeout(t); server.close(ok); server.closeAllConnections(); }),
  };
}
