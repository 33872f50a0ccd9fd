/**
 * Starting and stopping `wrangler dev --local` (workerd, Cloudflare's
 * runtime) from tests: the edge worker's tests (edge/tests/harness.mjs) and
 * the e2e suites' sites (scripts/lib/workerd-site.mjs). Offline: no login,
 * no metrics, no Cloudflare fetches, wrangler's own settings inside the
 * project (.wrangler/config).
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { watchOutput } from './output.mjs';

export const ROOT = resolve(import.meta.dirname, '../..');
export const WRANGLER = join(ROOT, 'node_modules/wrangler/bin/wrangler.js');

/** The environment every wrangler command of the tests runs with. */
export const WRANGLER_ENV = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  XDG_CONFIG_HOME: join(ROOT, '.wrangler/config'),
  NO_COLOR: '1',
  CI: '1',
};

/** A TCP port free on 127.0.0.1 now (another process may still take it first). */
export async function freePort() {
  const { port, release } = await reservePort();
  await release();
  return port;
}

/**
 * A TCP port on 127.0.0.1 held by this process until `release()`: for a
 * port that must be known before other servers start (an origin written
 * into the worker's KV first), so that none of their own ports lands on it
 * in between (a port from `freePort` is free only at that instant).
 */
export function reservePort() {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      ok({ port, release: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

/**
 * `wrangler dev --local` on 127.0.0.1:`port` with `args` (the config, the
 * persist folder...), in a process group of its own so that stopping it
 * stops workerd too. Returns `{ child, log, waitForLog, stop }`: `log` is
 * everything it printed so far; `waitForLog(re, from, ms)` resolves with the
 * first match of `re` in the log from offset `from` as soon as the line
 * arrives (an event, not a poll), and rejects when wrangler exits first or
 * after `ms`.
 */
export function startDev({ port, args, cwd = ROOT, env = {} }) {
  mkdirSync(WRANGLER_ENV.XDG_CONFIG_HOME, { recursive: true });
  const child = spawn(
    process.execPath,
    [WRANGLER, 'dev', '--local', '--ip', '127.0.0.1', '--port', String(port), '--show-interactive-dev-session=false', ...args],
    { cwd, env: { ...WRANGLER_ENV, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output = watchOutput(child, 'wrangler dev');
  const dev = { child, waitForLog: output.waitFor };
  Object.defineProperty(dev, 'log', { get: () => output.text, enumerable: true });
  const killOnExit = () => {
    try {
      if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  process.once('exit', killOnExit);
  dev.stop = () => {
    process.removeListener('exit', killOnExit);
    return stop(child);
  };
  return dev;
}

function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops a `wrangler dev` started by startDev: SIGTERM to its process group
 * (wrangler and workerd), SIGKILL after 5 s, and waits until the group is
 * gone so that its ports and files are free.
 */
export function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const kill = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is gone.
      }
    };
    const timer = setTimeout(() => kill('SIGKILL'), 5000);
    child.once('exit', async () => {
      clearTimeout(timer);
      // workerd may outlive wrangler by a moment; its group is checked, not waited on blindly.
      for (let i = 0; i < 50 && groupAlive(child.pid); i++) await new Promise((r) => setTimeout(r, 100));
      kill('SIGKILL');
      done();
    });
    kill('SIGTERM');
  });
}
