// The instant the demo stock feeds are generated at: 2026-11-20T00:00:00Z.
// Every date in dealers/stock/*.json is relative to it, so the time rules
// (the sold window, new arrivals) give the cars the tests expect only when
// the demo is built at this instant. The one place it is set: generate.mjs
// defaults to it, and scripts/test.sh builds the demo with
// `dealergen build --as-of "$(node scripts/demo-stock/as-of.mjs)"` (the e2e
// tests then browse at site.json's built_at, the same instant).
//
//   node scripts/demo-stock/as-of.mjs   prints 2026-11-20
import { fileURLToPath } from 'node:url';

export const DEMO_AS_OF = '2026-11-20';

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(DEMO_AS_OF);
