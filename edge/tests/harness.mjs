// Starts the release build of the worker in workerd (`wrangler dev --local`)
// with local D1 (migrations applied), KV seeded from `kvSeed`, local Queues
// and `vars` (secrets), all in a fresh temporary persist dir; and small
// helpers the test files share. One wrangler per test file.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort, ROOT, startDev, WRANGLER, WRANGLER_ENV as env } from "../../scripts/lib/wrangler.mjs";

const run = promisify(execFile);
export { freePort, ROOT };

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** `promise`, or a failure naming `what` when it has not settled within `ms`. */
export async function within(ms, what, promise) {
  let timer;
  const late = new Promise((_, fail) => (timer = setTimeout(() => fail(new Error(`${what}: not within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
export const sqlString = (s) => `'${String(s).replaceAll("'", "''")}'`;

/** A dealer's edge config as `dealergen build` writes it. */
export function edgeConfig(dealer, name, origins, locations, extra = {}) {
  return {
    dealer,
    name,
    origins,
    locations,
    leads: { email: `leads@${dealer}.example`, webhook_url: null },
    features: { watchlist: true, phone_reveal: true },
    ...extra,
  };
}

/** KV entries for dealers: `dealer:<slug>` plus `origin:<origin>` per origin. */
export function kvFor(...configs) {
  const out = [];
  for (const c of configs) {
    out.push({ key: `dealer:${c.dealer}`, value: JSON.stringify(c) });
    for (const o of c.origins) out.push({ key: `origin:${o}`, value: c.dealer });
  }
  return out;
}

/** The KV entry listing a dealer's visible cars (`dealergen build` writes it to edge-kv.json). */
export function carsKv(dealer, slugs) {
  return { key: `cars:${dealer}`, value: [...slugs].sort().join("\n") };
}

/**
 * A visible car as `dealergen build` publishes it (an EdgeCar); `over`
 * changes any field.
 */
export function stockCar(dealer, slug, over = {}) {
  return {
    id: slug.split("-").pop(), slug, name: "2021 Toyota HiLux SR5", stock_number: `S${slug.split("-").pop()}`,
    vin: "MR0HA3CD100123456", year: 2021, make: "Toyota", model: "HiLux", badge: "SR5", car_type: "used",
    status: "in_stock", reserved: false, price: 52990, price_text: "$52,990", km: 41000,
    url: `https://${dealer}.example/cars/${slug}/`, location_id: `${dealer}-hq`, checkout: true, deposit: 200,
    ...over,
  };
}

/** Every KV entry of a dealer's stock: the slug list, and per car its facts and its id's slug. */
export function stockKv(dealer, cars) {
  return [
    carsKv(dealer, cars.map((c) => c.slug)),
    ...cars.flatMap((c) => [
      { key: `car:${dealer}:${c.slug}`, value: JSON.stringify(c) },
      { key: `car-id:${dealer}:${c.id}`, value: c.slug },
    ]),
  ];
}

/** Headers making a request come from client address `ip` (as Cloudflare's CF-Connecting-IP does). */
export const fromClient = (ip) => ({ "CF-Connecting-IP": ip });

/**
 * Starts the worker under `wrangler dev --local`; `config` is another
 * wrangler config than the checkout's wrangler.toml (beside it: its paths
 * are relative to it), e.g. the bench's without the queue consumer.
 */
export async function startWorker({ kvSeed, vars = {}, config = null }) {
  assert.ok(
    existsSync(join(ROOT, "edge/build/worker/shim.mjs")),
    "edge/build/ is missing: run scripts/edge/build.sh (or scripts/edge/test.sh)",
  );
  const persistDir = await mkdtemp(join(tmpdir(), "dealergen-edge-"));
  const configArgs = config ? ["--config", config] : [];
  await mkdir(env.XDG_CONFIG_HOME, { recursive: true });
  const cmd = async (...args) => {
    const { stdout } = await run(process.execPath, [WRANGLER, ...args, "--persist-to", persistDir, ...configArgs], {
      cwd: ROOT,
      env,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  };
  await cmd("d1", "migrations", "apply", "DB", "--local");
  // Views reach D1 a second after they are counted (production: 10 s).
  const varArgs = Object.entries({ VIEW_FLUSH_SECS: "1", ...vars }).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const worker = { base: "", log: "", child: null, persistDir };
  let dev;
  // The port is picked before seeding so that `kvSeed` may be a function of
  // the worker's own URL (a dealer served on the API's origin). A port found
  // free can be taken before wrangler binds it (the wrangler runs in
  // between open ports of their own), so a start that fails on "Address
  // already in use" picks another port, seeds again and starts again.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    worker.base = `http://127.0.0.1:${port}`;
    const seed = join(persistDir, "kv-seed.json");
    await writeFile(seed, JSON.stringify(typeof kvSeed === "function" ? kvSeed(worker.base) : kvSeed));
    await cmd("kv", "bulk", "put", seed, "--local", "--binding", "CONFIG");
    dev = startDev({ port, args: ["--persist-to", persistDir, "--test-scheduled", ...configArgs, ...varArgs] });
    worker.child = dev.child;
    try {
      await dev.waitForLog(/Ready on http:\/\/127\.0\.0\.1:\d+/, 0, 60_000);
      const res = await fetch(`${worker.base}/api/health`, { signal: AbortSignal.timeout(10_000) });
      assert.ok(res.ok, `/api/health answered ${res.status}`);
      break;
    } catch (error) {
      await dev.stop();
      if (!/Address already in use/.test(dev.log) || attempt >= 3) throw new Error(`wrangler dev did not start: ${error.message}\n${dev.log}`, { cause: error });
    }
  }
  // The worker's log so far (a getter: it grows), and the first match of a
  // pattern in it from an offset, as soon as the line arrives.
  Object.defineProperty(worker, "log", { get: () => dev.log, enumerable: true });
  worker.waitForLog = dev.waitForLog;
  /**
   * The sign-in code the dev SMS provider logged for `phone` (national
   * digits, e.g. "0412345678"; any dealer unless named) after log offset
   * `from`.
   */
  worker.smsCode = async (phone, { dealer = "[\\w-]+", from = 0 } = {}) => {
    const national = phone.replace(/\D/g, "").replace(/^61/, "0");
    const [, code] = await worker.waitForLog(new RegExp(`sms to ${national} \\(${dealer}\\): (\\d{6}) is your`), from);
    return code;
  };
  const { base } = worker;

  /** Rows from the local D1 database, read by a separate wrangler process. */
  worker.d1 = async (sql) => {
    // The worker holds the same SQLite file: a read can meet its write
    // lock (SQLITE_BUSY); try again shortly rather than fail the test.
    for (let attempt = 1; ; attempt++) {
      try {
        const out = await cmd("d1", "execute", "DB", "--local", "--json", "--command", sql);
        const [result] = JSON.parse(out);
        assert.ok(result.success, out);
        return result.results;
      } catch (e) {
        if (attempt >= 5 || !/SQLITE_BUSY|database is locked/.test(`${e.stderr ?? ""}${e.message}`)) throw e;
        await sleep(250 * attempt);
      }
    }
  };

  worker.stop = () => dev.stop().then(() => rm(persistDir, { recursive: true, force: true }));

  /** Runs the worker's cron once (`wrangler dev --test-scheduled`). */
  worker.cron = async () => {
    const res = await fetch(`${base}/__scheduled?cron=${encodeURIComponent("* * * * *")}`);
    assert.equal(res.status, 200, `cron: ${res.status}`);
  };

  let barriers = 0;
  /**
   * Returns once every delivery the worker had due or queued has run, so
   * that a test can say an attempt did NOT follow: the cron re-drives what
   * is due, then a fresh lead of `origin`'s dealer (one that delivers
   * somewhere) goes through the queue after everything queued before it
   * (the consumer takes messages in order, one at a time) and is awaited
   * until delivered. Not a fixed wait, which passes when the attempt is
   * merely late. With `{ cron: false }` only the queue is drained: what
   * would follow without the cron's help.
   */
  worker.deliveriesRun = async (origin, { cron = true } = {}) => {
    if (cron) await worker.cron();
    barriers += 1;
    const res = await fetch(`${base}/api/leads`, {
      method: "POST",
      // A client address of its own: its lead counts against no test's limits.
      headers: { "Content-Type": "application/json", Origin: origin, ...fromClient("192.0.2.250") },
      body: JSON.stringify({ category: "enquiry", name: "Barrier", email: `barrier-${barriers}@example.com`, phone: "0412 000 999",
        terms_conditions: true, message: "Sent after the others, to know they have run.", idempotency_key: `barrier-${barriers}` }),
    });
    assert.equal(res.status, 201, `the barrier lead: ${res.status}`);
    const { lead_id } = await res.json();
    const status = await worker.delivery(origin, lead_id);
    assert.equal(status.delivery_status, "delivered", `the barrier lead: ${JSON.stringify(status)}`);
    return lead_id;
  };

  /**
   * The delivery state of lead `leadId` (`GET /api/leads/{id}/delivery`
   * from `origin`) once it is delivered, or as it is after 60 s.
   */
  worker.delivery = async (origin, leadId) => {
    const end = Date.now() + 60_000;
    for (;;) {
      const status = await (await fetch(`${base}/api/leads/${leadId}/delivery`, { headers: { Origin: origin } })).json();
      if (status.delivery_status === "delivered" || Date.now() > end) return status;
      await sleep(250);
    }
  };

  return worker;
}

/**
 * An HTTP receiver on 127.0.0.1 recording every request; `answer(req, n)`
 * picks the status (and may set `req.reply`, the body). Setting
 * `req.delayMs` holds the answer back that long, like a slow or hung
 * receiver; `req.aborted` becomes true when the caller hangs up first.
 * `req.closed` is a promise of the connection's end (answered or hung up),
 * for a test to wait on instead of a fixed sleep.
 */
export async function receiver(answer = () => 200) {
  const { createServer: createHttp } = await import("node:http");
  const got = [];
  const timers = new Set();
  const server = createHttp((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      let ended;
      const closed = new Promise((ok) => (ended = ok));
      const entry = { url: req.url, headers: req.headers, body, json: null, status: 0, delayMs: 0, aborted: false, at: Date.now(), closedAt: 0, closed };
      try {
        entry.json = JSON.parse(body);
      } catch {}
      entry.status = answer(entry, got.length);
      got.push(entry);
      res.on("close", () => {
        entry.closedAt = Date.now();
        if (!res.writableFinished) entry.aborted = true;
        ended();
      });
      const reply = () => {
        if (res.destroyed) return;
        const out = typeof entry.reply === "string" ? entry.reply : "{}";
        res.writeHead(entry.status, { "Content-Type": "application/json" });
        res.end(out);
      };
      if (entry.delayMs > 0) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          reply();
        }, entry.delayMs);
        timers.add(timer);
      } else {
        reply();
      }
    });
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    got,
    close: () =>
      new Promise((ok) => {
        for (const t of timers) clearTimeout(t);
        server.close(ok);
        server.closeAllConnections();
      }),
  };
}
