/**
 * The edge API answered inside the browser, for pictures of a built site
 * without a worker: a visit signed out (or signed in, when `signedIn()`
 * says so, with the first two cars saved), 12 views of a car, `{}` for
 * anything else. Nothing leaves 127.0.0.1, and every run sees the same
 * answers, so two pictures of one page differ only where the site does.
 */
export async function answerApi(context, { cars = [], signedIn = () => false } = {}) {
  await context.route(/\/api\//, (route) => {
    const url = route.request().url();
    const body = url.includes('/auth/me')
      ? signedIn()
        ? { signed_in: true, phone_number: '0412345678' }
        : { signed_in: false }
      : url.includes('/api/watchlist')
        ? { success: true, car_ids: cars.slice(0, 2).map((c) => c.id) }
        : url.includes('/view.json')
          ? { views: 12 }
          : {};
    return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
  });
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
