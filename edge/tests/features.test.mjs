// End-to-end tests of the worker's calls besides lead capture: finance
// quotes, views, phone reveal, sign-in and the watchlist, lead delivery from
// the queue (webhook exactly once after being down, ADF through the mail
// relay), valuation, analytics, and tenant isolation between two dealers.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { carsKv, edgeConfig, kvFor, receiver, sqlString, startWorker, stockCar, stockKv, within } from "./harness.mjs";

const ALPHA = "https://alpha-motors.example";
const BETA = "https://beta-cars.example";
const GAMMA = "https://gamma-autos.example";
const DELTA = "https://delta-auto.example";

let w, hook, mail, quotes, slowHook, slowQuotes;
const HOOK_DOWN_FOR = 2; // the webhook answers 503 to the first two deliveries
// Outbound deadlines (edge/src/outbound.rs) and how long the slow receivers hang.
const QUOTE_DEADLINE_MS = 3_000;
const DELIVERY_DEADLINE_MS = 10_000;
const HANG_MS = 20_000;

before(async () => {
  hook = await receiver((_req, n) => (n < HOOK_DOWN_FOR ? 503 : 200));
  mail = await receiver(() => 202);
  // Beta's quote service: figures for most prices; without a comparison
  // rate for $31,313; a 500 for $32,323.
  quotes = await receiver((req) => {
    const price = req.json?.purchasePrice;
    req.reply = JSON.stringify(
      price === 31313 ? { weeklyRepaymentAmount: 99.2, advertisedRate: 6.66 } : { weeklyRepaymentAmount: 99.2, comparisonRate: 7.77, advertisedRate: 6.66 },
    );
    if (price === 32323) return 500;
    return req.headers.authorization === "Bearer beta-upstream-key" ? 200 : 401;
  });
  const alpha = edgeConfig("alpha", "Alpha Motors", [ALPHA], [
    { id: "alpha-perth", name: "Alpha Perth", phone: "08 9123 4567", lead_email: "perth@alpha.example" },
    { id: "alpha-freo", name: "Alpha Fremantle", phone: "08 9335 0000", lead_email: null },
  ], { dealership_id: 77, analytics: { enabled: true }, trade_in: { save_valuation: true } });
  alpha.leads.webhook_url = `${hook.url}/hook`;
  const beta = edgeConfig("beta", "Beta Cars", [BETA], [
    { id: "beta-sydney", name: "Beta Sydney", phone: "02 9876 5432", lead_email: null },
  ], { finance: { quote_provider: { url: `${quotes.url}/quote`, secret_name: "BETA_QUOTE_KEY" } }, trade_in: { save_valuation: true } });
  // Delta's webhook hangs on its first delivery; its quote provider always hangs.
  slowHook = await receiver((req, n) => {
    if (n === 0) req.delayMs = HANG_MS;
    return 200;
  });
  slowQuotes = await receiver((req) => {
    req.delayMs = HANG_MS;
    req.reply = JSON.stringify({ weeklyRepaymentAmount: 11.1, comparisonRate: 1.1, advertisedRate: 1.1 });
    return 200;
  });
  const delta = edgeConfig("delta", "Delta Auto", [DELTA], [
    { id: "delta-hq", name: "Delta HQ", phone: "08 8000 0000", lead_email: null },
  ], { finance: { quote_provider: { url: `${slowQuotes.url}/quote`, secret_name: "DELTA_QUOTE_KEY" } } });
  delta.leads = { email: null, webhook_url: `${slowHook.url}/hook` };
  const gamma = edgeConfig("gamma", "Gamma Autos", [GAMMA], [
    { id: "gamma-hq", name: "Gamma HQ", phone: "07 3000 0000", lead_email: null },
  ], { features: { watchlist: false, phone_reveal: false } });
  w = await startWorker({
    kvSeed: [
      ...kvFor(alpha, beta, gamma, delta),
      // Alpha's stock: the hilux (views) and car 99 (the delivered test-drive lead).
      ...stockKv("alpha", [stockCar("alpha", "2021-toyota-hilux-123"), stockCar("alpha", "2021-toyota-hilux-99")]),
      carsKv("beta", ["2021-toyota-hilux-123"]),
    ],
    vars: {
      SESSION_SECRET: "test-session-secret",
      MAIL_RELAY_URL: `${mail.url}/mail`,
      BETA_QUOTE_KEY: "beta-upstream-key",
      DELTA_QUOTE_KEY: "delta-upstream-key",
    },
  });
});

after(async () => {
  await w?.stop();
  await Promise.all([hook?.close(), mail?.close(), quotes?.close(), slowHook?.close(), slowQuotes?.close()]);
});

function call(path, { origin, body, method = body === undefined ? "GET" : "POST", cookie, raw } = {}) {
  const headers = {};
  if (origin) headers.Origin = origin;
  if (cookie) headers.Cookie = cookie;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return fetch(`${w.base}${path}`, { method, headers, body: body === undefined ? undefined : raw ? body : JSON.stringify(body) });
}

async function json(res) {
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/, `JSON answer (status ${res.status})`);
  return res.json();
}

describe("finance quotes", () => {
  const spec = (purchasePrice) => ({ purchasePrice, loanTerm: 5, selfAssessedCreditScore: "GREAT", year: 2021, vin: "", nvic: "", whoIsHelping: "" });

  test("without a quote service: 404, no quote made up", async () => {
    const res = await call("/api/youx/quote", { origin: ALPHA, body: spec(30000) });
    assert.equal(res.status, 404);
    assert.equal(res.headers.get("access-control-allow-origin"), ALPHA);
    assert.deepEqual(await json(res), { error: "No quote service for this dealer." });
  });

  test("bad input is a 400 with per-field messages", async () => {
    const res = await call("/api/youx/quote", { origin: BETA, body: { purchasePrice: 0, loanTerm: 9 } });
    assert.equal(res.status, 400);
    const body = await json(res);
    assert.equal(body.fields.purchasePrice, "Must be above 0.");
    assert.match(body.fields.loanTerm, /1 to 7 years/);
    assert.equal(quotes.got.length, 0, "the service was not asked");
  });

  test("with a service: called with its secret, its figures answered as they came, cached", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await call("/api/youx/quote", { origin: BETA, body: spec(30000) });
      assert.equal(res.status, 200);
      assert.deepEqual(await json(res), { weeklyRepaymentAmount: 99.2, comparisonRate: 7.77, advertisedRate: 6.66 }, "not rounded, not recomputed");
    }
    assert.equal(quotes.got.length, 1, "second answer came from the cache");
    assert.equal(quotes.got[0].headers.authorization, "Bearer beta-upstream-key");
    // The spec's payload (an empty VIN, NVIC and helper are left out).
    assert.deepEqual(quotes.got[0].json, { purchasePrice: 30000, loanTerm: 5, selfAssessedCreditScore: "GREAT", year: 2021 });
  });

  test("a service answer without a comparison rate, or an error, is no quote (502)", async () => {
    for (const price of [31313, 32323]) {
      const res = await call("/api/youx/quote", { origin: BETA, body: spec(price) });
      assert.equal(res.status, 502, `price ${price}`);
      assert.deepEqual(await json(res), { error: "The quote service gave no quote." });
    }
    // Nothing was cached: asked again, the service is asked again.
    await (await call("/api/youx/quote", { origin: BETA, body: spec(31313) })).body?.cancel();
    assert.equal(quotes.got.filter((r) => r.json?.purchasePrice === 31313).length, 2);
  });
});

describe("views", () => {
  test("each GET counts a view, per dealer", async () => {
    const path = "/api/cars/2021-toyota-hilux-123/view.json?photos_count=3&website_id=x";
    assert.deepEqual(await json(await call(path, { origin: ALPHA })), { slug: "2021-toyota-hilux-123", views: 1 });
    assert.deepEqual(await json(await call(path, { origin: ALPHA })), { slug: "2021-toyota-hilux-123", views: 2 });
    assert.equal((await json(await call(path, { origin: BETA }))).views, 1, "beta's count is its own");
  });

  test("a bad slug is 404 and an unknown origin 403, both JSON", async () => {
    const bad = await call("/api/cars/NOT%20A%20SLUG/view.json", { origin: ALPHA });
    assert.equal(bad.status, 404);
    assert.equal((await json(bad)).error, "No such car.");
    const foreign = await call("/api/cars/x/view.json", { origin: "https://evil.example" });
    assert.equal(foreign.status, 403);
    const none = await call("/api/cars/x/view.json");
    assert.equal(none.status, 403, "the URL's own origin (127.0.0.1) is no dealer");
  });
});

describe("phone reveal", () => {
  test("answers the configured phone, records the reveal and event 25, hashes the client", async () => {
    const res = await call("/api/phone-reveal", { origin: ALPHA, body: { car_id: 555, dealership_id: 1, website_id: "beta", location_id: "alpha-freo" } });
    assert.equal(res.status, 200);
    assert.deepEqual(await json(res), { phone: "08 9335 0000", location_id: "alpha-freo", location_name: "Alpha Fremantle", car_id: "555" });
    const [row] = await w.d1("SELECT * FROM phone_reveals WHERE car_id = '555'");
    assert.equal(row.dealer, "alpha");
    assert.equal(row.dealership_id, 77, "from configuration, not the body");
    assert.equal(row.website_id, "alpha");
    assert.match(row.client_key, /^[0-9a-f]{32}$/);
    assert.ok(!row.client_key.includes("127.0.0.1"));
    const events = await w.d1("SELECT dealer, event_id FROM events WHERE car_id = '555'");
    assert.deepEqual(events, [{ dealer: "alpha", event_id: 25 }]);
  });

  test("another dealer's location is refused", async () => {
    const res = await call("/api/phone-reveal", { origin: ALPHA, body: { car_id: 1, location_id: "beta-sydney" } });
    assert.equal(res.status, 400);
    assert.equal((await json(res)).fields.location_id, "Unknown location for this dealer.");
  });

  test("rate-limited per client: the 21st reveal in an hour is 429", async () => {
    // Two calls above already counted for alpha (every call counts, the
    // refused location too); the limit is 20 an hour.
    const statuses = [];
    for (let i = 0; i < 19; i++) {
      const res = await call("/api/phone-reveal", { origin: ALPHA, body: { car_id: 1000 + i } });
      statuses.push(res.status);
      await res.body?.cancel();
    }
    assert.deepEqual(statuses.slice(0, 18), Array(18).fill(200));
    assert.equal(statuses[18], 429);
    const beta = await call("/api/phone-reveal", { origin: BETA, body: { car_id: 1 } });
    assert.equal(beta.status, 200, "another dealer's counter is separate");
    assert.equal((await json(beta)).phone, "02 9876 5432");
  });
});

/** Requests a code for `phone` at `origin` and reads it from the worker log (dev SMS provider). */
async function requestCode(origin, phone) {
  const before = w.log.length;
  const res = await call("/api/auth/request-code", { origin, body: { phone_number: phone } });
  assert.equal(res.status, 202, await res.clone().text());
  return w.smsCode(phone, { from: before });
}

async function signIn(origin, phone) {
  const code = await requestCode(origin, phone);
  const res = await call("/api/auth/verify", { origin, body: { phone_number: phone, code } });
  assert.equal(res.status, 200);
  const cookie = res.headers.get("set-cookie");
  return cookie.split(";")[0];
}

describe("sign-in and watchlist", () => {
  test("code → session cookie (HttpOnly, Secure, SameSite), who am I, sign out", async () => {
    const code = await requestCode(ALPHA, "0412 345 678");
    const [row] = await w.d1("SELECT code_hash, attempts FROM sign_in_codes WHERE dealer = 'alpha' AND phone = '0412345678'");
    assert.match(row.code_hash, /^[0-9a-f]{64}$/);
    assert.notEqual(row.code_hash, code, "stored hashed");
    const wrong = await call("/api/auth/verify", { origin: ALPHA, body: { phone_number: "0412345678", code: code === "000000" ? "000001" : "000000" } });
    assert.equal(wrong.status, 400);
    assert.match((await json(wrong)).error, /not right/);
    const ok = await call("/api/auth/verify", { origin: ALPHA, body: { phone_number: "+61412345678", code } });
    assert.equal(ok.status, 200);
    assert.deepEqual(await json(ok), { success: true, phone_number: "0412345678" });
    const setCookie = ok.headers.get("set-cookie");
    for (const attr of ["HttpOnly", "Secure", "SameSite=Lax", "Path=/api/"]) assert.ok(setCookie.includes(attr), `${attr} in ${setCookie}`);
    const cookie = setCookie.split(";")[0];
    assert.deepEqual(await json(await call("/api/auth/me", { origin: ALPHA, cookie })), { signed_in: true, phone_number: "0412345678" });
    assert.deepEqual(await json(await call("/api/auth/me", { origin: ALPHA })), { signed_in: false });
    const reuse = await call("/api/auth/verify", { origin: ALPHA, body: { phone_number: "0412345678", code } });
    assert.equal(reuse.status, 400, "a code works once");
    const out = await call("/api/auth/sign-out", { origin: ALPHA, body: {}, cookie });
    assert.match(out.headers.get("set-cookie"), /Max-Age=0/);
  });

  test("bad numbers and too many wrong codes", async () => {
    const landline = await call("/api/auth/request-code", { origin: ALPHA, body: { phone_number: "08 9123 4567" } });
    assert.equal(landline.status, 400);
    assert.match((await json(landline)).fields.phone_number, /mobile/);
    await requestCode(ALPHA, "0412 000 111");
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const res = await call("/api/auth/verify", { origin: ALPHA, body: { phone_number: "0412000111", code: `99999${i}` } });
      statuses.push(res.status);
      await res.body?.cancel();
    }
    assert.deepEqual(statuses.slice(0, 5).every((s) => s === 400), true, String(statuses));
    assert.equal(statuses[5], 429);
  });

  test("save and remove are idempotent and the list is the session's own", async () => {
    const cookie = await signIn(ALPHA, "0423 456 789");
    for (let i = 0; i < 2; i++) {
      const res = await call("/api/watchlist/save-car", { origin: ALPHA, cookie, body: { phone_number: "0423456789", car_id: 42 } });
      assert.equal(res.status, 200);
      assert.equal((await json(res)).success, true);
    }
    await call("/api/watchlist/save-car", { origin: ALPHA, cookie, body: { car_id: "43" } });
    assert.deepEqual((await json(await call("/api/watchlist", { origin: ALPHA, cookie }))).car_ids, ["42", "43"]);
    for (let i = 0; i < 2; i++) {
      const res = await call("/api/watchlist/remove-car", { origin: ALPHA, cookie, body: { phone_number: "0423456789", car_id: 43 } });
      assert.equal(res.status, 200);
    }
    assert.deepEqual((await json(await call("/api/watchlist", { origin: ALPHA, cookie }))).car_ids, ["42"]);
  });

  test("a watchlist holds 200 cars: the next save is 409 with a clear message, a saved car stays saved", async () => {
    const cookie = await signIn(ALPHA, "0423 200 200");
    // 199 saved already (written straight to D1: the rate limit is not what this tests).
    await w.d1(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 199)
      INSERT INTO watchlist (dealer, phone, car_id) SELECT 'alpha', '0423200200', 'bulk-' || i FROM n`);
    const save = (car_id) => call("/api/watchlist/save-car", { origin: ALPHA, cookie, body: { car_id } });
    assert.equal((await save("last")).status, 200, "the 200th");
    const full = await save("one-more");
    assert.equal(full.status, 409);
    assert.deepEqual(await json(full), { success: false, message: "Your watchlist is full (200 cars). Please remove a car before saving another.",
      error: "Your watchlist is full (200 cars). Please remove a car before saving another." });
    assert.equal((await save("bulk-7")).status, 200, "saving a saved car again is fine");
    assert.equal((await json(await call("/api/watchlist", { origin: ALPHA, cookie }))).car_ids.length, 200);
    await call("/api/watchlist/remove-car", { origin: ALPHA, cookie, body: { car_id: "bulk-7" } });
    assert.equal((await save("one-more")).status, 200, "room again after a removal");
  });

  test("a session cannot touch another phone's list, nor another dealer's", async () => {
    const victim = await signIn(ALPHA, "0434 111 222");
    await call("/api/watchlist/save-car", { origin: ALPHA, cookie: victim, body: { car_id: 7 } });
    const attacker = await signIn(ALPHA, "0434 999 888");
    const res = await call("/api/watchlist/remove-car", { origin: ALPHA, cookie: attacker, body: { phone_number: "0434111222", car_id: 7 } });
    assert.equal(res.status, 403);
    assert.deepEqual(await json(res), { success: false, message: "You can only change your own watchlist.", error: "You can only change your own watchlist." });
    assert.deepEqual((await json(await call("/api/watchlist", { origin: ALPHA, cookie: victim }))).car_ids, ["7"]);
    assert.deepEqual((await json(await call("/api/watchlist", { origin: ALPHA, cookie: attacker }))).car_ids, []);

    const elsewhere = await call("/api/watchlist", { origin: BETA, cookie: victim });
    assert.equal(elsewhere.status, 401, "alpha's cookie is no session at beta");
    const noSession = await call("/api/watchlist/save-car", { origin: ALPHA, body: { car_id: 7 } });
    assert.equal(noSession.status, 401);
    assert.equal((await json(noSession)).success, false);
    // The cookie names a session, not a phone; a changed id is no session.
    assert.ok(!victim.includes("0434111222"), "no phone number in the cookie");
    const forged = await call("/api/watchlist", { origin: ALPHA, cookie: victim.replace(/^(dg_session=v2\.)(.)/, (_, p, c) => p + (c === "0" ? "1" : "0")) });
    assert.equal(forged.status, 401);
    const gamma = await call("/api/watchlist", { origin: GAMMA, cookie: victim });
    assert.equal(gamma.status, 404, "watchlist switched off for gamma");
  });
});

describe("lead delivery", () => {
  test("webhook down for the first attempts, then delivered exactly once; ADF e-mail to the location", async () => {
    const lead = { category: "test_drive", name: "Jo Bloggs", email: "jo@example.com.au", phone: "0412 345 678", terms_conditions: true,
      car_id: 99, location_id: "alpha-perth", car_type: "used", make: "Toyota", model: "HiLux", year: 2021, idempotency_key: "deliver-1" };
    const res = await call("/api/leads", { origin: ALPHA, body: lead });
    assert.equal(res.status, 201);
    const { lead_id } = await json(res);
    const status = await w.delivery(ALPHA, lead_id);
    assert.equal(status.delivery_status, "delivered", JSON.stringify(status));
    assert.equal(status.attempts, HOOK_DOWN_FOR + 1);
    const hookTarget = status.targets.find((t) => t.target === "webhook");
    assert.equal(hookTarget.status, "delivered");
    assert.equal(hookTarget.attempts, HOOK_DOWN_FOR + 1);
    const mailTarget = status.targets.find((t) => t.target === "email");
    assert.equal(mailTarget.attempts, 1, "the e-mail went out once although the webhook was retried");

    // A retry of the POST (same key, same enquiry) must not deliver again.
    const again = await call("/api/leads", { origin: ALPHA, body: lead });
    assert.equal((await json(again)).lead_id, lead_id);
    await w.deliveriesRun(ALPHA);
    const accepted = hook.got.filter((r) => r.json?.lead_id === lead_id && r.status === 200);
    assert.equal(accepted.length, 1, "exactly one successful webhook delivery");
    assert.equal(hook.got.filter((r) => r.json?.lead_id === lead_id).length, HOOK_DOWN_FOR + 1);
    assert.equal(accepted[0].headers["idempotency-key"], lead_id);
    assert.equal(accepted[0].json.lead.phone, "0412345678");

    const mails = mail.got.filter((r) => r.json?.lead_id === lead_id);
    assert.equal(mails.length, 1);
    assert.equal(mails[0].json.to, "perth@alpha.example", "the location's address in a group");
    assert.match(mails[0].json.body, /<prospect status="new">/);
    assert.match(mails[0].json.body, /<vehicle interest="test-drive" status="used">/);
    assert.match(mails[0].json.body, /<stock>S99<\/stock>/, "the vehicle comes from the dealer's stock");
    assert.match(mails[0].json.body, /<vendorname>Alpha Motors<\/vendorname>/);
  });

  test("another dealer cannot read a lead's delivery state", async () => {
    const res = await call("/api/leads", { origin: ALPHA, body: { category: "trade_in", name: "Al", email: "al@example.com", phone: "0412345678", terms_conditions: true } });
    const { lead_id } = await json(res);
    const foreign = await call(`/api/leads/${lead_id}/delivery`, { origin: BETA });
    assert.equal(foreign.status, 404);
    assert.equal((await json(foreign)).error, "No such lead.");
  });
});

describe("outbound deadlines", () => {
  test("a quote provider that hangs: no quote (502), within the deadline", async () => {
    const started = performance.now();
    const res = await call("/api/youx/quote", {
      origin: DELTA,
      body: { purchasePrice: 30000, loanTerm: 5, selfAssessedCreditScore: "GREAT" },
    });
    const body = await json(res);
    const ms = performance.now() - started;
    assert.equal(res.status, 502);
    assert.equal(body.error, "The quote service gave no quote.");
    assert.equal(slowQuotes.got.length, 1, "the provider was asked");
    assert.equal(slowQuotes.got[0].headers.authorization, "Bearer delta-upstream-key");
    assert.ok(ms >= QUOTE_DEADLINE_MS - 200, `waited for the provider until the deadline (${ms} ms)`);
    assert.ok(ms < QUOTE_DEADLINE_MS + 2_000, `answered within the deadline + margin (${ms} ms)`);
    await within(5_000, "the provider's connection ending", slowQuotes.got[0].closed);
    assert.ok(slowQuotes.got[0].aborted, "the worker hung up on the provider");
  });

  test("a webhook that hangs past the deadline: a failed attempt, then delivered exactly once", async () => {
    const res = await call("/api/leads", {
      origin: DELTA,
      body: { category: "enquiry", name: "Sam Slow", email: "sam@example.com", phone: "0412 000 111", terms_conditions: true,
        message: "Slow receivers should not lose me.", location_id: "delta-hq", idempotency_key: "slow-1" },
    });
    assert.equal(res.status, 201);
    const { lead_id } = await json(res);
    const status = await w.delivery(DELTA, lead_id);
    assert.equal(status.delivery_status, "delivered", JSON.stringify(status));
    assert.equal(status.attempts, 2, "the timed-out attempt counted as failed and was retried");
    assert.deepEqual(status.targets.map((t) => [t.target, t.status, t.attempts]), [["webhook", "delivered", 2]]);

    await w.deliveriesRun(DELTA); // no further attempt may follow
    const sent = slowHook.got.filter((r) => r.json?.lead_id === lead_id);
    assert.equal(sent.length, 2);
    const [hung, ok] = sent;
    assert.ok(hung.aborted, "the worker hung up on the hanging receiver");
    const heldMs = hung.closedAt - hung.at;
    assert.ok(heldMs >= DELIVERY_DEADLINE_MS - 500 && heldMs < DELIVERY_DEADLINE_MS + 2_000, `hung up at the deadline (${heldMs} ms)`);
    assert.ok(!ok.aborted && ok.status === 200, "the retry was answered");
    assert.ok(ok.at >= hung.closedAt, "retried after the failed attempt, not alongside it");
    assert.equal(sent.filter((r) => !r.aborted && r.status === 200).length, 1, "delivered exactly once");
    assert.equal(ok.headers["idempotency-key"], lead_id);
  });
});

describe("valuation and analytics", () => {
  test("POST /api/miscellaneous attaches a valuation to the dealer's own lead only", async () => {
    const lead = await json(await call("/api/leads", { origin: ALPHA, body: { category: "trade_in", name: "Val", email: "val@example.com", phone: "0412345678", terms_conditions: true } }));
    const ok = await call("/api/miscellaneous", { origin: ALPHA, body: { column_name: "valuation", lead_id: lead.lead_id, flow_token: lead.flow_token, valuation: { low: 12000, high: 14000 } } });
    assert.equal(ok.status, 201);
    const { id } = await json(ok);
    const [row] = await w.d1(`SELECT dealer, column_name, payload FROM miscellaneous WHERE id = ${sqlString(id)}`);
    assert.equal(row.dealer, "alpha");
    assert.deepEqual(JSON.parse(row.payload), { valuation: { low: 12000, high: 14000 } });
    // Another dealer's lead, even with its real flow token: the token is signed for its own dealer.
    const foreign = await call("/api/miscellaneous", { origin: BETA, body: { column_name: "valuation", lead_id: lead.lead_id, flow_token: lead.flow_token } });
    assert.equal(foreign.status, 400);
    assert.equal((await json(foreign)).fields.lead_id, "Unknown lead for this dealer, or the form was started elsewhere.");
    const bad = await call("/api/miscellaneous", { origin: ALPHA, body: { column_name: "password" } });
    assert.equal(bad.status, 400);
  });

  test("POST /api/events records for dealers with the sink, 404 for others", async () => {
    const ok = await call("/api/events", { origin: ALPHA, body: { event_id: 39, car_id: 5, data: { make: "Toyota" } } });
    assert.equal(ok.status, 202);
    const off = await call("/api/events", { origin: BETA, body: { event_id: 39 } });
    assert.equal(off.status, 404);
    const bad = await call("/api/events", { origin: ALPHA, body: { event_id: 12345 } });
    assert.equal(bad.status, 400);
  });
});

describe("every error is JSON 4xx", () => {
  test("malformed and hostile bodies on every POST route", async () => {
    const routes = ["/api/leads", "/api/youx/quote", "/api/phone-reveal", "/api/auth/request-code", "/api/auth/verify",
      "/api/watchlist/save-car", "/api/watchlist/remove-car", "/api/miscellaneous", "/api/events"];
    const bodies = ['{"a":', "null", "[]", '"x"', "1e999", '{"car_id":{"$gt":""}}', "[".repeat(5000), JSON.stringify({ x: "y".repeat(40000) })];
    for (const path of routes) {
      for (const body of bodies) {
        const res = await call(path, { origin: ALPHA, body, raw: true, cookie: "dg_session=v1.alpha.0412345678.99999999999.00" });
        assert.ok(res.status >= 400 && res.status < 500, `${path} ${body.slice(0, 20)} → ${res.status}`);
        assert.ok((await json(res)).error);
      }
    }
  });
});
