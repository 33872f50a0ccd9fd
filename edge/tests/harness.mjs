// Starts the release build of the worker in workerd (`wrangler dev --local`)
// with local D1 (migrations applied), KV seeded from `kvSeed`, local Queues
// and `vars` (secrets), all in a fresh temporary persist dir; and small
// helpers the test files share. One wrangler per test file.
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
export const ROOT = resolve(import.meta.dirname, "../..");
const WRANGLER = join(ROOT, "node_modules/wrangler/bin/wrangler.js");

const env = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  XDG_CONFIG_HOME: join(ROOT, ".wrangler/config"),
  NO_COLOR: "1",
  CI: "1",
};

export function freePort() {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => ok(port));
    });
  });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
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

export async function startWorker({ kvSeed, vars = {} }) {
  assert.ok(
    existsSync(join(ROOT, "edge/build/worker/shim.mjs")),
    "edge/build/ is missing: run scripts/edge/build.sh (or scripts/edge/test.sh)",
  );
  const persistDir = await mkdtemp(join(tmpdir(), "dealergen-edge-"));
  await mkdir(env.XDG_CONFIG_HOME, { recursive: true });
  const cmd = async (...args) => {
    const { stdout } = await run(process.execPath, [WRANGLER, ...args, "--persist-to", persistDir], {
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
  const logWaiters = new Set();
  /**
   * The first match of `re` in what the worker logs from offset `from` on,
   * as soon as the line arrives (an event, not a poll); fails after `ms`.
   */
  worker.waitForLog = (re, from = 0, ms = 10_000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const m = worker.log.slice(from).match(re);
        if (!m) return;
        logWaiters.delete(check);
        clearTimeout(timer);
        resolve(m);
      };
      const timer = setTimeout(() => {
        logWaiters.delete(check);
        reject(new Error(`the worker did not log ${re} within ${ms} ms:\n${worker.log.slice(from).slice(-500)}`));
      }, ms);
      logWaiters.add(check);
      check();
    });
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
  // The port is picked before seeding so that `kvSeed` may be a function of
  // the worker's own URL (a dealer served on the API's origin). A port found
  // free can be taken before wrangler binds it (the wrangler runs in
  // between open ports of their own), so a start that fails on "Address
  // already in use" picks another port, seeds again and starts again.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    worker.base = `http://127.0.0.1:${port}`;
    worker.log = "";
    const seed = join(persistDir, "kv-seed.json");
    await writeFile(seed, JSON.stringify(typeof kvSeed === "function" ? kvSeed(worker.base) : kvSeed));
    await cmd("kv", "bulk", "put", seed, "--local", "--binding", "CONFIG");
    const child = spawn(
      process.execPath,
      [WRANGLER, "dev", "--local", "--ip", "127.0.0.1", "--port", String(port), "--persist-to", persistDir,
        "--show-interactive-dev-session=false", "--test-scheduled", ...varArgs],
      { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] },
    );
    worker.child = child;
    const onData = (d) => {
      worker.log += d;
      for (const check of [...logWaiters]) check();
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    process.once("exit", () => {
      try {
        if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
      } catch {}
    });
    const up = await healthy(worker);
    if (up) break;
    const taken = /Address already in use/.test(worker.log);
    await stop(child);
    if (!taken || attempt >= 3) throw new Error(`wrangler dev exited early:\n${worker.log}`);
  }
  const { base, child } = worker;

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

  worker.stop = () => stop(child).then(() => rm(persistDir, { recursive: true, force: true }));

  /** Runs the worker's cron once (`wrangler dev --test-scheduled`). */
  worker.cron = async () => {
    const res = await fetch(`${base}/__scheduled?cron=${encodeURIComponent("* * * * *")}`);
    assert.equal(res.status, 200, `cron: ${res.status}`);
  };

  return worker;
}

/**
 * Waits for the worker's /api/health: true once it answers, false when
 * wrangler exited first (the caller reads why in `worker.log`).
 */
async function healthy(worker) {
  const end = Date.now() + 60_000;
  for (;;) {
    if (worker.child.exitCode !== null) return false;
    try {
      const res = await fetch(`${worker.base}/api/health`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return true;
    } catch {}
    if (Date.now() > end) throw new Error(`wrangler dev did not answer /api/health:\n${worker.log}`);
    await sleep(200);
  }
}

function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const kill = (signal) => {
      try {
        process.kill(-child.pid, signal); // the whole group: wrangler and workerd
      } catch {}
    };
    const timer = setTimeout(() => kill("SIGKILL"), 5000);
    child.once("exit", async () => {
      clearTimeout(timer);
      for (let i = 0; i < 50 && groupAlive(child.pid); i++) await sleep(100);
      kill("SIGKILL");
      done();
    });
    kill("SIGTERM");
  });
}

/**
 * An HTTP receiver on 127.0.0.1 recording every request; `answer(req, n)`
 * picks the status (and may set `req.reply`, the body). Setting
 * `req.delayMs` holds the answer back that long, like a slow or hung
 * receiver; `req.aborted` becomes true when the caller hangs up first.
 */
export async function receiver(answer = () => 200) {
  const { createServer: createHttp } = await import("node:http");
  const got = [];
  const timers = new Set();
  const server = createHttp((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const entry = { url: req.url, headers: req.headers, body, json: null, status: 0, delayMs: 0, aborted: false, at: Date.now(), closedAt: 0 };
      try {
        entry.json = JSON.parse(body);
      } catch {}
      entry.status = answer(entry, got.length);
      got.push(entry);
      res.on("close", () => {
        entry.closedAt = Date.now();
        if (!res.writableFinished) entry.aborted = true;
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
