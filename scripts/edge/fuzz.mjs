// Bounded fuzz run of the edge worker on loopback (not part of the test
// command). Starts the built worker under `wrangler dev --local`, then
//  1. sends R random and malformed bodies to every route (own generator),
//  2. runs schemathesis (PyPI) against edge/openapi.yaml with
//     `--checks not_a_server_error`, positive and negative cases.
// Fails on any 5xx. Usage: node scripts/edge/fuzz.mjs [R=2000] [EXAMPLES=40]
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { ROOT, edgeConfig, kvFor, startWorker, stockCar, stockKv } from "../../edge/tests/harness.mjs";
import { stripeStandIn } from "../../edge/tests/standins.mjs";

const R = Number(process.argv[2] ?? 2000);
const EXAMPLES = Number(process.argv[3] ?? 40);
const ORIGIN = "https://fuzz-motors.example";

const routes = [
  ["POST", "/api/leads"], ["POST", "/api/miscellaneous"], ["POST", "/api/events"], ["POST", "/api/youx/quote"],
  ["POST", "/api/phone-reveal"], ["POST", "/api/auth/request-code"], ["POST", "/api/auth/verify"], ["POST", "/api/auth/sign-out"],
  ["POST", "/api/watchlist/save-car"], ["POST", "/api/watchlist/remove-car"], ["GET", "/api/watchlist"], ["GET", "/api/auth/me"],
  ["GET", "/api/cars/RANDOM/view.json"], ["GET", "/api/leads/RANDOM/delivery"], ["GET", "/api/health"],
  ["POST", "/api/checkout/hold"], ["POST", "/api/checkout/webhook"], ["GET", "/api/cars/RANDOM/status"],
  ["GET", "/api/cars/2021-fuzz-car-1/status"], ["POST", "/api/trade-in/valuation"],
  ["POST", "/api/search/queries"], ["GET", "/api/search/popular"],
];
const keys = ["category", "name", "email", "phone", "phone_number", "car_id", "code", "purchasePrice", "loanTerm", "year", "vin",
  "event_id", "column_name", "lead_id", "location_id", "terms_conditions", "message", "idempotency_key", "data", "__proto__", "constructor",
  "car_slug", "rego", "regoState", "kms", "adjustmentAnswers", "lead_attributes", "offer_amount", "preferred_date", "website",
  "cf-turnstile-response", "type", "id", "metadata", "Vehicle Make", "opt_in", "query", "hits"];
let seed = 12345;
// High bits of the LCG: its low bits cycle too fast to pick independently.
const rnd = (n) => Math.floor(((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * n);
function value(depth = 0) {
  switch (rnd(depth > 2 ? 6 : 9)) {
    case 0: return null;
    case 1: return rnd(2) === 0;
    case 2: return [0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.5, 30000, 25, 5][rnd(9)];
    case 3: return ["", " ", "0412345678", "123456", "enquiry", "valuation", "x".repeat(rnd(6000)), "\u0000\u001f", "'; DROP TABLE leads;--", "😀", "<script>"][rnd(11)];
    case 4: return String.fromCharCode(...Array.from({ length: rnd(40) }, () => rnd(0x2fff)));
    case 5: return rnd(100000);
    case 6: return Array.from({ length: rnd(5) }, () => value(depth + 1));
    default: return Object.fromEntries(Array.from({ length: rnd(8) }, () => [keys[rnd(keys.length)], value(depth + 1)]));
  }
}
function body() {
  switch (rnd(5)) {
    case 0: return Buffer.from(Array.from({ length: rnd(200) }, () => rnd(256))); // raw bytes
    case 1: return JSON.stringify(value()).slice(0, rnd(50)); // truncated JSON
    default: return JSON.stringify(value(1));
  }
}

// Limits raised so that the fuzzer reaches the handlers (429s are tested
// elsewhere); the default per-client limits would answer most calls 429.
const high = { per_client: 1_000_000, per_dealer: 10_000_000, window_secs: 3600 };
const config = edgeConfig("fuzz", "Fuzz Motors", [ORIGIN], [{ id: "hq", name: "HQ", phone: "08 9000 0000", lead_email: null }], {
  analytics: { enabled: true },
  rate_limits: Object.fromEntries(["leads", "save_valuation", "events", "views", "quotes", "phone_reveal", "sign_in", "verify", "watchlist",
    "lead_status", "checkout", "car_status", "valuation", "payment_webhook"].map((k) => [k, high])),
  checkout: { enabled: true, path: "checkout", hold_hours: 48,
    payment: { provider: "stripe", secret_name: "FUZZ_STRIPE_KEY", webhook_secret_name: "FUZZ_STRIPE_HOOK" } },
  trade_in: { valuation: null, save_valuation: true },
});
// Holds start real payment sessions: a Stripe stand-in answers them.
const stripe = await stripeStandIn({ secretKey: "sk_test_fuzz" });
const w = await startWorker({
  kvSeed: [...kvFor(config), ...stockKv("fuzz", [stockCar("fuzz", "2021-fuzz-car-1"), stockCar("fuzz", "a", { id: "2" })])],
  vars: { SESSION_SECRET: "fuzz-secret", FUZZ_STRIPE_KEY: "sk_test_fuzz", FUZZ_STRIPE_HOOK: "whsec_fuzz", STRIPE_API_BASE: stripe.base },
});
let failures = 0;
try {
  const statuses = {};
  let fiveXX = 0;
  for (let i = 0; i < R; i++) {
    const [method, path0] = routes[rnd(routes.length)];
    const path = path0.replace("RANDOM", encodeURIComponent(String(value()).slice(0, 300)));
    const headers = { Origin: rnd(10) === 0 ? "https://evil.example" : ORIGIN };
    if (rnd(4) !== 0) {
      headers["Content-Type"] = ["application/json", "text/plain", "application/json; charset=utf-8", "application/x-www-form-urlencoded"][rnd(4)];
    }
    if (path === "/api/checkout/webhook" && rnd(2) === 0) headers["Stripe-Signature"] = `t=${Math.floor(Date.now() / 1000)},v1=${String(value()).slice(0, 80)}`.replace(/[^\x20-\x7e]/g, "");
    if (rnd(3) === 0) headers.Cookie = `dg_session=${String(value()).slice(0, 200)}`.replace(/[^\x20-\x7e]/g, "");
    const res = await fetch(`${w.base}${path}`, { method, headers, body: method === "POST" ? body() : undefined });
    const text = await res.text();
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    if (res.status >= 500) {
      fiveXX++;
      console.error(`5xx: ${method} ${path} → ${res.status} ${text.slice(0, 200)}`);
    } else if (res.status >= 400 && (res.headers.get("content-type") ?? "").startsWith("text/html")) {
      // A form post to /api/leads is answered with an HTML page.
      assert.equal(headers["Content-Type"], "application/x-www-form-urlencoded", `${method} ${path}: HTML only for form posts`);
      assert.match(text, /<h1>/);
    } else if (res.status >= 400) {
      assert.ok(JSON.parse(text).error, `${method} ${path}: error JSON`);
    }
  }
  console.log(`own fuzz: ${R} requests, statuses ${JSON.stringify(statuses)}, 5xx: ${fiveXX}`);
  if (fiveXX) failures++;

  const st = join(ROOT, ".tools/fuzz-venv/bin/schemathesis");
  const run = spawnSync(st, ["run", join(ROOT, "edge/openapi.yaml"), "--url", w.base, "-H", `Origin: ${ORIGIN}`,
    "--checks", "not_a_server_error", "--mode", "all", "-n", String(EXAMPLES), "--request-timeout", "10", "--no-color"],
    // cwd outside the repo: schemathesis leaves a .schemathesis/ cache in its cwd.
    { cwd: tmpdir(), encoding: "utf8", env: { ...process.env, SCHEMATHESIS_TELEMETRY: "false", NO_COLOR: "1" }, timeout: 600_000 });
  const out = `${run.stdout}${run.stderr}`;
  console.log(out.split("\n").filter((l) => /test cases|passed|failed|Checks|not_a_server_error|error|Summary|operations/i.test(l)).join("\n"));
  console.log(`schemathesis exit code ${run.status}`);
  if (run.status !== 0) {
    console.log(out.slice(-4000));
    failures++;
  }
} finally {
  await w.stop();
  await stripe.close();
}
process.exit(failures ? 1 : 0);
