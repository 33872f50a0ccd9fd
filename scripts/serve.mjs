#!/usr/bin/env node
/**
 * Serves a built dealer site on http://127.0.0.1:PORT for a person to look
 * at, in workerd as its site worker serves it (scripts/lib/workerd-site.mjs).
 *   node scripts/serve.mjs [sites/<slug>/dist] [port, default 4321]
 */
import path from 'node:path';
import { serveInWorkerd } from './lib/workerd-site.mjs';

const dist = path.resolve(process.argv[2] ?? 'sites/brisbane-motor-group/dist');
const port = Number(process.argv[3] ?? 4321);
const server = await serveInWorkerd(dist, { port });
console.log(`Serving ${dist} on ${server.origin}/ (Ctrl-C to stop)`);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    await server.close();
    process.exit(0);
  });
}
