#!/usr/bin/env node
/**
 * Builds the hand-made fixture dealer without the Rust generator, for
 * developing the Astro app and the e2e test:
 *   templates/site/ -> .tmp/fixture-site/ (the template variable replaced
 *   by plain string substitution, ".j2" stripped), astro-app's src/ and
 *   public/ copied into app/ (as dealergen does), fixture data from
 *   astro-app/test/fixtures/site/, node_modules symlinked, then `astro build`.
 *   Fixture-only photos (test/fixtures/site/public/) are copied into dist.
 *
 * Usage: node scripts/e2e/build-fixture.mjs [outDir]   (default .tmp/fixture-site)
 * Prints the dist path on the last line.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const siteDir = path.resolve(root, process.argv[2] ?? '.tmp/fixture-site');
const templates = path.join(root, 'templates/site');
const fixture = path.join(root, 'astro-app/test/fixtures/site');
const vars = { project: 'the fixture dealer' };

fs.rmSync(siteDir, { recursive: true, force: true });
for (const entry of fs.readdirSync(templates, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const src = path.join(entry.parentPath, entry.name);
  const rel = path.relative(templates, src).replace(/\.j2$/, '');
  let text = fs.readFileSync(src, 'utf8');
  for (const [k, v] of Object.entries(vars)) text = text.replaceAll(`{{ ${k} }}`, v);
  if (/\{\{|\{%/.test(text)) throw new Error(`${rel}: template syntax this script cannot render`);
  fs.mkdirSync(path.dirname(path.join(siteDir, rel)), { recursive: true });
  fs.writeFileSync(path.join(siteDir, rel), text);
}
for (const part of ['src', 'public']) fs.cpSync(path.join(root, 'astro-app', part), path.join(siteDir, 'app', part), { recursive: true });
fs.cpSync(path.join(fixture, 'src/data'), path.join(siteDir, 'src/data'), { recursive: true });
fs.symlinkSync(path.join(root, 'node_modules'), path.join(siteDir, 'node_modules'), 'dir');

const started = Date.now();
const astro = path.join(root, 'node_modules/.bin/astro');
const result = spawnSync(astro, ['build', '--silent'], {
  cwd: siteDir,
  stdio: 'inherit',
  env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
});
if (result.status !== 0) process.exit(result.status ?? 1);
const dist = path.join(siteDir, 'dist');
fs.cpSync(path.join(fixture, 'public'), dist, { recursive: true });
console.error(`built fixture in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(dist);
