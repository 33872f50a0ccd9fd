// A warm Astro: one long-lived Node process that runs `astro build` for
// project after project, so that a run of `dealergen build --all` (batch
// after batch, dealer after dealer) and `dealergen dev --built` (save after
// save) pay Node's start, the loading of Astro, Vite, Rollup and React and
// their JIT warm-up once (generator/src/run/astro.rs starts it with
// `node --input-type=module --eval` and this text; it is not a file of the
// site).
//
// Protocol: one JSON request per line on stdin
//   {"dir": <project dir>, "out": <outDir relative to it>, "cache": <cacheDir
//    relative to it>, "force": bool, "log": <file>}
// and one reply per request on stdout, a line starting with REPLY:
//   {"ok": true|false, "error": <text>, "retire": bool}
// Everything Astro prints during a build goes to the request's log file,
// never to stdout, so replies cannot mix with it. End of stdin (dealergen
// exited, however it exited) ends the process.
//
// Never a stale page from a cached module: Node keeps every ES module it
// imported, by URL, for the life of the process. A build's server bundle is
// imported from the project's output folder, and a batch's output folder
// has the same path run after run, so an unchanged chunk name would hand the
// next build the previous build's module and its state. The resolve hook
// below gives every file outside node_modules a URL of this build alone
// (`?dealergen-build=<n>`): the project's code, its config and its bundle
// are always loaded afresh; only the installed packages stay warm. The Rust
// side restarts the process when those packages or the app's code change
// (its `key`), and this process retires itself after RETIRE_AFTER builds
// or past RETIRE_RSS, since modules once loaded are never freed.
import { createRequire, registerHooks, syncBuiltinESMExports } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPLY = '\u0001dealergen-astro ';
const RETIRE_AFTER = 40;
const RETIRE_RSS = 1536 * 1024 * 1024;

const [nodeModules] = process.argv.slice(1);
if (!nodeModules) {
  process.stderr.write('usage: node --input-type=module --eval <this> <node_modules dir>\n');
  process.exit(2);
}

let build = 0;
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    if (build > 0 && resolved.url.startsWith('file:') && !resolved.url.includes('/node_modules/')) {
      const url = new URL(resolved.url);
      url.searchParams.set('dealergen-build', String(build));
      return { ...resolved, url: url.href };
    }
    return resolved;
  },
});

const require = createRequire(path.join(nodeModules, 'noop.js'));
const astro = await import(pathToFileURL(require.resolve('astro')).href);

const out = process.stdout.write.bind(process.stdout);
const err = process.stderr.write.bind(process.stderr);
const reply = (fields) => out(REPLY + JSON.stringify(fields) + '\n');

/**
 * Unchanged pages cost no copy. Astro restores a page its cache holds
 * (experimental.incrementalBuild) by copying the cache's file into the
 * output: here the output gets a hard link to it instead, so each release
 * shares the file with the cache and with the releases before it (as it
 * shares the `_astro/` bundles). That is safe only if no file is ever
 * written in place, which would change every release sharing it: while a
 * build runs, every write into the project's output or page cache goes to
 * a new file renamed over the old one (a rename replaces the link, never
 * the shared file). `within` are the folders this applies to.
 */
function linkedRestores(within) {
  const inside = (file) => {
    const p = typeof file === 'string' ? file : file instanceof URL ? fileURLToPath(file) : null;
    return p !== null && within.some((dir) => path.resolve(p).startsWith(dir + path.sep)) ? path.resolve(p) : null;
  };
  let n = 0;
  const temp = (p) => `${p}.dealergen-${process.pid}-${(n += 1)}`;
  const saved = {
    copyFile: fs.promises.copyFile,
    writeFile: fs.promises.writeFile,
    writeFileSync: fs.writeFileSync,
  };
  fs.promises.copyFile = async (from, to, mode) => {
    const [src, dest] = [inside(from), inside(to)];
    if (src && dest) {
      try {
        return await fs.promises.link(src, dest);
      } catch {
        // Another file system, or a file there already: a copy, as Astro does.
      }
    }
    return saved.copyFile(from, to, mode);
  };
  fs.promises.writeFile = async (file, data, options) => {
    const dest = inside(file);
    if (!dest) return saved.writeFile(file, data, options);
    const tmp = temp(dest);
    await saved.writeFile(tmp, data, options);
    await fs.promises.rename(tmp, dest);
  };
  fs.writeFileSync = (file, data, options) => {
    const dest = inside(file);
    if (!dest) return saved.writeFileSync(file, data, options);
    const tmp = temp(dest);
    saved.writeFileSync(tmp, data, options);
    fs.renameSync(tmp, dest);
  };
  // Named imports of node:fs (`import { writeFileSync } from 'node:fs'`) see the change too.
  syncBuiltinESMExports();
  return () => {
    fs.promises.copyFile = saved.copyFile;
    fs.promises.writeFile = saved.writeFile;
    fs.writeFileSync = saved.writeFileSync;
    syncBuiltinESMExports();
  };
}

/** Runs `fn` with everything written to stdout and stderr going into `log` (an open file). */
async function captured(log, fn) {
  const into = (chunk, encoding, callback) => {
    fs.writeSync(log, typeof chunk === 'string' ? chunk : Buffer.from(chunk));
    const done = typeof encoding === 'function' ? encoding : callback;
    if (done) done();
    return true;
  };
  process.stdout.write = into;
  process.stderr.write = into;
  try {
    return await fn();
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  let request;
  try {
    request = JSON.parse(line);
  } catch (e) {
    reply({ ok: false, error: `not a JSON request: ${e.message}`, retire: true });
    break;
  }
  build += 1;
  const log = fs.openSync(request.log, 'w');
  // Which process built it: a log says whether Astro started cold.
  fs.writeSync(log, `dealergen: Astro process ${process.pid}, build ${build} of this process\n`);
  let result;
  try {
    process.chdir(request.dir);
    process.env.DEALERGEN_OUT_DIR = request.out;
    const restore = linkedRestores([path.resolve(request.dir, request.out), path.resolve(request.dir, request.cache)]);
    try {
      await captured(log, () => astro.build({ root: request.dir, mode: 'production', force: request.force ? true : undefined }));
    } finally {
      restore();
    }
    result = { ok: true };
  } catch (e) {
    fs.writeSync(log, `\n${e?.stack ?? e}\n`);
    // A failed build may leave Astro's state half-made: the next build gets a new process.
    result = { ok: false, error: String(e?.message ?? e), retire: true };
  } finally {
    fs.closeSync(log);
  }
  result.retire ||= build >= RETIRE_AFTER || process.memoryUsage().rss > RETIRE_RSS;
  reply(result);
  if (result.retire) break;
}
process.exit(0);
