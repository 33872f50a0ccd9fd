// End-to-end tests of the popular searches: `POST /api/search/queries`
// counts a search per dealer, day and normalised query without storing who
// searched (a per-day keyed hash, dropped by the cron run), drops personal
// data, checks its body; `GET /api/search/popular` answers only queries that
// found cars and reached 3 distinct visitors, per dealer, cacheable; both
// are rate-limited. Client addresses are set with CF-Connecting-IP.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { edgeConfig, fromClient, kvFor, startWorker } from "./harness.mjs";

const ALPHA = "https://alpha-search.example";
const BETA = "https://beta-search.example";
const TIGHT = "https://tight-search.example";
const GAMMA = "https://gamma-search.example";
const HQ = (d) => [{ id: `${d}-hq`, name: `${d} HQ`, phone: "08 9000 0000", lead_email: null }];
const limit = (per_client, per_dealer) => ({ per_client, per_dealer, window_secs: 3600 });

let w;

before(async () => {
  const tight = edgeConfig("tight", "Tight", [TIGHT], HQ("tight"), {
    rate_limits: { events: limit(3, 1000), car_status: limit(2, 1000) },
  });
  w = await startWorker({
    kvSeed: [
      ...kvFor(
        edgeConfig("alpha", "Alpha", [ALPHA], HQ("alpha")),
        edgeConfig("beta", "Beta", [BETA], HQ("beta")),
        tight,
        // A dealer with its own denied word (search.popular_searches_deny), a word of its stock too.
        edgeConfig("gamma", "Gamma", [GAMMA], HQ("gamma"), { popular_searches_deny: ["citroen"] }),
      ),
      // The stock's words as `dealergen build` publishes them (rules/src/search_words.rs).
      { key: "search-words:alpha", value: ["c3", "citroen", "ford", "mg", "mg4", "ranger", "wildtrak"].join("\n") },
      { key: "search-words:tight", value: "query" },
      { key: "search-words:gamma", value: ["c3", "citroen", "ford", "ranger"].join("\n") },
    ],
    vars: { SESSION_SECRET: "test-session-secret" },
  });
});

after(async () => {
  await w?.stop();
});

function call(path, { origin = ALPHA, ip = "192.0.2.1", body, raw, type = "application/json" } = {}) {
  const headers = { ...fromClient(ip) };
  if (origin) headers.Origin = origin;
  if (body !== undefined) headers["Content-Type"] = type;
  return fetch(`${w.base}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers,
    body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
  });
}

async function json(res) {
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/, `JSON answer (status ${res.status})`);
  return res.json();
}

const report = (query, hits, opts = {}) => call("/api/search/queries", { ...opts, body: { query, hits } });
const popular = async (origin = ALPHA, qs = "") => {
  const res = await call(`/api/search/popular${qs}`, { origin });
  assert.equal(res.status, 200);
  return { res, body: await json(res) };
};

describe("reporting a search", () => {
  test("is counted under its normalised words, per day, with visitors told apart by a hash only", async () => {
    const res = await report("  Citroën   C3 ", 4, { ip: "198.51.100.7" });
    assert.equal(res.status, 202);
    assert.deepEqual(await json(res), { recorded: true, query: "citroen c3" });
    assert.equal((await report("CITROEN-c3", 4, { ip: "198.51.100.7" })).status, 202);
    const [row] = await w.d1("SELECT * FROM search_queries WHERE dealer = 'alpha' AND query = 'citroen c3'");
    assert.equal(row.searches, 2);
    assert.equal(row.with_hits, 2);
    assert.equal(row.visitors, 1, "the same visitor twice is one visitor");
    assert.equal(row.day, Math.floor(Date.now() / 86_400_000));
    const visitors = await w.d1("SELECT visitor FROM search_query_visitors WHERE dealer = 'alpha' AND query = 'citroen c3'");
    assert.equal(visitors.length, 1);
    assert.match(visitors[0].visitor, /^[0-9a-f]{16}$/);
    const everything = JSON.stringify(await w.d1("SELECT * FROM search_query_visitors"));
    assert.ok(!everything.includes("198.51.100"), "no address stored");
  });

  test("personal data, empty and overlong queries are answered but never stored", async () => {
    for (const [query, dropped] of [
      ["jane.doe@example.com", "personal"],
      ["0412 345 678", "personal"],
      ["+61 7 3123 4567 hilux", "personal"],
      ["stock AB123456", "personal"],
      ["  ?! ", "empty"],
      ["a b c d e f g", "long"],
      ["トヨタ", "unsupported"],
    ]) {
      const res = await report(query, 3);
      assert.equal(res.status, 202, query);
      assert.deepEqual(await json(res), { recorded: false, dropped }, query);
    }
    const rows = await w.d1("SELECT query FROM search_queries WHERE dealer = 'alpha'");
    assert.ok(rows.every((r) => !/\d{3}|@|ab123456/.test(r.query)), JSON.stringify(rows));
  });

  test("a bad body is a 400 with per-field messages; big or non-JSON bodies are refused", async () => {
    const missing = await call("/api/search/queries", { body: {} });
    assert.equal(missing.status, 400);
    const { fields } = await json(missing);
    assert.ok(fields.query && !fields.hits, JSON.stringify(fields));
    const long = await report("x".repeat(201), 1);
    assert.equal(long.status, 400);
    assert.match((await json(long)).fields.query, /200/);
    const negative = await report("hilux", -1);
    assert.equal(negative.status, 400);
    const big = await call("/api/search/queries", { body: JSON.stringify({ query: "hilux", hits: 1, pad: "x".repeat(2000) }), raw: true });
    assert.equal(big.status, 413);
    const text = await call("/api/search/queries", { body: "hilux", raw: true, type: "text/plain" });
    assert.equal(text.status, 415);
    for (const body of ['{"query":', "null", "[]", "[".repeat(500)]) {
      const res = await call("/api/search/queries", { body, raw: true });
      assert.ok(res.status >= 400 && res.status < 500, `${body.slice(0, 10)} → ${res.status}`);
      assert.ok((await json(res)).error);
    }
    const stranger = await call("/api/search/queries", { origin: "https://elsewhere.example", body: { query: "hilux", hits: 1 } });
    assert.equal(stranger.status, 403);
  });
});

describe("the popular list", () => {
  test("needs 3 distinct visitors and the stock's words; is the dealer's own; is cacheable", async () => {
    // "ranger": two visitors, then a third; "hilux sr5": three visitors, but no car of alpha's has
    // those words (whatever count the client claims); "mg4": three visitors, one of them three
    // times (ranks below ranger's four visitors). A visitor is a /24.
    for (const ip of ["203.0.1.1", "203.0.2.1"]) await report("Ranger", 5, { ip });
    for (const ip of ["203.0.1.1", "203.0.2.1", "203.0.3.1"]) {
      assert.deepEqual(await json(await report("hilux sr5", 9, { ip })), { recorded: false, dropped: "not_in_stock" });
    }
    for (const ip of ["203.0.4.1", "203.0.4.1", "203.0.4.1", "203.0.5.1", "203.0.6.1"]) await report("MG4", 2, { ip });
    let { body } = await popular();
    assert.deepEqual(body.queries, ["mg4"], "two visitors are not enough; a phrase the stock lacks is never shown");
    assert.equal(body.days, 30);
    await report("ranger", 5, { ip: "203.0.3.1" });
    await report("ranger", 5, { ip: "203.0.7.1" });
    ({ body } = await popular());
    assert.deepEqual(body.queries, ["ranger", "mg4"], "most visitors first");
    const { res, body: one } = await popular(ALPHA, "?limit=1&days=999");
    assert.deepEqual(one, { queries: ["ranger"], days: 90 }, "limit and days are clamped");
    assert.equal(res.headers.get("cache-control"), "public, max-age=900");
    assert.equal(res.headers.get("vary"), "Origin", "one cache entry per dealer");
    assert.equal(res.headers.get("access-control-allow-origin"), ALPHA);
    // Beta's shoppers never see Alpha's searches.
    assert.deepEqual((await popular(BETA)).body.queries, []);
  });

  test("no bot can write one: a phrase with a word no car has, or a denied word, is never counted; one block is one visitor", async () => {
    for (const [i, query] of ["avoid this dealer scam", "ford ranger scam", "ranger free iphone"].entries()) {
      for (const n of [1, 2, 3]) {
        const res = await report(query, 1_000, { ip: `198.18.${i * 3 + n}.1` });
        assert.deepEqual(await json(res), { recorded: false, dropped: "not_in_stock" }, query);
      }
    }
    // Three addresses of one /24, three of one IPv6 /48: one visitor each.
    for (const ip of ["192.0.2.10", "192.0.2.11", "192.0.2.12", "2001:db8:77:1::1", "2001:db8:77:2::1", "2001:db8:77:ff00::1"]) {
      assert.equal((await json(await report("ford wildtrak", 3, { ip }))).recorded, true);
    }
    const [row] = await w.d1("SELECT visitors FROM search_queries WHERE dealer = 'alpha' AND query = 'ford wildtrak'");
    assert.equal(row.visitors, 2);
    assert.ok(!(await popular(ALPHA, "?limit=20")).body.queries.includes("ford wildtrak"), "two blocks are not three visitors");
    const planted = await w.d1("SELECT query FROM search_queries WHERE query LIKE '%scam%' OR query LIKE '%iphone%' OR query LIKE '%avoid%'");
    assert.deepEqual(planted, []);
  });

  test("a dealer's own denied words: a search with one is never counted, and one counted before is no longer listed", async () => {
    for (const n of [1, 2, 3]) {
      assert.deepEqual(await json(await report("Citroen C3", 4, { origin: GAMMA, ip: `198.19.${n}.1` })), { recorded: false, dropped: "not_in_stock" });
      assert.equal((await json(await report("ford ranger", 4, { origin: GAMMA, ip: `198.19.${n}.1` }))).recorded, true);
    }
    assert.deepEqual(await w.d1("SELECT query FROM search_queries WHERE dealer = 'gamma' AND query LIKE '%citroen%'"), []);
    // Counted before the dealer denied the word (a row from an earlier config): not listed any more.
    const day = Math.floor(Date.now() / 86_400_000);
    await w.d1(`INSERT INTO search_queries (dealer, day, query, searches, with_hits, visitors) VALUES ('gamma', ${day}, 'citroen c3', 9, 9, 9)`);
    assert.deepEqual((await popular(GAMMA, "?limit=20")).body.queries, ["ford ranger"]);
    // The same words at a dealer that denies none count as before.
    for (const n of [1, 2, 3]) assert.equal((await json(await report("citroen c3", 2, { ip: `198.20.${n}.1` }))).recorded, true);
  });

  test("the cron run drops visitor hashes of past days and counts past the days kept", async () => {
    const today = Math.floor(Date.now() / 86_400_000);
    await w.d1(`INSERT INTO search_query_visitors (dealer, day, query, visitor) VALUES ('alpha', ${today - 1}, 'old', 'aaaaaaaaaaaaaaaa')`);
    await w.d1(`INSERT INTO search_queries (dealer, day, query, searches, with_hits, visitors) VALUES ('alpha', ${today - 91}, 'ancient', 9, 9, 9), ('alpha', ${today - 1}, 'yesterday', 3, 3, 3)`);
    await w.cron();
    assert.deepEqual(await w.d1("SELECT * FROM search_query_visitors WHERE query = 'old'"), []);
    assert.deepEqual(await w.d1("SELECT * FROM search_queries WHERE query = 'ancient'"), []);
    assert.equal((await w.d1("SELECT * FROM search_queries WHERE query = 'yesterday'")).length, 1, "counts within the days kept stay");
    assert.ok((await w.d1(`SELECT * FROM search_query_visitors WHERE day = ${today}`)).length > 0, "today's visitors stay");
    // Yesterday's 3 visitors count with today's.
    assert.ok((await popular()).body.queries.includes("yesterday"));
  });
});

describe("rate limits", () => {
  test("reports (events limits) and the list (car_status limits) answer 429 with Retry-After past the client's limit", async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await report(`query ${i}`, 1, { origin: TIGHT, ip: "192.0.2.99" })).status);
    assert.deepEqual(statuses, [202, 202, 202, 429]);
    const list = [];
    let last;
    for (let i = 0; i < 3; i++) {
      last = await call("/api/search/popular", { origin: TIGHT, ip: "192.0.2.98" });
      list.push(last.status);
    }
    assert.deepEqual(list, [200, 200, 429]);
    assert.ok(Number(last.headers.get("retry-after")) > 60);
    assert.ok((await json(last)).error);
  });
});
