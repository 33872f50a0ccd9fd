/**
 * One URL of every page type a built dealer site has, and the viewport
 * widths its layouts must hold; shared by the keyboard/layout e2e test and
 * the screenshot script so both look at the same pages.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Small phone (a row of cards once overflowed at 320 px), phone, tablet, laptop, desktop, wide desktop. */
export const VIEWPORTS = [
  { width: 320, height: 640 },
  { width: 375, height: 812 },
  { width: 768, height: 1024 },
  { width: 1280, height: 900 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
];

/** The site's generated data next to its dist/ (sites/<slug>/src/data): site.json, cars.json and the page table (pages.json). */
export function siteData(dist) {
  const dir = path.join(dist, '..', 'src', 'data');
  const read = (file) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  return { site: read('site.json'), cars: read('cars.json'), pages: read('pages.json') };
}

/** The path of the first page of `kind` in the page table, or undefined. */
export const pageOfKind = (pages, kind) => pages.find((p) => p.kind === kind)?.path;

/**
 * `{ name, path }` of each page type: home, search, a landing page, a car
 * page, contact, a location (and its /locations/ twin), special offers, an
 * offer, models, a model, a legal page, sign-in, watchlist, compare and
 * favourites (where the dealer offers them), unsubscribe, the feedback
 * survey, parts and review feedback (where the dealer has them), 404. Throws when the site's
 * data lacks one (a test must not skip a page type silently).
 */
export function pageTypes(dist) {
  const { site, cars, pages } = siteData(dist);
  const landing = site.search.landing_pages.find((l) => l.path === 'used-cars') ?? site.search.landing_pages[0];
  const car = cars[0];
  const location = site.locations[0];
  // The offer with the most to lay out (image, long description, disclaimer, form).
  const offers = site.content?.offers.items ?? [];
  const offer = [...offers].sort((a, b) => b.description.length + b.disclaimer.length - (a.description.length + a.disclaimer.length))[0];
  const model = pageOfKind(pages, 'model');
  // Every site has its privacy policy (the enquiry forms link to it).
  const legal = site.company?.privacy_policy;
  const missing = [
    !landing && 'a search landing page',
    !car && 'a car',
    !location && 'a location',
    !offer && 'an offer (offers)',
    !model && 'a model with its own page (models without override_url)',
    !legal && 'the privacy policy page',
  ].filter(Boolean);
  if (missing.length) throw new Error(`the site's data has no ${missing.join(', ')}: every page type must be covered`);
  return [
    { name: 'home', path: '/' },
    { name: 'search', path: '/search/' },
    { name: 'landing', path: `/search/${landing.path}/` },
    { name: 'car', path: `/cars/${car.slug}/` },
    { name: 'contact', path: '/contact-us/' },
    { name: 'location', path: `/contact-us/${location.slug}/` },
    { name: 'locations', path: `/locations/${location.slug}/` },
    { name: 'offers', path: '/special-offers/' },
    { name: 'offer', path: offer.path },
    { name: 'models', path: '/models/' },
    { name: 'model', path: model },
    { name: 'legal', path: legal.path },
    { name: 'sign-in', path: '/sign-in/' },
    { name: 'watchlist', path: '/watchlist/' },
    // Built for every dealer; linked (and worth a layout check) where the feature is on.
    ...(site.features.compare ? [{ name: 'compare', path: '/compare/' }] : []),
    ...(site.features.favourites ? [{ name: 'favourites', path: '/favourites/' }] : []),
    // Every dealer: withdraw the opt-in's consent, and the feedback survey.
    { name: 'unsubscribe', path: '/unsubscribe/' },
    { name: 'feedback-survey', path: '/customer-feedback-survey/' },
    // Where a location serves parts, and where the dealer has a review page.
    ...(site.forms.parts_location_ids.length > 0 ? [{ name: 'parts', path: '/parts/' }] : []),
    ...(site.forms.review_url ? [{ name: 'review-feedback', path: '/review-feedback/?first_name=Jo' }] : []),
    { name: '404', path: '/no-such-page/' },
  ];
}
