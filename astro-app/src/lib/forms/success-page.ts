/**
 * The success page's words for the lead just sent (docs/behaviour/content.md §2.4: the page
 * is loaded "with the category and car_type passed along"): the page's
 * HTML says a plain thank-you; this module, the page's only script, puts
 * the category's words and the car (kept on this device by the form) in.
 */
import { loadLastLead } from './storage';
import { successView } from './success';

export function fillSuccess(doc: Document = document, search: string = location.search): void {
  const view = successView(search, loadLastLead());
  const title = doc.querySelector<HTMLElement>('[data-success-title]');
  const text = doc.querySelector<HTMLElement>('[data-success-text]');
  const car = doc.querySelector<HTMLAnchorElement>('[data-success-car]');
  const more = doc.querySelector<HTMLAnchorElement>('[data-success-more]');
  if (title) title.textContent = view.title;
  if (text) text.textContent = view.text;
  if (car && view.car) {
    car.textContent = view.car.name;
    car.href = `/cars/${encodeURIComponent(view.car.slug)}/`;
    car.closest<HTMLElement>('[data-success-car-line]')?.removeAttribute('hidden');
  }
  // "Browse more used cars" only where that search page exists (the page lists them).
  if (more && view.carType) {
    const href = more.dataset[`href${view.carType[0]!.toUpperCase()}${view.carType.slice(1)}`];
    if (href) {
      more.href = href;
      more.textContent = `Browse more ${view.carType} cars`;
    }
  }
}
