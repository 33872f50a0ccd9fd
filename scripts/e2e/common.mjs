/**
 * What the e2e scripts (run.mjs, fullstack.mjs) share: the browser's clock
 * and the rule that a case the demo data lacks fails instead of passing.
 */

/**
 * The instant the site's stock was judged at (site.json built_at: the
 * build's start, or `dealergen build --as-of`). The browser's Date is fixed
 * there (timers still run): the search island re-applies the sold window at
 * the shopper's clock, so any other clock would drop cars the static pages
 * list. The demo stock is dated relative to one instant
 * (scripts/demo-stock/as-of.mjs): built at it, the demo has sold cars and
 * new arrivals whatever today's date.
 */
export function builtAt(site) {
  if (!Number.isInteger(site.built_at)) throw new Error('site.json has no built_at (rebuild the site)');
  return new Date(site.built_at * 1000);
}

/**
 * The value a test needs from the demo data, or a failure naming the case:
 * a test whose case is missing must not pass without testing anything.
 */
export function need(value, what) {
  if (!value) throw new Error(`case missing from the demo data: ${what}`);
  return value;
}

/**
 * Makes the browser a returning shopper who has seen the site's popup, so
 * tests of other flows are not interrupted by it (the popup has its own
 * tests in scripts/e2e/content.mjs). Same storage key as lib/content/popup.ts.
 * A test of the popup itself sets `dealergen:e2e:show-popup` to opt out.
 */
export async function popupSeen(context, site) {
  const key = site.content?.popup?.key;
  if (!key) return;
  await context.addInitScript((k) => {
    try {
      if (localStorage.getItem('dealergen:e2e:show-popup') === '1') return;
      localStorage.setItem(`dealergen:popup:${k}`, '1');
    } catch {
      // No storage on this page (about:blank): nothing to do.
    }
  }, key);
}
