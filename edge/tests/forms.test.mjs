// The forms at the edge, in workerd: the full lead payload and the vehicle
// filled from the published stock (D1 row, webhook JSON, ADF parsed as
// XML), form posts without JavaScript (303 / HTML pages), the honeypot,
// Turnstile against a siteverify stand-in, trade-in valuations against a
// valuation service stand-in, and reservations through a Stripe stand-in
// (session creation, signed webhooks, concurrent holds, expiry, the
// Reserved status, the reservation lead).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { JSDOM } from "jsdom";
import { edgeConfig, kvFor, receiver, sleep, sqlString, startWorker, stockCar, stockKv } from "./harness.mjs";
import { stripeSignature, stripeStandIn, turnstileStandIn } from "./standins.mjs";

const OMEGA = "https://omega.example";
/** Omega's own words beside the marketing opt-in (`forms.opt_in_text`). */
const OMEGA_OPT_IN = "Send me Omega & Sons offers by email and SMS. I can unsubscribe at any time.";
const KAPPA = "https://kappa.example";
const ZETA = "https://zeta.example";
const SIGMA = "https://sigma.example";
const STRIPE_KEY = "sk_test_omega_0123456789";
const WEBHOOK_SECRET = "whsec_omega_0123456789";
const TURNSTILE_SECRET = "0x4AAAAAAAkappa-secret";
const VALUATION_KEY = "valuation-key-omega";
const STEP_UP_SITE_KEY = "0x4AAAAAAAstep-up-site-key";

const HILUX = "2021-toyota-hilux-sr5-1234";
const EV6 = "2024-kia-ev6-77";
const CX5 = "2022-mazda-cx5-55";
const RANGER = "2020-ford-ranger-9";
const TAKEN = "2019-toyota-corolla-8";
const LATE = "2023-hyundai-i30-31";
const FAIL = "2022-kia-rio-41";
const HANG = "2022-kia-cerato-42";
const MG = "2023-mg-zs-5";
const STONIC = "2022-kia-stonic-71";
const SELTOS = "2022-kia-seltos-72";
/** Kappa's cars reserved without a deposit, beside the MG. */
const FREE = [81, 82, 83, 84, 85, 86].map((n) => `2024-mg-hs-${n}`);

let w, hook, stripe, turnstile, valuations;
const d1 = (sql) => w.d1(sql);
const location = (d) => [{ id: `${d}-hq`, name: `${d} HQ`, phone: "08 9123 4567", lead_email: null }];
const high = { per_client: 1000, per_dealer: 10000, window_secs: 3600 };
const limits = Object.fromEntries(["leads", "save_valuation", "checkout", "car_status", "valuation", "payment_webhook"].map((k) => [k, high]));

before(async () => {
  hook = await receiver(() => 200);
  stripe = await stripeStandIn({ secretKey: STRIPE_KEY });
  turnstile = await turnstileStandIn({ secret: TURNSTILE_SECRET, slowMs: 8000 });
  valuations = await receiver((req) => {
    if (req.json?.rego === "FAIL1") return 500;
    if (req.json?.rego === "HANG1") req.delayMs = 20_000;
    req.reply = JSON.stringify(
      req.json?.rego === "OLD1"
        ? { estimate: { low: 4000, high: 5000 }, vehicle: { year: 2012, make: "Holden", model: "Commodore" } }
        : { estimate: { low: 18000, high: 21000 }, vehicle: { year: 2021, make: "Mazda", model: "CX-5", variant: "Maxx" } },
    );
    return req.headers.authorization === `Bearer ${VALUATION_KEY}` ? 200 : 401;
  });
  const omega = edgeConfig("omega", "Omega & Sons Motors", [OMEGA], location("omega"), {
    dealership_id: 41,
    forms: { message_required: true, terms_required: true, success_path: "/thank-you", opt_in_text: OMEGA_OPT_IN },
    checkout: { enabled: true, path: "checkout", hold_hours: 48,
      payment: { provider: "stripe", secret_name: "STRIPE_KEY_OMEGA", webhook_secret_name: "STRIPE_HOOK_OMEGA" } },
    trade_in: { valuation: { url: `${valuations.url}/v1/value`, secret_name: "VALUATION_KEY_OMEGA" }, save_valuation: true },
    rate_limits: limits,
  });
  omega.leads = { email: null, webhook_url: `${hook.url}/hook` };
  const kappa = edgeConfig("kappa", "Kappa Cars", [KAPPA], location("kappa"), {
    forms: { message_required: true, captcha: { secret_name: "TURNSTILE_KAPPA" } },
    // Reserves without a deposit and has no watchlist: sign-in serves only
    // to confirm a hold's mobile.
    features: { watchlist: false, phone_reveal: true },
    checkout: { enabled: true, path: "buy-online", hold_hours: 24, payment: null, unpaid_holds: true },
    rate_limits: limits,
  });
  kappa.leads = { email: null, webhook_url: null };
  // No captcha of its own, a lead budget of 2 an hour: the platform's
  // step-up widget under a flood (the test frees the budget itself, so
  // nothing depends on how fast the machine is).
  const sigma = edgeConfig("sigma", "Sigma Motors", [SIGMA], location("sigma"), {
    forms: { message_required: true, success_path: "/thank-you" },
    rate_limits: { ...limits, leads: { per_client: 1000, per_dealer: 2, window_secs: 3600 } },
  });
  sigma.leads = { email: null, webhook_url: `${hook.url}/sigma` };
  const zeta = edgeConfig("zeta", "Zeta Autos", [ZETA], location("zeta"), {
    features: { watchlist: false, phone_reveal: false, trade_in: false },
    rate_limits: limits,
  });
  const car = (slug, over) => stockCar("omega", slug, over);
  w = await startWorker({
    kvSeed: [
      ...kvFor(omega, kappa, zeta, sigma),
      ...stockKv("omega", [
        car(HILUX),
        car(EV6, { make: "Kia", model: "EV6", car_type: "new", checkout: false, name: "2024 Kia EV6" }),
        car(CX5, { make: "Mazda", model: "CX-5" }),
        car(RANGER, { make: "Ford", model: "Ranger" }),
        car(TAKEN, { reserved: true, checkout: false }),
        car(LATE, { make: "Hyundai", model: "i30" }),
        car(FAIL, { make: "Kia", model: "Rio" }),
        car(HANG, { make: "Kia", model: "Cerato" }),
        car(STONIC, { make: "Kia", model: "Stonic" }),
        car(SELTOS, { make: "Kia", model: "Seltos" }),
      ]),
      ...stockKv("kappa", [MG, ...FREE].map((slug) => stockCar("kappa", slug, { make: "MG", model: "ZS", deposit: 0, car_type: "new" }))),
    ],
    vars: {
      SESSION_SECRET: "forms-test-secret",
      STRIPE_KEY_OMEGA: STRIPE_KEY,
      STRIPE_HOOK_OMEGA: WEBHOOK_SECRET,
      TURNSTILE_KAPPA: TURNSTILE_SECRET,
      VALUATION_KEY_OMEGA: VALUATION_KEY,
      STRIPE_API_BASE: stripe.base,
      TURNSTILE_VERIFY_URL: turnstile.url,
      // The platform's step-up widget (config/deploy.toml [edge] step_up_site_key).
      STEP_UP_TURNSTILE_SITE_KEY: STEP_UP_SITE_KEY,
      STEP_UP_TURNSTILE_SECRET: TURNSTILE_SECRET,
    },
  });
});

after(async () => {
  await w?.stop();
  await Promise.all([hook?.close(), stripe?.close(), turnstile?.close(), valuations?.close()]);
});

function post(path, origin, body, headers = {}) {
  const h = { "Content-Type": "application/json", ...headers };
  if (origin) h.Origin = origin;
  return fetch(`${w.base}${path}`, { method: "POST", headers: h, body: JSON.stringify(body), redirect: "manual" });
}

function formPost(origin, fields, headers = {}) {
  const h = { "Content-Type": "application/x-www-form-urlencoded", ...headers };
  if (origin) h.Origin = origin;
  return fetch(`${w.base}/api/leads`, { method: "POST", headers: h, body: new URLSearchParams(fields).toString(), redirect: "manual" });
}

async function json(res) {
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/, `JSON answer (status ${res.status})`);
  return res.json();
}

const contact = { name: "Jo Bloggs", email: "jo@example.com.au", phone: "0412 345 678", terms_conditions: true };

async function leadRow(id) {
  const [row] = await d1(`SELECT * FROM leads WHERE id = ${sqlString(id)}`);
  assert.ok(row, `lead ${id} in D1`);
  return { ...row, payload: JSON.parse(row.payload) };
}

async function delivered(leadId) {
  for (let i = 0; i < 100; i++) {
    const got = hook.got.find((r) => r.json?.lead_id === leadId);
    if (got) return got.json;
    await sleep(100);
  }
  assert.fail(`lead ${leadId} never reached the webhook`);
}

/** The ADF document as a DOM, failing on anything that is not well-formed XML. */
function adf(xml) {
  const doc = new new JSDOM().window.DOMParser().parseFromString(xml, "application/xml");
  assert.equal(doc.getElementsByTagName("parsererror").length, 0, `well-formed ADF:\n${xml}`);
  return doc;
}
const text = (el, tag) => el.getElementsByTagName(tag)[0]?.textContent;

describe("lead payload and vehicle filling", () => {
  test("the vehicle comes from the stock; the client's make and price are ignored; every field is stored", async () => {
    const res = await post("/api/leads", OMEGA, {
      ...contact, category: "enquiry", subcategory: "Vehicle Enquiry", message: "Still available?", car_id: 1234,
      make: "Ferrari", price: "$1", "Vehicle Model": "HiLux", stock_number: "S1234", car_type: "used",
      url: `${OMEGA}/cars/${HILUX}/`, lead_attributes: { visited_pages: ["/", `/cars/${HILUX}/`], linked_query_params: { utm_source: "google" } },
      opt_in: false, opt_in_finance: true, dealership_slug: "kappa", car_dealership_id: 999, source: "Website",
    }, { "User-Agent": "FormsTest/1.0" });
    assert.equal(res.status, 201);
    const { lead_id } = await json(res);
    const row = await leadRow(lead_id);
    assert.equal(row.dealer, "omega");
    assert.equal(row.subcategory, "Vehicle Enquiry");
    assert.equal(row.car_id, "1234");
    const p = row.payload;
    assert.deepEqual(p.vehicle, {
      verified: true, id: "1234", slug: HILUX, stock_number: "S1234", vin: "MR0HA3CD100123456", year: 2021,
      make: "Toyota", model: "HiLux", badge: "SR5", car_type: "used", status: "in_stock", price: 52990,
      price_text: "$52,990", km: 41000, url: `https://omega.example/cars/${HILUX}/`, location_id: "omega-hq",
      manufacturer_slug: "toyota",
    });
    assert.equal(p.claimed_vehicle, undefined, "the claims are not kept once the stock answered");
    assert.equal(p.dealership_slug, "omega", "from the Origin, not the body");
    assert.equal(p.car_dealership_id, 41, "from the configuration, not the body");
    assert.equal(p.source, "Website");
    assert.equal(p.user_agent, "FormsTest/1.0");
    assert.equal(p.location_id, "omega-hq", "the car's location");
    assert.equal(p.opt_in, false);
    assert.equal(p.opt_in_finance, true);
    assert.deepEqual(p.lead_attributes.linked_query_params, { utm_source: "google" });
    assert.equal(p.captcha, "off");
    assert.match(w.log, /claimed other facts than the stock \(ignored\): make: claimed "Ferrari"/);
  });

  test("the webhook gets the lead and its ADF, whose <vehicle> carries each stock field", async () => {
    const res = await post("/api/leads", OMEGA, { ...contact, category: "test_drive", car_slug: HILUX, last_name: "Bloggs",
      preferred_date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10), preferred_time: "10:30", postcode: "6000" });
    assert.equal(res.status, 201);
    const { lead_id } = await json(res);
    const body = await delivered(lead_id);
    assert.equal(body.lead.vehicle.stock_number, "S1234");
    assert.equal(body.lead.category, "test_drive");
    const doc = adf(body.adf_xml);
    const vehicle = doc.getElementsByTagName("vehicle")[0];
    assert.equal(vehicle.getAttribute("interest"), "test-drive");
    assert.equal(vehicle.getAttribute("status"), "used");
    assert.equal(text(vehicle, "id"), "1234");
    assert.equal(text(vehicle, "year"), "2021");
    assert.equal(text(vehicle, "make"), "Toyota");
    assert.equal(text(vehicle, "model"), "HiLux");
    assert.equal(text(vehicle, "vin"), "MR0HA3CD100123456");
    assert.equal(text(vehicle, "stock"), "S1234");
    assert.equal(text(vehicle, "trim"), "SR5");
    assert.equal(text(vehicle, "odometer"), "41000");
    const price = vehicle.getElementsByTagName("price")[0];
    assert.equal(price.textContent, "52990");
    assert.equal(price.getAttribute("currency"), "AUD");
    assert.equal(text(vehicle, "comments"), `https://omega.example/cars/${HILUX}/`);
    // ADF 1.0 order inside <vehicle>.
    const order = [...vehicle.children].map((e) => e.tagName);
    assert.deepEqual(order, ["id", "year", "make", "model", "vin", "stock", "trim", "odometer", "price", "comments"]);
    const customer = doc.getElementsByTagName("customer")[0];
    assert.deepEqual([...customer.getElementsByTagName("name")].map((n) => [n.getAttribute("part"), n.textContent]),
      [["first", "Jo Bloggs"], ["last", "Bloggs"]]);
    assert.equal(text(customer, "postalcode"), "6000");
    assert.match(text(customer, "earliestdate"), /^\d{4}-\d\d-\d\dT10:30:00$/);
    assert.equal(text(doc.getElementsByTagName("vendor")[0], "vendorname"), "Omega & Sons Motors");
    assert.equal(text(doc.getElementsByTagName("prospect")[0], "id"), lead_id);
  });

  test("marketing consent: only a ticked box is consent, recorded with the dealer's words, the time and the page, and sent to the CRM", async () => {
    const page = `${OMEGA}/cars/${HILUX}/`;
    const before = Date.now() - 1000;
    const ticked = await post("/api/leads", OMEGA, { ...contact, category: "enquiry", message: "Hi", car_id: 1234, url: page, opt_in: true,
      consent: { text: "a bot's words", given_at: "2001-01-01T00:00:00Z" } });
    assert.equal(ticked.status, 201);
    const { lead_id } = await json(ticked);
    const { payload } = await leadRow(lead_id);
    assert.equal(payload.opt_in, true);
    assert.equal(payload.consent.text, OMEGA_OPT_IN, "the dealer's words, never the client's");
    assert.equal(payload.consent.page, page);
    assert.equal(payload.consent.method, "ticked an unticked box on the website's form");
    const at = Date.parse(payload.consent.given_at);
    assert.ok(at >= before && at <= Date.now() + 1000, `given at the edge's time: ${payload.consent.given_at}`);
    const body = await delivered(lead_id);
    assert.deepEqual(body.lead.consent, payload.consent, "the CRM's JSON carries the record");
    const comments = text(adf(body.adf_xml).getElementsByTagName("customer")[0], "comments");
    assert.ok(comments.includes(`Opt-in: marketing yes`), comments);
    assert.ok(comments.includes(`Marketing consent: "${OMEGA_OPT_IN}" (ticked an unticked box on the website's form, ${payload.consent.given_at} on ${page})`), comments);

    // Left unticked (JSON sends false; a plain form post sends nothing for
    // an unticked box) or not sent at all: no consent.
    for (const [what, res] of [
      ["unticked", await post("/api/leads", OMEGA, { ...contact, category: "enquiry", message: "Hi", url: page, opt_in: false })],
      ["absent", await post("/api/leads", OMEGA, { ...contact, category: "enquiry", message: "Hi", url: page })],
    ]) {
      assert.equal(res.status, 201, what);
      const { payload: p } = await leadRow((await json(res)).lead_id);
      assert.equal(p.opt_in, false, what);
      assert.equal(p.consent, undefined, what);
    }
    const form = await formPost(OMEGA, { category: "enquiry", name: "No Script", email: "noscript-consent@example.com", phone: "0412 000 222",
      message: "Hi", terms_conditions: "on", opt_in: "true", url: page, website: "" });
    assert.equal(form.status, 303);
    const [row] = await d1(`SELECT payload FROM leads WHERE dealer = 'omega' AND payload LIKE '%noscript-consent@example.com%'`);
    const p = JSON.parse(row.payload);
    assert.equal(p.opt_in, true);
    assert.equal(p.consent.text, OMEGA_OPT_IN);
    assert.equal(p.consent.page, page);
  });

  test("a car no longer in the stock: stored unverified with the client's claims apart", async () => {
    const res = await post("/api/leads", OMEGA, { ...contact, category: "enquiry", message: "Hi", car_id: 555, make: "Kia", model: "Rio", year: 2020 });
    assert.equal(res.status, 201);
    const { payload } = await leadRow((await json(res)).lead_id);
    assert.deepEqual(payload.vehicle, { verified: false, id: "555" });
    assert.deepEqual(payload.claimed_vehicle, { make: "Kia", model: "Rio", year: "2020" });
  });

  test("an offer needs its amount; a bad date is named", async () => {
    const res = await post("/api/leads", OMEGA, { ...contact, category: "offer", car_id: 1234, preferred_date: "2001-01-01" });
    assert.equal(res.status, 400);
    const body = await json(res);
    assert.equal(body.fields.offer_amount, "Please enter your offer amount.");
    assert.equal(body.fields.preferred_date, "Please choose a date from today on, within a year.");
    const ok = await post("/api/leads", OMEGA, { ...contact, category: "offer", car_id: 1234, offer_amount: "$49,500" });
    assert.equal(ok.status, 201);
    const doc = adf((await delivered((await json(ok)).lead_id)).adf_xml);
    const offer = [...doc.getElementsByTagName("price")].find((p) => p.getAttribute("type") === "offer");
    assert.equal(offer.textContent, "49500");
  });
});

describe("form posts without JavaScript", () => {
  test("a valid form post is stored and answered 303 to the dealer's success page", async () => {
    const res = await formPost(OMEGA, {
      category: "test_drive", name: "Form Poster", email: "form@example.com", phone: "0412 000 111",
      terms_conditions: "on", car_id: "1234", url: `${OMEGA}/cars/${HILUX}/`, website: "",
    }, { Referer: `${OMEGA}/cars/${HILUX}/` });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "https://omega.example/thank-you?category=test_drive&car_type=used");
    const rows = await d1(`SELECT payload FROM leads WHERE dealer = 'omega' AND payload LIKE '%form@example.com%'`);
    assert.equal(rows.length, 1);
    const p = JSON.parse(rows[0].payload);
    assert.equal(p.terms_conditions, true);
    assert.equal(p.vehicle.make, "Toyota");
  });

  test("an invalid form post gets an accessible 422 page listing every problem, linking back to the form", async () => {
    const res = await formPost(OMEGA, { category: "enquiry", name: "", email: "nope", phone: "12" },
      { Referer: `${OMEGA}/contact-us/?x=1#form` });
    assert.equal(res.status, 422);
    assert.match(res.headers.get("content-type"), /^text\/html/);
    const csp = res.headers.get("content-security-policy");
    assert.match(csp, /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'/);
    assert.doesNotMatch(csp, /script|unsafe/);
    const html = await res.text();
    const doc = new JSDOM(html).window.document;
    assert.equal(doc.documentElement.lang, "en-AU");
    assert.equal(doc.querySelector("h1").textContent, "Please fix the following errors:");
    const items = [...doc.querySelectorAll("li")].map((li) => li.textContent);
    assert.deepEqual(items, [
      "Email: Please enter a valid email address, e.g. name@example.com.au.",
      "Message: Please enter a message.",
      "Name: Please enter your name.",
      "Phone: Please enter an Australian phone number, e.g. 0412 345 678 or (02) 9876 5432.",
      "Terms of use: *You must agree to the terms of use before submitting.",
    ]);
    assert.equal(doc.querySelector("a").getAttribute("href"), `${OMEGA}/contact-us/?x=1`);
    assert.equal(doc.querySelectorAll("script").length, 0);
    // The style block is the one the policy allows.
    const { createHash } = await import("node:crypto");
    const style = doc.querySelector("style").textContent;
    assert.ok(csp.includes(`'sha256-${createHash("sha256").update(style).digest("base64")}'`));

    const elsewhere = await formPost(OMEGA, { category: "enquiry" }, { Referer: "https://evil.example/phish" });
    assert.equal(new JSDOM(await elsewhere.text()).window.document.querySelector("a").getAttribute("href"), `${OMEGA}/`);
  });

  test("hostile text is escaped in the page", async () => {
    const res = await formPost(OMEGA, { category: "<script>alert(1)</script>", ...{ name: "x" } });
    const html = await res.text();
    assert.doesNotMatch(html, /<script>/);
  });

  test("a form post from a foreign origin is a 403 page and stores nothing", async () => {
    const res = await formPost("https://evil.example", { category: "general", name: "x", email: "foreign@example.com", phone: "0412345678", message: "x", terms_conditions: "on" });
    assert.equal(res.status, 403);
    assert.match(res.headers.get("content-type"), /^text\/html/);
    assert.match(await res.text(), /dealer&#39;s own website/);
    assert.equal((await d1("SELECT count(*) AS n FROM leads WHERE payload LIKE '%foreign@example.com%'"))[0].n, 0);
  });

  test("the honeypot: a fake success, nothing stored or delivered, the hit counted", async () => {
    const hooks = hook.got.length;
    const form = await formPost(OMEGA, { category: "general", name: "Bot", email: "bot@example.com", phone: "0412345678",
      message: "buy now", terms_conditions: "on", website: "http://spam.example" });
    assert.equal(form.status, 303);
    assert.equal(form.headers.get("location"), "https://omega.example/thank-you?category=general");
    const api = await post("/api/leads", OMEGA, { ...contact, email: "bot2@example.com", category: "general", message: "x", website: "spam" });
    assert.equal(api.status, 201);
    const { lead_id } = await json(api);
    assert.match(lead_id, /^[0-9a-f-]{36}$/);
    const [row] = await d1(`SELECT (SELECT count(*) FROM leads WHERE id = ${sqlString(lead_id)} OR payload LIKE '%bot%@example.com%') AS stored,
      (SELECT hits FROM honeypot_hits WHERE dealer = 'omega' AND route = 'leads') AS hits`);
    assert.deepEqual(row, { stored: 0, hits: 2 });
    const barrier = await w.deliveriesRun(OMEGA);
    const since = hook.got.slice(hooks);
    assert.ok(since.some((r) => r.json?.lead_id === barrier), "the barrier lead came through this receiver");
    assert.deepEqual(since.filter((r) => /bot2?@example\.com/.test(JSON.stringify(r.json ?? {}))), [], "nothing delivered of the bot's posts");
  });
});

describe("Turnstile", () => {
  const lead = (extra = {}) => ({ ...contact, category: "general", message: "Hello", ...extra });
  /** A lead of this test's own that passed the captcha (a fresh single-use token): its id. */
  const verifiedLead = async (key) => {
    const res = await post("/api/leads", KAPPA, lead({ "cf-turnstile-response": `pass:kappa.example:${key}`, idempotency_key: key }));
    assert.equal(res.status, 201, `the verified lead ${key}`);
    return (await json(res)).lead_id;
  };

  test("no token, a refused token or a token made for another site: 403, nothing stored", async () => {
    for (const token of [undefined, "bogus", "pass:evil.example"]) {
      const res = await post("/api/leads", KAPPA, lead({ email: "robot@example.com", ...(token ? { "cf-turnstile-response": token } : {}) }));
      assert.equal(res.status, 403, `token ${token}`);
      assert.equal((await json(res)).error, "We could not check that you are not a robot: please tick the box and send again.");
    }
    assert.equal((await d1("SELECT count(*) AS n FROM leads WHERE payload LIKE '%robot@example.com%'"))[0].n, 0);
    const form = await formPost(KAPPA, { category: "general", name: "x", email: "x@example.com", phone: "0412345678", message: "x", terms_conditions: "on" });
    assert.equal(form.status, 403);
    assert.match(await form.text(), /not a robot/);
  });

  test("a valid token passes once; siteverify is asked with the secret, the token, the client and an idempotency key", async () => {
    const res = await post("/api/leads", KAPPA, lead({ "cf-turnstile-response": "pass:kappa.example", idempotency_key: "ts-1" }),
      { "CF-Connecting-IP": "203.0.113.7" });
    assert.equal(res.status, 201);
    const first = (await json(res)).lead_id;
    const call = turnstile.calls.at(-1);
    assert.equal(call.form.secret, TURNSTILE_SECRET);
    assert.equal(call.form.response, "pass:kappa.example");
    assert.equal(call.form.remoteip, "203.0.113.7");
    assert.match(call.form.idempotency_key, /^[0-9a-f-]{36}$/);
    const { payload } = await leadRow(first);
    assert.equal(payload.captcha, "verified");
    assert.equal(JSON.stringify(payload).includes("pass:kappa.example"), false, "the token is not stored");
    const reused = await post("/api/leads", KAPPA, lead({ "cf-turnstile-response": "pass:kappa.example" }));
    assert.equal(reused.status, 403, "a token works once");
  });

  test("a retry of the same lead is answered without a new token", async () => {
    const first = await verifiedLead("ts-retry");
    const calls = turnstile.calls.length;
    const res = await post("/api/leads", KAPPA, lead({ "cf-turnstile-response": "pass:kappa.example:ts-retry", idempotency_key: "ts-retry" }));
    assert.equal(res.status, 200);
    assert.equal((await json(res)).lead_id, first);
    assert.equal(turnstile.calls.length, calls);
  });

  test("a later step shows its flow's token: then it needs no captcha, is linked and counted once", async () => {
    const shopper = { "CF-Connecting-IP": "203.0.113.50" };
    const first = await json(await post("/api/leads", KAPPA,
      lead({ category: "trade_in", "cf-turnstile-response": "pass:kappa.example:flow-1", idempotency_key: "flow-1" }), shopper));
    assert.match(first.flow_token, /^f1\./, "the answer carries the next step's token");
    const step = (extra, headers = shopper) => post("/api/leads", KAPPA,
      lead({ category: "trade_in", subcategory: "2. Vehicle Details", lead_id: first.lead_id, ...extra }), headers);
    const calls = turnstile.calls.length;
    const two = await step({ flow_token: first.flow_token, idempotency_key: "flow-2" });
    assert.equal(two.status, 201);
    const second = await json(two);
    const row = await leadRow(second.lead_id);
    assert.equal(row.payload.captcha, "not_required");
    assert.equal(row.payload.previous_lead_id, first.lead_id);
    assert.deepEqual([row.flow_of, row.flow_step], [first.lead_id, 1]);
    assert.equal(turnstile.calls.length, calls, "no siteverify for a proven step");
    // A retry of the step (same key) is the same lead; the step sent again under another key is refused.
    const retry = await step({ flow_token: first.flow_token, idempotency_key: "flow-2" });
    assert.equal(retry.status, 200);
    assert.equal((await json(retry)).lead_id, second.lead_id);
    const replay = await step({ flow_token: first.flow_token, idempotency_key: "flow-2-again" });
    assert.equal(replay.status, 409);
    // Step 2's answer admits step 3.
    const three = await step({ subcategory: "3. Offer Accepted", flow_token: second.flow_token });
    assert.equal(three.status, 201);
    assert.equal((await leadRow((await json(three)).lead_id)).flow_step, 2);
  });

  test("naming a real lead proves nothing: no token, a forged one, another client's or another form's is judged as a first lead", async () => {
    const shopper = { "CF-Connecting-IP": "203.0.113.60" };
    const first = await json(await post("/api/leads", KAPPA,
      lead({ category: "trade_in", "cf-turnstile-response": "pass:kappa.example:flow-x", idempotency_key: "flow-x" }), shopper));
    const forged = first.flow_token.replace(/\.[0-9a-f]{64}$/, `.${"0".repeat(64)}`);
    const stored = (await d1("SELECT count(*) AS n FROM leads WHERE dealer = 'kappa'"))[0].n;
    for (const [why, body, headers] of [
      ["no token", { category: "trade_in" }, shopper],
      ["a forged token", { category: "trade_in", flow_token: forged }, shopper],
      ["another client", { category: "trade_in", flow_token: first.flow_token }, { "CF-Connecting-IP": "198.51.100.61" }],
      ["another form", { category: "general", flow_token: first.flow_token }, shopper],
    ]) {
      const res = await post("/api/leads", KAPPA, lead({ lead_id: first.lead_id, email: "stepper@example.com", ...body }), headers);
      assert.equal(res.status, 403, `${why}: the captcha is asked for`);
    }
    assert.equal((await d1("SELECT count(*) AS n FROM leads WHERE dealer = 'kappa'"))[0].n, stored, "nothing stored");
    // With a solved captcha such a post is a lead of its own, not linked to the lead it named.
    const own = await post("/api/leads", KAPPA,
      lead({ lead_id: first.lead_id, "cf-turnstile-response": "pass:kappa.example:own" }), { "CF-Connecting-IP": "198.51.100.61" });
    assert.equal(own.status, 201);
    const row = await leadRow((await json(own)).lead_id);
    assert.equal(row.payload.previous_lead_id, undefined);
    assert.equal(row.flow_of, null);
  });

  test("siteverify too slow: the lead is kept, marked unverified", async () => {
    const started = Date.now();
    const res = await post("/api/leads", KAPPA, lead({ "cf-turnstile-response": "slow" }));
    assert.equal(res.status, 201);
    const took = Date.now() - started;
    assert.ok(took >= 4500 && took < 7500, `answered after the 5 s deadline (${took} ms)`);
    assert.equal((await leadRow((await json(res)).lead_id)).payload.captcha, "unverified");
  });
});

describe("step-up under a flood (a dealer without a captcha of its own)", () => {
  const sent = (body) => ({ ...contact, category: "general", message: "Is it still available?", ...body });

  test("budget spent: forms are asked for the platform widget; a shopper who solves it is delivered at once; no-JS and widget-less leads are held, the likely-real released first", async () => {
    // Within the budget (2 an hour): delivered as ever, with a flow token.
    const first = await json(await post("/api/leads", SIGMA, sent({ category: "trade_in", email: "one@example.com" })));
    assert.equal((await post("/api/leads", SIGMA, sent({ email: "two@example.com" }))).status, 201);
    // Spent: a JSON post without a token is refused with the widget's key; nothing stored.
    const asked = await post("/api/leads", SIGMA, sent({ email: "bot@example.com" }));
    assert.equal(asked.status, 403);
    const answer = await json(asked);
    assert.equal(answer.captcha_site_key, STEP_UP_SITE_KEY);
    assert.match(answer.error, /tick the box/);
    assert.equal((await d1("SELECT count(*) AS n FROM leads WHERE payload LIKE '%bot@example.com%'"))[0].n, 0);
    // The shopper's widget could not load: held, never lost.
    const widgetless = await json(await post("/api/leads", SIGMA, sent({ email: "noscript-widget@example.com", captcha_unavailable: true })));
    // A form posted without JavaScript: held, the success page as ever.
    const form = await formPost(SIGMA, { category: "general", name: "Form Poster", email: "form@example.com", phone: "0412345678", message: "Hi", terms_conditions: "on" });
    assert.equal(form.status, 303);
    // A later step of the first shopper's flow, whose widget failed: held too, but it continues a real flow.
    const later = await json(await post("/api/leads", SIGMA, sent({ category: "trade_in", email: "one@example.com", lead_id: first.lead_id,
      flow_token: first.flow_token, captcha_unavailable: true, subcategory: "2. Vehicle Details" })));
    const held = await d1("SELECT id, flow_of FROM leads WHERE dealer = 'sigma' AND delivery_status = 'held' ORDER BY created_at");
    assert.equal(held.length, 3);
    // A shopper who solves the platform widget: verified, queued at once, ahead of the held ones.
    const solved = await post("/api/leads", SIGMA, sent({ email: "solver@example.com", "cf-turnstile-response": "pass:sigma.example:solver" }));
    assert.equal(solved.status, 201);
    const solvedId = (await json(solved)).lead_id;
    const row = await leadRow(solvedId);
    assert.deepEqual([row.payload.captcha, row.delivery_status === "held"], ["verified", false]);
    assert.equal((await delivered(solvedId)).lead_id, solvedId, "reached the CRM without waiting for the budget");
    assert.equal(turnstile.calls.at(-1).form.secret, TURNSTILE_SECRET, "checked with the platform's secret");
    // The cron releases the held ones as the budget has room, likely-real first: the
    // window's end is simulated by clearing sigma's budget counter (room for 2).
    const freeBudget = () => d1("DELETE FROM rate_counters WHERE key LIKE 'leads/%:sigma:d'");
    const stillHeld = async () => (await d1("SELECT id FROM leads WHERE dealer = 'sigma' AND delivery_status = 'held'")).map((r) => r.id);
    await freeBudget();
    await w.cron();
    const formId = held.find((r) => r.id !== later.lead_id && r.id !== widgetless.lead_id).id;
    assert.deepEqual(await stillHeld(), [formId], "the flow's later step and then the oldest released first");
    await freeBudget();
    await w.cron();
    assert.deepEqual(await stillHeld(), []);
    for (const r of held) assert.equal((await delivered(r.id)).lead_id, r.id, "every held lead delivered");
    assert.equal((await leadRow(widgetless.lead_id)).payload.captcha_unavailable, true, "the dealer sees why");
  });
});

describe("trade-in valuation", () => {
  const value = (origin, body) => post("/api/trade-in/valuation", origin, body);

  test("the dealer's service is asked with the shopper's answers and its estimate answered", async () => {
    const res = await value(OMEGA, { rego: "abc 123", regoState: "qld", kms: "42,000", adjustmentAnswers: { accident: "no", owners: 2 } });
    assert.equal(res.status, 200);
    assert.deepEqual(await json(res), {
      estimate: { low: 18000, high: 21000, currency: "AUD" }, reason: "valued",
      vehicle: { year: 2021, make: "Mazda", model: "CX-5", variant: "Maxx" },
    });
    const asked = valuations.got.at(-1);
    assert.equal(asked.url, "/v1/value");
    assert.equal(asked.headers.authorization, `Bearer ${VALUATION_KEY}`);
    assert.deepEqual(asked.json, { dealer: "omega", rego: "ABC123", rego_state: "QLD", kms: 42000, adjustment_answers: { accident: "no", owners: 2 } });
  });

  test("no estimate over 100,000 km or 7 years, without asking the service", async () => {
    const asked = valuations.got.length;
    assert.deepEqual(await json(await value(OMEGA, { rego: "ABC123", regoState: "QLD", kms: 100_001 })), { estimate: null, reason: "too_many_km" });
    assert.deepEqual(await json(await value(OMEGA, { trade_in_year: 2015, trade_in_make: "Mazda", trade_in_model: "3", kms: 5000 })),
      { estimate: null, reason: "too_old" });
    assert.equal(valuations.got.length, asked);
    // The rego reveals an old car: no estimate whatever the service says.
    const old = await json(await value(OMEGA, { rego: "OLD1", regoState: "WA", kms: 5000 }));
    assert.equal(old.estimate, null);
    assert.equal(old.reason, "too_old");
  });

  test("a failing or hanging service: no estimate, answered within the 5 s deadline", async () => {
    assert.deepEqual(await json(await value(OMEGA, { rego: "FAIL1", regoState: "NSW", kms: 10 })), { estimate: null, reason: "unavailable" });
    const started = Date.now();
    assert.deepEqual(await json(await value(OMEGA, { rego: "HANG1", regoState: "NSW", kms: 10 })), { estimate: null, reason: "unavailable" });
    assert.ok(Date.now() - started < 7000);
  });

  test("without a service: none, for the dealer to price; trade-in off: 404; bad answers named", async () => {
    assert.deepEqual(await json(await value(KAPPA, { rego: "ABC123", regoState: "QLD", kms: 10 })), { estimate: null, reason: "no_service" });
    assert.equal((await value(ZETA, { rego: "ABC123", regoState: "QLD", kms: 10 })).status, 404);
    const bad = await value(OMEGA, { rego: "ABC!", kms: -1 });
    assert.equal(bad.status, 400);
    const { fields } = await json(bad);
    assert.ok(fields.rego && fields.kms);
  });

  test("the flow: lead 1, valuation saved with it, then 3. Offer Accepted, all linked and in the ADF", async () => {
    const one = await json(await post("/api/leads", OMEGA, { ...contact, category: "trade_in", subcategory: "1. Vehicle Details",
      car_id: 1234, rego: "ABC123", regoState: "QLD", kms: 42000, trade_in_make: "Mazda", trade_in_model: "CX-5", trade_in_year: 2021 }));
    const valuation = await json(await value(OMEGA, { rego: "ABC123", regoState: "QLD", kms: 42000, lead_id: one.lead_id,
      adjustmentAnswers: { accident: "no" } }));
    assert.equal(valuation.reason, "valued");
    const saved = await post("/api/miscellaneous", OMEGA, { column_name: "valuation", lead_id: one.lead_id, flow_token: one.flow_token, ...valuation });
    assert.equal(saved.status, 201);
    // Naming the lead without its flow's token attaches nothing.
    const unproven = await post("/api/miscellaneous", OMEGA, { column_name: "valuation", lead_id: one.lead_id, flow_token: "f1.x", ...valuation });
    assert.equal(unproven.status, 400);
    const [misc] = await d1(`SELECT payload FROM miscellaneous WHERE lead_id = ${sqlString(one.lead_id)}`);
    assert.equal(JSON.parse(misc.payload).estimate.low, 18000);
    const three = await json(await post("/api/leads", OMEGA, { ...contact, category: "trade_in", subcategory: "3. Offer Accepted",
      lead_id: one.lead_id, flow_token: one.flow_token, offer_accepted: true, form_completed: true, car_id: 1234, rego: "ABC123", regoState: "QLD", kms: 42000,
      adjustmentAnswers: { accident: "no" } }));
    const row = await leadRow(three.lead_id);
    assert.equal(row.subcategory, "3. Offer Accepted");
    assert.equal(row.payload.previous_lead_id, one.lead_id);
    assert.equal(row.payload.offer_accepted, true);
    const doc = adf((await delivered(three.lead_id)).adf_xml);
    const [buy, trade] = doc.getElementsByTagName("vehicle");
    assert.equal(buy.getAttribute("interest"), "buy");
    assert.equal(text(buy, "make"), "Toyota");
    assert.equal(trade.getAttribute("interest"), "trade-in");
    assert.equal(text(trade, "odometer"), "42000");
    assert.match(text(trade, "comments"), /Rego: ABC123 \(QLD\)\naccident: no\nOffer accepted: yes/);
    // Valuations are kept only where the dealer asks for it.
    assert.equal((await post("/api/miscellaneous", KAPPA, { column_name: "valuation" })).status, 404);
  });
});

describe("reserve online", () => {
  const webhook = () => `${w.base}/api/checkout/webhook`;
  /** A hold by `who` (its `ip`, if any, is the client's address, not a body field). */
  const hold = (origin, slug, who = contact, extra = {}, cookie = undefined) => {
    const { ip, ...person } = who;
    const headers = { ...(ip ? { "CF-Connecting-IP": ip } : {}), ...(cookie ? { Cookie: cookie } : {}) };
    return post("/api/checkout/hold", origin, { car_slug: slug, ...person, ...extra }, headers);
  };
  /** Signs `who` in at Kappa (captcha on) with the code texted to their mobile: the session cookie. */
  let codes = 0;
  const signedIn = async (who) => {
    const headers = who.ip ? { "CF-Connecting-IP": who.ip } : {};
    const before = w.log.length;
    const token = `pass:kappa.example:code-${++codes}`;
    const asked = await post("/api/auth/request-code", KAPPA, { phone_number: who.phone, "cf-turnstile-response": token }, headers);
    assert.equal(asked.status, 202, await asked.clone().text());
    const code = await w.smsCode(who.phone, { dealer: "kappa", from: before });
    const res = await post("/api/auth/verify", KAPPA, { phone_number: who.phone, code }, headers);
    assert.equal(res.status, 200, await res.clone().text());
    return res.headers.get("set-cookie").split(";")[0];
  };
  const status = async (slug, origin = OMEGA) => {
    const res = await fetch(`${w.base}/api/cars/${slug}/status`, { headers: { Origin: origin } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "public, max-age=5");
    return res.json();
  };
  const sessionOf = (url) => url.split("/pay/")[1];
  const iso = (secs) => new Date(secs * 1000).toISOString().replace(".000Z", "Z");
  /** Another shopper: own name, e-mail, mobile and address. */
  const other = (n) => ({ ...contact, name: `Shopper ${n}`, email: `shopper${n}@example.com`, phone: `04${String(20_000_000 + n)}`, ip: `198.51.100.${n}` });
  let hilux;

  test("a hold starts a Stripe Checkout Session for the deposit, in the provider's own format", async () => {
    const res = await hold(OMEGA, HILUX);
    assert.equal(res.status, 201);
    hilux = await json(res);
    assert.match(hilux.hold_id, /^[0-9a-f-]{36}$/);
    assert.match(hilux.checkout_url, new RegExp(`^${stripe.base}/pay/cs_test_`));
    assert.equal(hilux.amount, 20000);
    assert.equal(hilux.state, "pending");
    const call = stripe.state.requests.at(-1);
    assert.equal(call.headers.authorization, `Bearer ${STRIPE_KEY}`);
    assert.equal(call.headers["content-type"], "application/x-www-form-urlencoded");
    assert.equal(call.headers["idempotency-key"], `hold-${hilux.hold_id}`);
    const f = call.form;
    assert.equal(f.mode, "payment");
    assert.equal(f["line_items[0][price_data][currency]"], "aud");
    assert.equal(f["line_items[0][price_data][unit_amount]"], "20000");
    assert.equal(f["line_items[0][price_data][product_data][name]"], "Refundable deposit: 2021 Toyota HiLux SR5 (stock S1234)");
    assert.equal(f["metadata[hold_id]"], hilux.hold_id);
    assert.equal(f["metadata[dealer]"], "omega");
    assert.equal(f.success_url, `${OMEGA}/cars/${HILUX}/checkout/?hold_id=${hilux.hold_id}&payment=success`);
    assert.equal(f.cancel_url, `${OMEGA}/cars/${HILUX}/checkout/?hold_id=${hilux.hold_id}&payment=cancelled`);
    const [row] = await d1(`SELECT state, amount_cents, session_id, expires_at, expires_at - created_at AS pay_secs FROM checkout_holds WHERE id = ${sqlString(hilux.hold_id)}`);
    assert.equal(row.state, "pending");
    assert.equal(row.amount_cents, 20000);
    assert.equal(row.session_id, sessionOf(hilux.checkout_url));
    assert.equal(row.pay_secs, 36 * 60, "31 minutes to pay and 5 minutes' grace for the webhook");
    assert.deepEqual(await status(HILUX), { slug: HILUX, reserved: false, pending: true, held_until: iso(row.expires_at) });
  });

  test("the same shopper gets their hold back; another shopper is told someone is paying", async () => {
    const again = await hold(OMEGA, HILUX);
    assert.equal(again.status, 200);
    assert.equal((await json(again)).hold_id, hilux.hold_id);
    const someone = await hold(OMEGA, HILUX, other(1));
    assert.equal(someone.status, 409);
    assert.match((await json(someone)).error, /Someone is reserving this car right now/);
  });

  test("webhooks with a bad, stale or foreign signature are refused and change nothing", async () => {
    const evt = stripe.event("checkout.session.completed", sessionOf(hilux.checkout_url), { payment_status: "paid", status: "complete" });
    const bad = await stripe.deliver(webhook(), evt, "whsec_wrong");
    assert.equal(bad.res.status, 400);
    assert.match((await bad.res.json()).error, /does not match/);
    const stale = await stripe.deliver(webhook(), evt, WEBHOOK_SECRET, { t: Math.floor(Date.now() / 1000) - 600 });
    assert.equal(stale.res.status, 400);
    assert.match((await stale.res.json()).error, /too old/);
    const none = await fetch(webhook(), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(evt) });
    assert.equal(none.status, 400);
    const tampered = JSON.stringify({ ...evt, data: { object: { ...evt.data.object, amount_total: 1 } } });
    const forged = await fetch(webhook(), { method: "POST", headers: { "Stripe-Signature": stripeSignature(JSON.stringify(evt), WEBHOOK_SECRET) }, body: tampered });
    assert.equal(forged.status, 400);
    assert.equal((await d1(`SELECT state FROM checkout_holds WHERE id = ${sqlString(hilux.hold_id)}`))[0].state, "pending");
  });

  test("payment confirmed: reserved for hold_hours, the Reserved status, one Reserve lead to the dealer, replays change nothing", async () => {
    const { res, event } = await stripe.complete(webhook(), sessionOf(hilux.checkout_url), WEBHOOK_SECRET);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { received: true, outcome: "reserved" });
    const [row] = await d1(`SELECT state, paid_at, expires_at, lead_id FROM checkout_holds WHERE id = ${sqlString(hilux.hold_id)}`);
    assert.equal(row.state, "reserved");
    assert.equal(row.expires_at - row.paid_at, 48 * 3600);
    const s = await status(HILUX);
    assert.equal(s.reserved, true);
    assert.equal(s.pending, false);
    assert.equal(s.held_until, iso(row.expires_at));
    const lead = await leadRow(row.lead_id);
    assert.equal(lead.category, "reserve");
    assert.equal(lead.subcategory, "Reserve");
    assert.equal(lead.payload.hold_id, hilux.hold_id);
    assert.equal(lead.payload.vehicle.stock_number, "S1234");
    assert.match(lead.payload.message, /^Reservation deposit of \$200\.00 paid online\./);
    const doc = adf((await delivered(row.lead_id)).adf_xml);
    assert.match(text(doc.getElementsByTagName("customer")[0], "comments"), /^Form: reserve \(Reserve\)/);
    // Stripe retries: the same event again is acknowledged and changes nothing.
    const replay = await stripe.deliver(webhook(), event, WEBHOOK_SECRET);
    assert.equal(replay.res.status, 200);
    assert.deepEqual(await replay.res.json(), { received: true, duplicate: true });
    assert.equal((await d1(`SELECT count(*) AS n FROM leads WHERE category = 'reserve' AND payload LIKE ${sqlString(`%${hilux.hold_id}%`)}`))[0].n, 1);
    const late = await hold(OMEGA, HILUX, other(2));
    assert.equal(late.status, 409);
    assert.match((await json(late)).error, /just been reserved/);
  });

  test("a double reservation is refused: of eight shoppers at once, exactly one holds the car", async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => hold(OMEGA, CX5, other(10 + i))));
    const statuses = answers.map((r) => r.status).sort();
    assert.deepEqual(statuses, [201, 409, 409, 409, 409, 409, 409, 409]);
    const rows = await d1(`SELECT state FROM checkout_holds WHERE car_slug = ${sqlString(CX5)}`);
    assert.deepEqual(rows.map((r) => r.state), ["pending"]);
  });

  test("an expired session releases the car; the cron releases a lapsed hold", async () => {
    const first = await json(await hold(OMEGA, RANGER, other(30)));
    const { res } = await stripe.expire(webhook(), sessionOf(first.checkout_url), WEBHOOK_SECRET);
    assert.deepEqual(await res.json(), { received: true, outcome: "released" });
    assert.equal((await status(RANGER)).pending, false);
    const second = await json(await hold(OMEGA, RANGER, other(31)));
    assert.equal(second.state, "pending");
    await d1(`UPDATE checkout_holds SET expires_at = 1 WHERE id = ${sqlString(second.hold_id)}`);
    await w.cron();
    let state;
    for (let i = 0; i < 50 && state !== "expired"; i++) {
      [{ state }] = await d1(`SELECT state FROM checkout_holds WHERE id = ${sqlString(second.hold_id)}`);
      if (state !== "expired") await sleep(100);
    }
    assert.equal(state, "expired");
    assert.deepEqual(await status(RANGER), { slug: RANGER, reserved: false, pending: false, held_until: null });
  });

  test("paid after the hold lapsed while someone else holds the car: a refund-needed lead, no double reservation", async () => {
    const a = await json(await hold(OMEGA, LATE, other(40)));
    await d1(`UPDATE checkout_holds SET expires_at = 1 WHERE id = ${sqlString(a.hold_id)}`);
    const b = await json(await hold(OMEGA, LATE, other(41)));
    assert.equal(b.state, "pending", "the lapsed hold no longer blocks the car");
    const { res } = await stripe.complete(webhook(), sessionOf(a.checkout_url), WEBHOOK_SECRET);
    assert.equal((await res.json()).outcome, "refund needed: the car is held by someone else");
    const rows = await d1(`SELECT id, state, lead_id FROM checkout_holds WHERE car_slug = ${sqlString(LATE)} ORDER BY created_at`);
    assert.deepEqual(rows.map((r) => r.state).sort(), ["pending", "refund_needed"]);
    const refund = rows.find((r) => r.state === "refund_needed");
    assert.equal((await leadRow(refund.lead_id)).subcategory, "Reserve - refund needed");
  });

  test("cars that cannot be reserved, and dealers that take no reservations", async () => {
    const ev6 = await hold(OMEGA, EV6);
    assert.equal(ev6.status, 422);
    assert.match((await json(ev6)).error, /cannot be reserved online/);
    assert.equal((await hold(OMEGA, TAKEN)).status, 409);
    assert.equal((await hold(OMEGA, "no-such-car-1")).status, 404);
    assert.equal((await hold(ZETA, HILUX)).status, 404);
    const bad = await post("/api/checkout/hold", OMEGA, { car_slug: HILUX, name: "", email: "x", phone: "1" });
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys((await json(bad)).fields).sort(), ["email", "name", "phone", "terms_conditions"]);
    assert.equal((await fetch(`${w.base}/api/cars/no-such-car-1/status`, { headers: { Origin: OMEGA } })).status, 404);
    assert.deepEqual(await status(TAKEN), { slug: TAKEN, reserved: true, pending: false, held_until: null });
  });

  test("the payment provider failing or hanging: 503, the car released at once", async () => {
    stripe.state.failNext = 1;
    const failed = await hold(OMEGA, FAIL, other(49));
    assert.equal(failed.status, 503);
    assert.match((await json(failed)).error, /payment service is unavailable/);
    assert.equal((await hold(OMEGA, FAIL, other(50))).status, 201, "the failed hold did not keep the car");
    stripe.state.hangNext = 1;
    const started = Date.now();
    const hung = await hold(OMEGA, HANG, other(51));
    assert.equal(hung.status, 503);
    assert.ok(Date.now() - started < 11_000, "within the payment call's deadline");
    assert.equal((await status(HANG)).pending, false);
  });

  test("no deposit: the mobile confirmed by the sign-in code first, then reserved at once, no payment, the dealer told", async () => {
    const captcha = (n) => ({ "cf-turnstile-response": `pass:kappa.example:hold-${n}` });
    const count = async () => (await d1("SELECT count(*) AS n FROM checkout_holds WHERE dealer = 'kappa'"))[0].n;
    const before = await count();
    // Signed out: nothing is held, the shopper is asked to confirm the mobile.
    const signedOut = await hold(KAPPA, MG, contact, captcha(1));
    assert.equal(signedOut.status, 401);
    assert.match((await json(signedOut)).error, /first confirm your mobile number/);
    const cookie = await signedIn(contact);
    // Signed in as one mobile, holding with another: refused on the phone field.
    const another = await hold(KAPPA, MG, { ...contact, phone: "0499 111 222" }, captcha(2), cookie);
    assert.equal(another.status, 400);
    assert.match((await json(another)).fields.phone, /mobile number you confirmed/);
    // A cookie of another dealer's (or a forged one) is no session.
    const forged = await hold(KAPPA, MG, contact, captcha(3), "dg_session=v1.kappa.0412345678.99999999999.00");
    assert.equal(forged.status, 401);
    assert.equal(await count(), before, "no refused hold is stored");

    const res = await hold(KAPPA, MG, contact, captcha(4), cookie);
    assert.equal(res.status, 201);
    const body = await json(res);
    assert.equal(body.state, "reserved");
    assert.equal(body.amount, 0);
    assert.equal(body.checkout_url, `${KAPPA}/cars/${MG}/buy-online/?hold_id=${body.hold_id}&payment=success`);
    const [row] = await d1(`SELECT state, lead_id, expires_at - created_at AS held FROM checkout_holds WHERE id = ${sqlString(body.hold_id)}`);
    assert.equal(row.held, 24 * 3600);
    assert.match((await leadRow(row.lead_id)).payload.message, /^Reserved online \(no deposit\)\./);
    assert.equal((await status(MG, KAPPA)).reserved, true);
    // Kappa has a captcha: holds need a token too.
    assert.equal((await hold(KAPPA, MG, other(60), {}, await signedIn(other(60)))).status, 403);
    // Sign-in stays closed where neither the watchlist nor a hold without a deposit needs it.
    assert.equal((await post("/api/auth/request-code", ZETA, { phone_number: contact.phone })).status, 404);
  });

  test("holds a stranger cannot take: one active hold per mobile and per connection, at most 5 cars held without a deposit", async () => {
    const a = other(70);
    assert.equal((await hold(OMEGA, STONIC, a)).status, 201);
    for (const [why, who] of [["the same mobile", { ...other(71), phone: a.phone }], ["the same connection", { ...other(72), ip: a.ip }]]) {
      const res = await hold(OMEGA, SELTOS, who);
      assert.equal(res.status, 409, why);
      assert.match((await json(res)).error, /already have a car on hold/, why);
    }
    assert.equal((await hold(OMEGA, SELTOS, other(73))).status, 201, "another shopper holds the other car");
    // Kappa reserves without a deposit: at most 5 such cars are held at once, whoever asks.
    const [{ n: already }] = await d1("SELECT count(*) AS n FROM checkout_holds WHERE dealer = 'kappa' AND state = 'reserved' AND amount_cents = 0");
    const statuses = [];
    for (const [i, slug] of FREE.entries()) {
      const who = other(80 + i);
      const res = await hold(KAPPA, slug, who, { "cf-turnstile-response": `pass:kappa.example:free-${i}` }, await signedIn(who));
      statuses.push(res.status);
      if (res.status === 409) assert.match((await json(res)).error, /without a deposit just now/);
    }
    assert.deepEqual(statuses, [...Array(5 - already).fill(201), ...Array(FREE.length - 5 + already).fill(409)]);
  });

  test("the honeypot on the checkout form", async () => {
    const res = await hold(OMEGA, RANGER, { ...contact, email: "hold-bot@example.com" }, { website: "bot" });
    assert.equal(res.status, 201);
    const { hold_id } = await json(res);
    const [row] = await d1(`SELECT (SELECT count(*) FROM checkout_holds WHERE id = ${sqlString(hold_id)} OR email = 'hold-bot@example.com') AS stored,
      (SELECT hits FROM honeypot_hits WHERE dealer = 'omega' AND route = 'checkout') AS hits`);
    assert.deepEqual(row, { stored: 0, hits: 1 });
  });
});
