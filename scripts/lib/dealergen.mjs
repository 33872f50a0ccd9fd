/**
 * The dealergen binary the scripts run: $DEALERGEN_BIN, else the dev
 * build at target/debug/dealergen, which scripts/setup.sh makes and the
 * Rust tests compile anyway (scripts/test.sh sets DEALERGEN_BIN to it), so
 * a check of a change compiles the code once, not again for release.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export const DEALERGEN_BIN = path.resolve(process.env.DEALERGEN_BIN ?? path.join(ROOT, 'target/debug/dealergen'));

/** DEALERGEN_BIN, or an error naming how to build it. */
export function dealergenBin() {
  if (!fs.existsSync(DEALERGEN_BIN)) {
    throw new Error(`${DEALERGEN_BIN} is missing: run scripts/setup.sh (or cargo build -p dealergen), or set DEALERGEN_BIN`);
  }
  return DEALERGEN_BIN;
}
