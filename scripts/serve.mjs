#!/usr/bin/env node
/**
 * Serves a built dealer site on http://127.0.0.1:PORT for a person to look at.
 *   node scripts/serve.mjs [sites/<slug>/dist] [port, default 4321]
 */
import path from 'node:path';
import { startServer } from './lib/static-server.mjs';

const dist = path.resolve(process.argv[2] ?? 'sites/brisbane-motor-group/dist');
const port = Number(process.argv[3] ?? 4321);
const server = await startServer(dist, port);
console.log(`Serving ${dist} on http://127.0.0.1:${server.address().port}/ (Ctrl-C to stop)`);
