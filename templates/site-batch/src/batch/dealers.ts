// The dealers of one batched build (dealergen build --all): their slugs in
// src/data/dealers.json, each dealer's data in src/data/<slug>/ as a
// single-dealer project has it in src/data/ (read by app/src/lib/build-data.ts,
// from disk, so the bundle stays small however many dealers share the run).
import { batchDealers, type DealerData } from '@app/lib/build-data';

export type Dealer = DealerData;

export const dealers = (): Dealer[] => batchDealers();

/** One path per dealer: `each(d)` gives that dealer's params and props (null: no page). */
export function perDealer<P extends Record<string, string | undefined>, T>(each: (d: Dealer) => { params: P; props: T }[]) {
  return dealers().flatMap((d) => each(d).map(({ params, props }) => ({ params: { ...params, dealer: d.slug }, props: { ...props, site: d.site } })));
}
