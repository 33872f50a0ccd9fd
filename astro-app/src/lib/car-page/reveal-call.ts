/**
 * The sticky bars' Call Now where the dealer masks the number
 * (`features.phone_reveal`, docs/behaviour/search.md §4): the page does not carry the
 * number, so a press asks POST /api/phone-reveal (which records the reveal
 * and event 25) and then calls the number it answers; the button becomes
 * that number's call link for later presses. A failed reveal is logged to
 * the console (docs/behaviour/search.md §8) and the button says "try again" (its
 * `data-reveal-status`). Loaded on the first press (lib/car-page/boot.ts).
 */
import { EVENTS, sendEvent } from '../events';
import { revealPhone, telLink } from '../phone';

interface RevealData {
  apiBase: string;
  carId: string;
  locationId: string;
  websiteId: string;
}

/** Reveals and calls; `call` opens the tel: link (the browser's navigation, replaced by tests). */
export async function revealAndCall(button: HTMLElement, call: (tel: string) => void, fetchImpl?: typeof fetch): Promise<void> {
  if (button.getAttribute('aria-disabled') === 'true' || button.getAttribute('aria-busy') === 'true') return;
  let data: RevealData;
  try {
    data = JSON.parse(button.dataset['revealCall'] ?? '') as RevealData;
  } catch {
    console.error('phone reveal failed: the button names no car');
    return;
  }
  const status = button.querySelector<HTMLElement>('[data-reveal-status]');
  if (status) status.textContent = '';
  button.setAttribute('aria-busy', 'true');
  const phone = await revealPhone({ ...data, fetchImpl });
  button.removeAttribute('aria-busy');
  if (!phone) {
    if (status) status.textContent = ' · try again';
    return;
  }
  // The worker put this click in the dealer's sink; the dataLayer gets it here.
  sendEvent({ apiBase: data.apiBase, sink: false, fetchImpl }, EVENTS.phone_click, {}, data.carId);
  const tel = telLink(phone);
  // Later presses call straight away, without another reveal.
  button.dataset['revealed'] = tel;
  call(tel);
}
