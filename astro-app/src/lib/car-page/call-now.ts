/**
 * The sticky mobile footer's Call Now (docs/behaviour/content.md §4): active only while the
 * car's location is open, judged in the location's own time zone at the
 * shopper's clock. The footer carries the location's hours as site.json
 * has them (`data-hours`) and the number (`data-tel` on the button), or,
 * where the number is masked, a button that reveals it first
 * (`data-reveal-call`, lib/car-page/reveal-call.ts). Outside the hours the
 * button stays visible but inactive and says so.
 */
import { openStatus, type HoursData } from '../hours/schedule';

/** Sets the button active (a tel: link) or inactive; returns whether it is active. */
export function updateCallNow(footer: HTMLElement, now: Date): boolean {
  const button = footer.querySelector<HTMLAnchorElement | HTMLButtonElement>('[data-call]');
  if (!button) return false;
  let hours: HoursData | null;
  try {
    hours = JSON.parse(footer.dataset['hours'] ?? 'null') as HoursData | null;
  } catch {
    hours = null;
  }
  // The sales department's hours (the location page's rules: special days,
  // alternate Saturdays); an unknown zone or no sales hours count as closed.
  const sales = hours?.hours?.find((h) => h.department === 'sales');
  let open: boolean;
  try {
    open = hours !== null && sales !== undefined && openStatus(hours, sales, now).open;
  } catch {
    open = false;
  }
  // A masked number's button reveals it when pressed: it has no tel: of its own.
  const callable = button instanceof HTMLButtonElement ? button.dataset['revealCall'] !== undefined : (button.dataset['tel'] ?? '') !== '';
  if (open && callable) {
    if (button instanceof HTMLAnchorElement) button.href = button.dataset['tel'] ?? '';
    button.removeAttribute('aria-disabled');
  } else {
    button.removeAttribute('href');
    button.setAttribute('aria-disabled', 'true');
  }
  const status = footer.querySelector<HTMLElement>('[data-call-status]');
  if (status) status.hidden = open;
  // "true" or "false" once checked (absent before: what waits on the check can tell).
  footer.setAttribute('data-open-now', String(open));
  return open && callable;
}
