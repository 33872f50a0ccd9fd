// End-to-end tests of the worker's defences: revocable sessions without the
// phone in the cookie, rate limits on every route (per client address and
// per dealer, configurable, with the real Retry-After), atomic counting of
// code guesses under concurrency, sign-in that a stranger cannot lock,
// security headers on every answer, 503 for a dealer whose configuration is
// broken, 422 for a reused idempotency key, and views counted only for the
// dealer's cars and written to D1 in batches.
//
// Each scenario has its own dealer (and so its own limits and counters).
// Client addresses are set with CF-Connecting-IP, as Cloudflare sets it.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { carsKv, edgeConfig, fromClient, kvFor, receiver, sleep, startWorker } from "./harness.mjs";

const origin = (d) => `https://${d}.example`;
const HQ = (d) => [{ id: `${d}-hq`, name: `${d} HQ`, phone: "08 9000 0000", lead_email: null }];
const limit = (per_client, per_dealer, window_secs = 3600) => ({ per_client, per_dealer, window_secs });
/** Limits high enough that a scenario only meets the ones it is about. */
const HIGH = {
  leads: limit(1000, 10000), save_valuation: limit(1000, 10000), events: limit(1000, 10000), views: limit(1000, 10000),
  quotes: limit(1000, 10000), phone_reveal: limit(1000, 10000), sign_in: limit(1000, 10000), verify: limit(1000, 10000),
  watchlist: limit(1000, 10000), lead_status: limit(1000, 10000), code_cooldown_secs: 2,
};
const dealer = (slug, rateLimits = {}, extra = {}) =>
  edgeConfig(slug, `Dealer ${slug}`, [origin(slug)], HQ(slug), {
    analytics: { enabled: true }, trade_in: { save_valuation: true }, rate_limits: { ...HIGH, ...rateLimits }, ...extra,
  });

const SECURITY = {
  "x-content-type-options": "nosniff",
  "strict-transport-security": "max-age=31536000",
  "referrer-policy": "no-referrer",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
};

let w, hook, barrierHook;
const configs = {};

before(async () => {
  hook = await receiver(() => 200);
  // The dealer of w.deliveriesRun's barrier leads, with a receiver of its own.
  barrierHook = await receiver(() => 200);
  configs.barrier = dealer("barrier");
  configs.barrier.leads.webhook_url = `${barrierHook.url}/hook`;
  configs.barrier.leads.email = null;
  configs.sessions = dealer("sessions");
  configs.floods = dealer("floods", { leads: limit(3, 5) });
  configs.floods.leads.webhook_url = `${hook.url}/hook`;
  configs.floods.leads.email = null;
  // Every route allows 2 calls per client an hour.
  configs.tight = dealer("tight", Object.fromEntries(Object.keys(HIGH).filter((k) => k !== "code_cooldown_secs").map((k) => [k, limit(2, 1000)])));
  configs.short = dealer("short", { phone_reveal: limit(2, 1000, 3), views: limit(2, 1000, 3) });
  configs.guesses = dealer("guesses");
  configs.lockout = dealer("lockout", { sign_in: limit(20, 1000) });
  configs.spray = dealer("spray", { sign_in: limit(3, 1000) });
  configs.views = dealer("views");
  configs.keys = dealer("keys");
  const broken = { key: "dealer:broken", value: JSON.stringify(dealer("broken")).slice(0, 60) };
  const unknownField = { key: "dealer:typo", value: JSON.stringify({ ...dealer("typo"), rate_limit: {} }) };
  // Hand-edited or tampered entries the build would have refused: values
  // that reach a mail header, an address or a redirect.
  const tampered = {
    redirect: { forms: { message_required: false, success_path: "@evil.example/thanks" } },
    crlf: { forms: { message_required: false, success_path: "/ok\r\nSet-Cookie: a=1" } },
    subject: { name: "Dealer\r\nBcc: all@evil.example" },
    consent: { forms: { message_required: false, opt_in_text: "Offers\r\nBcc: all@evil.example" } },
    recipient: { leads: { email: "leads@d.example\r\nBcc: all@evil.example", webhook_url: null } },
  };
  const tamperedKv = Object.entries(tampered).flatMap(([slug, over]) => [
    { key: `dealer:${slug}`, value: JSON.stringify({ ...dealer(slug), ...over }) },
    { key: `origin:${origin(slug)}`, value: slug },
  ]);
  w = await startWorker({
    kvSeed: [
      ...kvFor(...Object.values(configs)),
      carsKv("views", ["car-a", "car-b"]),
      carsKv("short", ["car-a"]),
      carsKv("tight", ["car-a"]),
      broken, { key: `origin:${origin("broken")}`, value: "broken" },
      unknownField, { key: `origin:${origin("typo")}`, value: "typo" },
      ...tamperedKv,
    ],
    vars: { SESSION_SECRET: "hardening-secret" },
  });
});

after(async () => {
  await w?.stop();
  await Promise.all([hook?.close(), barrierHook?.close()]);
});

function call(path, { dealer, body, method = body === undefined ? "GET" : "POST", cookie, ip = "192.0.2.1", headers = {} } = {}) {
  const h = { ...fromClient(ip), ...headers };
  if (dealer) h.Origin = origin(dealer);
  if (cookie) h.Cookie = cookie;
  if (body !== undefined) h["Content-Type"] = "application/json";
  return fetch(`${w.base}${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function json(res) {
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/, `JSON answer (status ${res.status})`);
  return res.json();
}

const lead = (extra = {}) => ({ category: "test_drive", name: "Jo Bloggs", email: "jo@example.com", phone: "0412 345 678", terms_conditions: true, ...extra });


async function requestCode(dealer, phone, ip) {
  const from = w.log.length;
  const res = await call("/api/auth/request-code", { dealer, body: { phone_number: phone }, ip });
  assert.equal(res.status, 202, await res.clone().text());
  return w.smsCode(phone, { dealer, from });
}

async function signIn(dealer, phone, ip) {
  const code = await requestCode(dealer, phone, ip);
  const res = await call("/api/auth/verify", { dealer, body: { phone_number: phone, code }, ip });
  assert.equal(res.status, 200, await res.clone().text());
  return res.headers.get("set-cookie").split(";")[0];
}

const wrongCodes = (right, n) => Array.from({ length: n + 1 }, (_, i) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, "0")).filter((c) => c !== right).slice(0, n);

function retryAfter(res) {
  const value = res.headers.get("retry-after");
  assert.match(value ?? "", /^\d+$/, `Retry-After on a ${res.status}`);
  return Number(value);
}

describe("1. sessions are revocable and carry no phone number", () => {
  test("signing out ends that session on the server; another device stays signed in", async () => {
    const phone = "0412 777 001";
    const laptop = await signIn("sessions", phone, "192.0.2.10");
    await sleep(2100); // the code cooldown
    const mobile = await signIn("sessions", phone, "192.0.2.11");
    for (const cookie of [laptop, mobile]) {
      assert.match(cookie, /^dg_session=v2\.[0-9a-f]{32}\.[0-9a-f]{64}$/);
      for (const digits of ["0412777001", "412777001", "61412777001"]) assert.ok(!cookie.includes(digits), cookie);
    }
    const rows = await w.d1("SELECT id_hash, phone FROM sessions WHERE dealer = 'sessions'");
    assert.equal(rows.length, 2);
    for (const r of rows) assert.ok(!laptop.includes(r.id_hash) && !mobile.includes(r.id_hash), "the database holds no cookie");

    const me = (cookie) => call("/api/auth/me", { dealer: "sessions", cookie }).then(json);
    assert.deepEqual(await me(laptop), { signed_in: true, phone_number: "0412777001" });
    await call("/api/watchlist/save-car", { dealer: "sessions", cookie: laptop, body: { car_id: 5 } });

    const out = await call("/api/auth/sign-out", { dealer: "sessions", cookie: laptop, body: {} });
    assert.equal(out.status, 200);
    assert.match(out.headers.get("set-cookie"), /Max-Age=0/);
    // The old cookie, replayed, is no session any more.
    assert.deepEqual(await me(laptop), { signed_in: false });
    const list = await call("/api/watchlist", { dealer: "sessions", cookie: laptop });
    assert.equal(list.status, 401);
    const save = await call("/api/watchlist/save-car", { dealer: "sessions", cookie: laptop, body: { car_id: 6 } });
    assert.equal(save.status, 401);
    // The other device is untouched and sees the list.
    assert.deepEqual(await me(mobile), { signed_in: true, phone_number: "0412777001" });
    assert.deepEqual((await json(await call("/api/watchlist", { dealer: "sessions", cookie: mobile }))).car_ids, ["5"]);
    assert.equal((await w.d1("SELECT count(*) AS n FROM sessions WHERE dealer = 'sessions'"))[0].n, 1);
  });
});

describe("2. every route is rate-limited per client and per dealer", () => {
  test("a flood of leads from one client stores its limit; over the dealer's budget leads are held, and only the budget is delivered", async () => {
    const flood = await Promise.all(Array.from({ length: 12 }, (_, i) =>
      call("/api/leads", { dealer: "floods", ip: "198.51.100.1", body: lead({ idempotency_key: `flood-${i}` }) })));
    const statuses = flood.map((r) => r.status).sort();
    assert.deepEqual(statuses, [...Array(3).fill(201), ...Array(9).fill(429)]);
    for (const res of flood.filter((r) => r.status === 429)) {
      assert.ok(retryAfter(res) > 60, "most of the hour, not a minute");
      assert.equal(res.headers.get("access-control-expose-headers"), "Retry-After", "readable by the dealer's page");
      assert.match((await json(res)).error, /Too many enquiries from this connection/);
    }
    // Two more clients: the dealer's budget of 5 delivers 2 more; over it
    // leads are held (stored, answered as stored), never refused.
    const b = await Promise.all([1, 2, 3].map((i) => call("/api/leads", { dealer: "floods", ip: "198.51.100.2", body: lead({ idempotency_key: `b-${i}` }) })));
    assert.deepEqual(b.map((r) => r.status), [201, 201, 201]);
    const c = await call("/api/leads", { dealer: "floods", ip: "198.51.100.3", body: lead() });
    assert.equal(c.status, 201, "a shopper is not refused for the dealer's budget");
    // Stored: all 7 the clients' own limits let in; delivered: the budget's 5.
    const states = await w.d1("SELECT delivery_status AS s, count(*) AS n FROM leads WHERE dealer = 'floods' GROUP BY s ORDER BY s");
    assert.deepEqual(states.map((r) => [r.s === "held" ? "held" : "to deliver", r.n]).reduce((m, [k, n]) => ({ ...m, [k]: (m[k] ?? 0) + n }), {}), { held: 2, "to deliver": 5 });
    for (let i = 0; i < 60 && new Set(hook.got.map((r) => r.json?.lead_id)).size < 5; i++) await sleep(250);
    await w.deliveriesRun(origin("barrier"));
    assert.equal(hook.got.length, 5, "outbound calls bounded by the dealer's budget, not by the requests");
    assert.equal(new Set(hook.got.map((r) => r.json?.lead_id)).size, 5);
  });

  test("each route answers 429 with Retry-After after its per-client limit", async () => {
    const cookie = await signIn("tight", "0412 777 002", "192.0.2.20");
    const lead1 = await json(await call("/api/leads", { dealer: "tight", ip: "192.0.2.20", body: lead() }));
    const routes = [
      ["leads", () => ({ path: "/api/leads", body: lead() })],
      ["miscellaneous", () => ({ path: "/api/miscellaneous", body: { column_name: "valuation", value: 1 } })],
      ["events", () => ({ path: "/api/events", body: { event_id: 39 } })],
      ["views", () => ({ path: "/api/cars/car-a/view.json" })],
      ["quotes", () => ({ path: "/api/youx/quote", body: { purchasePrice: 30000 } })],
      ["phone_reveal", () => ({ path: "/api/phone-reveal", body: { car_id: 1 } })],
      // A new number each time: the per-number cooldown is not what this checks.
      ["sign_in", (i) => ({ path: "/api/auth/request-code", body: { phone_number: `0412 777 09${i}` } })],
      ["verify", () => ({ path: "/api/auth/verify", body: { phone_number: "0412 777 089", code: "000000" } })],
      ["watchlist", () => ({ path: "/api/watchlist", cookie })],
      ["lead_status", () => ({ path: `/api/leads/${lead1.lead_id}/delivery` })],
    ];
    for (const [name, make] of routes) {
      // A fresh client per route: its first two calls pass the limiter.
      const ip = `203.0.113.${routes.findIndex(([n]) => n === name) + 1}`;
      const statuses = [];
      let last;
      for (let i = 0; i < 3; i++) {
        const { path, body, cookie: c } = make(i);
        last = await call(path, { dealer: "tight", ip, body, cookie: c });
        statuses.push(last.status);
        if (i < 2) await last.body?.cancel();
      }
      assert.ok(statuses.slice(0, 2).every((s) => s !== 429), `${name}: ${statuses}`);
      assert.equal(statuses[2], 429, `${name}: ${statuses}`);
      assert.ok(retryAfter(last) > 600, `${name}: Retry-After ${last.headers.get("retry-after")} is the hour's remainder`);
      assert.ok((await json(last)).error, name);
    }
    // The same watchlist limit covers who-am-I and sign-out.
    for (const path of ["/api/auth/me", "/api/auth/sign-out"]) {
      const res = await call(path, { dealer: "tight", ip: "203.0.113.9", cookie, body: path.endsWith("out") ? {} : undefined });
      assert.equal(res.status, 429, path);
    }
  });
});

describe("3. code guesses are counted atomically", () => {
  test("40 concurrent wrong guesses: exactly 5 are checked", async () => {
    const phone = "0412777003";
    const right = await requestCode("guesses", phone, "192.0.2.30");
    const guesses = await Promise.all(wrongCodes(right, 40).map((code, i) =>
      call("/api/auth/verify", { dealer: "guesses", ip: `192.0.2.${40 + (i % 10)}`, body: { phone_number: phone, code } })
        .then(async (res) => ({ status: res.status, error: (await json(res)).error }))));
    const checked = guesses.filter((g) => /not right/.test(g.error));
    const refused = guesses.filter((g) => g.status === 429);
    console.log(`# concurrent wrong guesses: ${guesses.length} sent, ${checked.length} checked, ${refused.length} refused`);
    assert.equal(checked.length, 5, JSON.stringify(guesses.map((g) => g.status)));
    assert.equal(refused.length, 35);
    for (const g of refused) assert.match(g.error, /Too many wrong codes/);
    assert.equal((await w.d1(`SELECT attempts FROM sign_in_codes WHERE dealer = 'guesses' AND phone = '${phone}'`))[0].attempts, 5);
    // The right code is dead now.
    const late = await call("/api/auth/verify", { dealer: "guesses", body: { phone_number: phone, code: right } });
    assert.equal(late.status, 429);
  });

  test("10 concurrent right guesses sign in once", async () => {
    const phone = "0412777004";
    const right = await requestCode("guesses", phone, "192.0.2.31");
    const tries = await Promise.all(Array.from({ length: 10 }, () =>
      call("/api/auth/verify", { dealer: "guesses", body: { phone_number: phone, code: right } })));
    assert.equal(tries.filter((r) => r.status === 200).length, 1, tries.map((r) => r.status).join(","));
    assert.equal((await w.d1("SELECT count(*) AS n FROM sessions WHERE dealer = 'guesses'"))[0].n, 1);
  });
});

describe("4. Retry-After is the real remaining time", () => {
  test("a 3-second window: wait what Retry-After says and the next call passes (D1 and counters object)", async () => {
    for (const [path, body] of [["/api/phone-reveal", { car_id: 1 }], ["/api/cars/car-a/view.json", undefined]]) {
      const ip = path.includes("reveal") ? "192.0.2.50" : "192.0.2.51";
      const statuses = [];
      let res;
      for (let i = 0; i < 3; i++) {
        res = await call(path, { dealer: "short", ip, body });
        statuses.push(res.status);
        await res.arrayBuffer();
      }
      assert.deepEqual(statuses, [200, 200, 429], path);
      const wait = retryAfter(res);
      assert.ok(wait >= 1 && wait <= 6, `${path}: ${wait} s for a 3 s window`);
      await sleep(wait * 1000 + 300);
      const again = await call(path, { dealer: "short", ip, body });
      assert.equal(again.status, 200, `${path}: allowed after ${wait} s`);
    }
  });
});

describe("5. security headers on every answer", () => {
  test("success, client errors, rate limits, router fallbacks, preflight and 503 alike", async () => {
    const answers = {
      health: await fetch(`${w.base}/api/health`),
      "404": await fetch(`${w.base}/api/nope`),
      "405": await call("/api/leads", { dealer: "keys", method: "PUT" }),
      "403": await call("/api/leads", { dealer: "evil", body: lead() }),
      preflight: await call("/api/leads", { dealer: "keys", method: "OPTIONS" }),
      "400": await call("/api/leads", { dealer: "keys", body: {} }),
      "201": await call("/api/leads", { dealer: "keys", body: lead() }),
      view: await call("/api/cars/car-a/view.json", { dealer: "views" }),
      "503": await call("/api/leads", { dealer: "broken", body: lead() }),
      "429": await call("/api/phone-reveal", { dealer: "tight", ip: "203.0.113.6", body: { car_id: 1 } }),
    };
    for (const [name, res] of Object.entries(answers)) {
      for (const [header, value] of Object.entries(SECURITY)) assert.equal(res.headers.get(header), value, `${header} on ${name} (${res.status})`);
      await res.arrayBuffer();
    }
    assert.equal(answers["429"].status, 429);
    assert.equal(answers["503"].status, 503);
  });
});

describe("6. nobody can lock a stranger out of sign-in", () => {
  test("a stranger's requests and bad guesses delay the owner by the cooldown at most", async () => {
    const victim = "0412777005";
    const stranger = "198.51.100.66";
    const sent = await requestCode("lockout", victim, stranger);
    for (let i = 0; i < 6; i++) {
      const res = await call("/api/auth/request-code", { dealer: "lockout", ip: stranger, body: { phone_number: victim } });
      assert.equal(res.status, 429);
      assert.ok(retryAfter(res) <= 2, `the cooldown (${res.headers.get("retry-after")} s), not an hour`);
      assert.match((await json(res)).error, /moments ago/);
    }
    const statuses = [];
    for (const code of wrongCodes(sent, 6)) {
      const res = await call("/api/auth/verify", { dealer: "lockout", ip: stranger, body: { phone_number: victim, code } });
      statuses.push(res.status);
      if (res.status === 429) assert.ok(retryAfter(res) <= 2);
      await res.arrayBuffer();
    }
    assert.deepEqual(statuses, [400, 400, 400, 400, 400, 429], "bad guesses end the code...");
    await sleep(2100);
    // ...not the number: its owner, elsewhere, signs in after the cooldown.
    const cookie = await signIn("lockout", victim, "192.0.2.60");
    assert.match(cookie, /^dg_session=v2\./);
  });

  test("one client cannot spray codes at many numbers", async () => {
    const ip = "198.51.100.77";
    for (const n of ["0412777011", "0412777012", "0412777013"]) await requestCode("spray", n, ip);
    const fourth = await call("/api/auth/request-code", { dealer: "spray", ip, body: { phone_number: "0412777014" } });
    assert.equal(fourth.status, 429);
    assert.match((await json(fourth)).error, /Too many codes requested/);
    assert.ok(retryAfter(fourth) > 600);
    await requestCode("spray", "0412777014", "198.51.100.78");
  });
});

describe("7. broken configuration and reused idempotency keys", () => {
  test("a dealer whose KV config is broken gets 503 JSON and a log line naming it; others are fine", async () => {
    for (const [slug, fault] of [
      ["broken", /EOF while parsing/], ["typo", /unknown field `rate_limit`/],
      ["redirect", /forms.success_path `@evil.example\/thanks` is not a page path/], ["crlf", /forms.success_path .*is not a page path/],
      ["subject", /name .*has a control character/], ["recipient", /leads.email .*is not an e-mail address/],
      ["consent", /forms.opt_in_text .*is not one line of at most 300 characters/],
    ]) {
      const before = w.log.length;
      for (const res of [await call("/api/leads", { dealer: slug, body: lead() }), await call("/api/cars/car-a/view.json", { dealer: slug })]) {
        assert.equal(res.status, 503, slug);
        assert.match((await json(res)).error, /unavailable/);
      }
      for (let i = 0; i < 20 && !w.log.slice(before).includes(`dealer ${slug}:`); i++) await sleep(100);
      const line = w.log.slice(before).split("\n").find((l) => l.includes(`dealer ${slug}: edge config`));
      assert.ok(line, `log names ${slug}:\n${w.log.slice(before)}`);
      assert.match(line, fault);
    }
    const stored = await w.d1("SELECT count(*) AS n FROM leads WHERE dealer IN ('broken', 'typo', 'redirect', 'crlf', 'subject', 'recipient', 'consent')");
    assert.equal(stored[0].n, 0, "nothing is stored for a dealer whose config is refused");
    assert.equal((await call("/api/leads", { dealer: "keys", body: lead() })).status, 201);
  });

  test("the same key with the same enquiry is the first lead; with another enquiry it is 422", async () => {
    const first = await call("/api/leads", { dealer: "keys", body: lead({ idempotency_key: "k-1", message: "Still there?" }) });
    assert.equal(first.status, 201);
    const { lead_id } = await json(first);
    const retry = await call("/api/leads", { dealer: "keys", body: lead({ idempotency_key: "k-1", message: " Still there? " }) });
    assert.equal(retry.status, 200);
    assert.equal((await json(retry)).lead_id, lead_id);
    const other = await call("/api/leads", { dealer: "keys", body: lead({ idempotency_key: "k-1", message: "A different question" }) });
    assert.equal(other.status, 422);
    assert.match((await json(other)).error, /already received an earlier version of this enquiry/);
    assert.equal((await w.d1("SELECT count(*) AS n FROM leads WHERE idempotency_key = 'k-1'"))[0].n, 1);
  });
});

describe("8. views: only the dealer's cars, written to D1 in batches", () => {
  test("unknown slugs are 404 and never stored; 60 views cost D1 a few statements", async () => {
    for (let i = 0; i < 15; i++) {
      const res = await call(`/api/cars/not-a-car-${i}/view.json`, { dealer: "views" });
      assert.equal(res.status, 404);
      assert.equal((await json(res)).error, "No such car.");
    }
    const before = w.log.length;
    const answers = [];
    for (let i = 0; i < 40; i++) answers.push((await json(await call("/api/cars/car-a/view.json", { dealer: "views", ip: `192.0.2.${100 + (i % 50)}` }))).views);
    const concurrent = await Promise.all(Array.from({ length: 20 }, () => call("/api/cars/car-b/view.json", { dealer: "views" }).then(json)));
    // The earlier "security headers" view of car-a counted too.
    assert.deepEqual(answers, Array.from({ length: 40 }, (_, i) => i + 2));
    assert.deepEqual(concurrent.map((a) => a.views).sort((x, y) => x - y), Array.from({ length: 20 }, (_, i) => i + 1));
    let rows = [];
    for (let i = 0; i < 50; i++) {
      rows = await w.d1("SELECT slug, views FROM car_views WHERE dealer = 'views' ORDER BY slug");
      if (rows.length === 2 && rows[0].views === 41 && rows[1].views === 20) break;
      await sleep(200);
    }
    assert.deepEqual(rows, [{ slug: "car-a", views: 41 }, { slug: "car-b", views: 20 }]);
    assert.equal((await w.d1("SELECT count(*) AS n FROM car_views WHERE slug LIKE 'not-a-car%'"))[0].n, 0);
    const flushes = w.log.slice(before).split("\n").filter((l) => l.includes("views flush views:"));
    const statements = flushes.reduce((n, l) => n + Number(l.match(/(\d+) car\(s\)/)[1]), 0);
    console.log(`# 60 views → ${flushes.length} flush(es), ${statements} D1 statement(s)`);
    assert.ok(flushes.length >= 1 && statements <= 2 * flushes.length, flushes.join("\n"));
    assert.ok(statements <= 10, `${statements} D1 statements for 60 views`);
  });
});
