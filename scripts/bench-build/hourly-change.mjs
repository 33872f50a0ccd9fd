#!/usr/bin/env node
// The hourly stock refresh of the build benchmark (scripts/bench-build.sh):
//   node scripts/bench-build/hourly-change.mjs <dealers dir> [round=1]
// In every dealer's feed under <dealers dir>/stock: 3% of the cars get a
// new price, one car sells (it leaves the feed, as most feeds drop a sold
// car) and one car arrives (a copy of another with a new id, slug and
// stock number). Deterministic for a round; another round changes other cars.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [dirArg, roundArg = '1'] = process.argv.slice(2);
if (!dirArg) {
  console.error('usage: hourly-change.mjs <dealers dir> [round=1]');
  process.exit(2);
}
const stock = join(resolve(dirArg), 'stock');
const round = Number(roundArg);
let priced = 0;
let feeds = 0;
for (const file of readdirSync(stock).filter((f) => f.endsWith('.json'))) {
  const path = join(stock, file);
  const cars = JSON.parse(readFileSync(path, 'utf8'));
  if (cars.length < 3) continue;
  const changes = Math.max(1, Math.round(cars.length * 0.03));
  // Spread over the feed, shifted each round.
  const step = Math.floor(cars.length / changes);
  for (let k = 0; k < changes; k++) {
    const car = cars[(k * step + round) % cars.length];
    car.price = (car.price || 20000) - 500 * round;
    priced++;
  }
  cars.splice((round * 7) % cars.length, 1);
  const model = cars[(round * 13) % cars.length];
  cars.push({ ...model, id: model.id + 500_000 + round, slug: `${model.slug}-new-${round}`, stocknum: `${model.stocknum}-N${round}` });
  writeFileSync(path, JSON.stringify(cars));
  feeds++;
}
console.log(`hourly change ${round}: ${feeds} feeds, ${priced} prices, ${feeds} sold, ${feeds} new`);
