// End-to-end tests of the edge worker: the release build (edge/build/) runs in
// workerd through `wrangler dev --local`, with local D1 (migrations applied)
// and local KV seeded with two dealers, all in a fresh temporary persist dir.
//
// Run through scripts/edge/test.sh (builds first), or, with a build present:
//   node --test edge/tests/
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { carsKv, edgeConfig, kvFor, sleep, sqlString, startWorker } from "./harness.mjs";

const TERMS = "*You must agree to the terms of use before submitting.";

// Two tenants. `stale.example` maps to beta in KV but is not in beta's own
// list of origins: the worker must refuse it.
const ALPHA = "https://alpha-motors.example";
const ALPHA_LOCAL = "http://127.0.0.1:4321";
const BETA = "https://beta-cars.example";
const STALE = "https://stale.example";
const FOREIGN = "https://evil.example";

const location = (id, name) => [{ id, name: `${name} HQ`, phone: "08 9123 4567", lead_email: null }];
// `self` is the worker's own URL: alpha is also served there, so a GET
// without Origin (same-origin) sent to it belongs to alpha.
const KV_SEED = (self) => [
  ...kvFor(
    edgeConfig("alpha", "Alpha Motors", [ALPHA, ALPHA_LOCAL, self], location("alpha-perth", "Alpha Motors")),
    edgeConfig("beta", "Beta Cars", [BETA], location("beta-sydney", "Beta Cars")),
  ),
  { key: `origin:${STALE}`, value: "beta" },
  carsKv("alpha", ["2021-toyota-hilux-1"]),
];

let worker;
let base;
const d1 = (sql) => worker.d1(sql);

before(async () => {
  worker = await startWorker({ kvSeed: KV_SEED, vars: { SESSION_SECRET: "leads-test-secret-0123456789abcdef" } });
  base = worker.base;
});

after(async () => {
  await worker?.stop();
});

function validLead(extra = {}) {
  return {
    category: "enquiry",
    name: "Jo Bloggs",
    email: "jo@example.com.au",
    phone: "0412 345 678",
    message: "Is the Hilux still available?",
    terms_conditions: true,
    car_id: 1234,
    location_id: "alpha-perth",
    postcode: "6000",
    url: `${ALPHA}/cars/2021-toyota-hilux`,
    ...extra,
  };
}

function post(origin, body, { contentType = "application/json", raw = false } = {}) {
  const headers = { "Content-Type": contentType };
  if (origin) headers.Origin = origin;
  return fetch(`${base}/api/leads`, { method: "POST", headers, body: raw ? body : JSON.stringify(body) });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("edge worker", () => {
  test("GET /api/health answers ok", async () => {
    const res = await fetch(`${base}/api/health`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { ok: true });
  });

  test("a valid lead is stored in D1 first and answered 201 with its id", async () => {
    const res = await post(ALPHA, validLead({ dealership_slug: "beta", subcategory: "Test" }));
    assert.equal(res.status, 201);
    assert.equal(res.headers.get("access-control-allow-origin"), ALPHA);
    const { lead_id } = await res.json();
    assert.match(lead_id, UUID);

    const rows = await d1(`SELECT * FROM leads WHERE id = ${sqlString(lead_id)}`);
    assert.equal(rows.length, 1);
    const row = rows[0];
    assert.equal(row.dealer, "alpha", "dealer comes from the Origin, not the body's dealership_slug");
    assert.equal(row.category, "enquiry");
    // The delivery queue may already have handled it (no targets here but a logged e-mail).
    assert.match(row.delivery_status, /^(pending|retrying|delivered)$/);
    assert.equal(row.idempotency_key, null);
    assert.match(row.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const payload = JSON.parse(row.payload);
    assert.equal(payload.phone, "0412345678", "phone stored normalised");
    assert.equal(payload.car_id, "1234");
    assert.equal(payload.terms_conditions, true);
    assert.equal(payload.subcategory, "Test");
    assert.equal(row.subcategory, "Test", "also in its own column");
    assert.equal(payload.dealership_slug, "alpha", "the dealer from the Origin, not the body's claim");
    assert.equal(payload.extra, undefined, "every field sent has its place");
  });

  test("a retry with the same idempotency key gets the same lead id and stores one row", async () => {
    const body = validLead({ idempotency_key: "retry-key-1" });
    const first = await post(ALPHA, body);
    assert.equal(first.status, 201);
    const { lead_id } = await first.json();
    const again = await post(ALPHA, body);
    assert.equal(again.status, 200);
    assert.equal((await again.json()).lead_id, lead_id);
    const rows = await d1("SELECT id, dealer FROM leads WHERE idempotency_key = 'retry-key-1'");
    assert.deepEqual(rows, [{ id: lead_id, dealer: "alpha" }]);
  });

  test("the second dealer's origin gets its own dealer column and its own idempotency space", async () => {
    // Its own key, posted to alpha first here: the test needs no row an earlier test made.
    const alpha = await post(ALPHA, validLead({ idempotency_key: "tenant-key-1" }));
    assert.equal(alpha.status, 201);
    const res = await post(BETA, validLead({ location_id: "beta-sydney", idempotency_key: "tenant-key-1", category: "test_drive", message: "" }));
    assert.equal(res.status, 201, "same key as alpha's lead, but another tenant: a new lead");
    assert.equal(res.headers.get("access-control-allow-origin"), BETA);
    const { lead_id } = await res.json();
    const rows = await d1(`SELECT dealer, category FROM leads WHERE id = ${sqlString(lead_id)}`);
    assert.deepEqual(rows, [{ dealer: "beta", category: "test_drive" }]);
    const perDealer = await d1("SELECT dealer, count(*) AS n FROM leads WHERE idempotency_key = 'tenant-key-1' GROUP BY dealer ORDER BY dealer");
    assert.deepEqual(perDealer, [{ dealer: "alpha", n: 1 }, { dealer: "beta", n: 1 }]);
  });

  test("an invalid lead gets 400 with a message per field, readable by the dealer's page", async () => {
    const res = await post(ALPHA_LOCAL, validLead({ phone: "12345", email: "jo@", terms_conditions: false, postcode: "60", message: " " }));
    assert.equal(res.status, 400);
    assert.equal(res.headers.get("access-control-allow-origin"), ALPHA_LOCAL);
    const body = await res.json();
    assert.equal(body.error, "Please fix the following errors:");
    assert.deepEqual(Object.keys(body.fields).sort(), ["email", "message", "phone", "postcode", "terms_conditions"]);
    assert.equal(body.fields.terms_conditions, TERMS);
    assert.equal(body.fields.postcode, "Invalid postcode. Please enter a 4-digit number.");
    assert.match(body.fields.phone, /Australian phone number/);
  });

  test("a location of another dealer is refused", async () => {
    const res = await post(ALPHA, validLead({ location_id: "beta-sydney" }));
    assert.equal(res.status, 400);
    assert.equal((await res.json()).fields.location_id, "Unknown location for this dealer.");
  });

  test("malformed JSON, a non-object, wrong content type and oversized bodies are 4xx JSON", async () => {
    const cases = [
      [await post(ALPHA, '{"name": "Jo",', { raw: true }), 400, /^Malformed JSON/],
      [await post(ALPHA, "[1, 2]", { raw: true }), 400, /fix the following/],
      [await post(ALPHA, "name=Jo", { raw: true, contentType: "text/plain" }), 415, /Content-Type: application\/json/],
      [await post(ALPHA, "--x\r\n", { raw: true, contentType: "multipart/form-data; boundary=x" }), 415, /Content-Type: application\/json/],
      [await post(ALPHA, JSON.stringify(validLead({ message: "x".repeat(40_000) })), { raw: true }), 413, /larger than 32 KB/],
    ];
    for (const [res, status, pattern] of cases) {
      assert.equal(res.status, status);
      assert.match(res.headers.get("content-type"), /^application\/json/);
      assert.match((await res.json()).error, pattern);
    }
  });

  test("unknown, missing and stale origins get 403 without CORS headers and store nothing", async () => {
    const before = (await d1("SELECT count(*) AS n FROM leads"))[0].n;
    const huge = `https://${"a".repeat(600)}.example`; // longer than a KV key may be
    for (const origin of [FOREIGN, undefined, STALE, "null", huge, `${ALPHA}/path`]) {
      const res = await post(origin, validLead());
      assert.equal(res.status, 403, `origin ${origin}`);
      assert.equal(res.headers.get("access-control-allow-origin"), null);
      assert.match((await res.json()).error, /dealer's own website/);
    }
    assert.equal((await d1("SELECT count(*) AS n FROM leads"))[0].n, before);
  });

  test("CORS preflight: allowed origin gets CORS headers, a foreign one does not", async () => {
    const preflight = (origin) =>
      fetch(`${base}/api/leads`, {
        method: "OPTIONS",
        headers: { Origin: origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type" },
      });
    const ok = await preflight(ALPHA);
    assert.equal(ok.status, 204);
    assert.equal(ok.headers.get("access-control-allow-origin"), ALPHA);
    assert.match(ok.headers.get("access-control-allow-methods"), /POST/);
    assert.match(ok.headers.get("access-control-allow-headers"), /Content-Type/i);
    assert.equal(ok.headers.get("vary"), "Origin");

    const beta = await preflight(BETA);
    assert.equal(beta.headers.get("access-control-allow-origin"), BETA, "each dealer gets only its own origin back");

    const foreign = await preflight(FOREIGN);
    assert.equal(foreign.status, 403);
    assert.equal(foreign.headers.get("access-control-allow-origin"), null);
    assert.equal(foreign.headers.get("access-control-allow-methods"), null);
  });

  test("a same-origin GET (no Origin header) belongs to the dealer of the URL's own origin", async () => {
    const res = await fetch(`${base}/api/cars/2021-toyota-hilux-1/view.json?photos_count=3`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("access-control-allow-origin"), base);
    assert.deepEqual(await res.json(), { slug: "2021-toyota-hilux-1", views: 1 });
    // Views reach D1 in batches (VIEW_FLUSH_SECS is 1 s in the tests).
    let rows = [];
    for (let i = 0; i < 50 && rows.length === 0; i++) {
      rows = await d1("SELECT dealer, views FROM car_views WHERE slug = '2021-toyota-hilux-1'");
      if (rows.length === 0) await sleep(200);
    }
    assert.deepEqual(rows, [{ dealer: "alpha", views: 1 }]);
    // Writes always need the header, even on the dealer's own origin.
    const post = await fetch(`${base}/api/leads`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(validLead()) });
    assert.equal(post.status, 403);
  });

  test("unknown paths and methods answer JSON 404/405", async () => {
    const missing = await fetch(`${base}/api/nope`);
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).error, "No such API endpoint.");
    const wrongMethod = await fetch(`${base}/api/leads`, { headers: { Origin: ALPHA } });
    assert.equal(wrongMethod.status, 405);
    assert.match((await wrongMethod.json()).error, /method/);
  });
});

describe("retention (dealer_rules::retention: RETENTION_DAYS, a year by default)", () => {
  test("the cron deletes what is older than a year in bounded batches, and never a lead that has not reached the dealer", async () => {
    const old = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-400 days')";
    const recent = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-300 days')";
    const seq = (n) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})`;
    const kept = ["pending", "retrying", "held", "no_route"];
    // 600 old delivered leads with their deliveries and valuations; old leads not delivered, in every other state; a recent delivered one; old and recent events and reveals.
    await d1(
      [
        `INSERT INTO leads (id, dealer, category, payload, created_at, delivery_status) ${seq(600)} SELECT 'ret-old-' || i, 'alpha', 'enquiry', '{}', ${old}, 'delivered' FROM n`,
        `INSERT INTO lead_deliveries (lead_id, target, destination, status) SELECT id, 'webhook', 'https://crm.example', 'delivered' FROM leads WHERE id LIKE 'ret-old-%'`,
        `INSERT INTO miscellaneous (id, dealer, column_name, lead_id, payload, created_at) ${seq(3)} SELECT 'ret-val-' || i, 'alpha', 'valuation', 'ret-old-' || i, '{}', ${old} FROM n`,
        ...kept.map((state) => `INSERT INTO leads (id, dealer, category, payload, created_at, delivery_status) VALUES ('ret-kept-${state}', 'alpha', 'enquiry', '{}', ${old}, '${state}')`),
        `INSERT INTO miscellaneous (id, dealer, column_name, lead_id, payload, created_at) VALUES ('ret-val-kept', 'alpha', 'valuation', 'ret-kept-pending', '{}', ${old})`,
        `INSERT INTO leads (id, dealer, category, payload, created_at, delivery_status) VALUES ('ret-recent', 'alpha', 'enquiry', '{}', ${recent}, 'delivered')`,
        `INSERT INTO events (dealer, event_id, car_id, created_at) VALUES ('alpha', 4, 'ret-old', ${old}), ('alpha', 4, 'ret-recent', ${recent})`,
        `INSERT INTO phone_reveals (dealer, car_id, website_id, location_id, client_key, created_at) VALUES ('alpha', '1', 'alpha', 'alpha-perth', 'ret', ${old}), ('alpha', '2', 'alpha', 'alpha-perth', 'ret', ${recent})`,
      ].join("; "),
    );
    const oldLeads = async () => (await d1("SELECT count(*) AS n FROM leads WHERE id LIKE 'ret-old-%'"))[0].n;

    // One run deletes at most a batch (500) a table; the next one the rest.
    await worker.cron();
    assert.equal(await oldLeads(), 100, "one run: one batch of 500");
    await worker.cron();
    const [left] = await d1(
      `SELECT (SELECT count(*) FROM leads WHERE id LIKE 'ret-old-%') AS old_leads,
              (SELECT count(*) FROM lead_deliveries WHERE lead_id LIKE 'ret-old-%') AS deliveries,
              (SELECT group_concat(id) FROM (SELECT id FROM leads WHERE id LIKE 'ret-%' AND id NOT LIKE 'ret-old-%' ORDER BY id)) AS leads,
              (SELECT group_concat(id) FROM miscellaneous WHERE id LIKE 'ret-val-%') AS valuations,
              (SELECT group_concat(car_id) FROM events WHERE car_id LIKE 'ret-%') AS events,
              (SELECT group_concat(car_id) FROM phone_reveals WHERE client_key = 'ret') AS reveals`,
    );
    assert.deepEqual(left, {
      old_leads: 0,
      deliveries: 0,
      // A lead not delivered is kept however old; a recent one too.
      leads: "ret-kept-held,ret-kept-no_route,ret-kept-pending,ret-kept-retrying,ret-recent",
      // A kept lead's valuation stays.
      valuations: "ret-val-kept",
      events: "ret-recent",
      reveals: "2",
    });
  });
});
