// @vitest-environment jsdom
/**
 * The offer page's form (the slot OfferEnquirySlot.astro renders until the
 * forms work's OfferEnquiry island replaces it): the enquiry form's checks
 * and messages, the lead's field names (category "offer"), "Book A Test
 * Drive" preselecting the test drive, and the dealer's thank-you text in
 * place of the form, focus on it (spec 002 §4).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { enhanceOfferForm, offerErrors, offerLead } from '../src/lib/content/offer-form';
import { TERMS_MESSAGE } from '../src/lib/enquiry';

afterEach(() => {
  document.body.innerHTML = '';
  window.history.replaceState(null, '', '/');
});

function render() {
  document.body.innerHTML = `
  <section id="enquire">
    <form data-offer-form data-api-base="https://api.example.com.au" novalidate>
      <div data-form-errors tabindex="-1" hidden></div>
      <input type="hidden" name="category" value="offer" />
      <input type="hidden" name="offer_id" value="rav4-hybrid-finance" />
      <input type="hidden" name="offer_name" value="RAV4 Hybrid at 3.99%" />
      <input type="hidden" name="url" value="https://www.example.com.au/offers/rav4-hybrid-finance/" />
      <input type="hidden" name="source" value="Website" />
      <input type="hidden" name="dealership_slug" value="sunshine-coast-toyota" />
      <input type="hidden" name="model" value="RAV4 Hybrid" />
      <input type="radio" name="subcategory" value="Offer Enquiry" checked />
      <input type="radio" id="td" name="subcategory" value="Book a Test Drive" />
      <input id="offer-name" name="name" />
      <input id="offer-email" name="email" />
      <input id="offer-phone" name="phone" />
      <textarea id="offer-message" name="message"></textarea>
      <input type="checkbox" name="opt_in" value="true" checked />
      <input type="checkbox" id="offer-terms" name="terms_conditions" value="true" />
      <input name="website" />
      <button type="submit">Send enquiry</button>
    </form>
    <div data-offer-thanks hidden><h3 tabindex="-1" data-offer-thanks-title>Thank you for your submission!</h3><p>We'll be in touch with you about your offer shortly.</p></div>
  </section>`;
}
const field = (name: string) => document.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
const submit = () => document.querySelector('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
const fill = () => {
  field('name').value = 'Jess K';
  field('email').value = 'jess@example.com.au';
  field('phone').value = '0412 345 678';
  document.querySelector<HTMLInputElement>('#offer-terms')!.checked = true;
};

describe('offer form rules', () => {
  it('asks for name, email, phone and the terms; the message is optional', () => {
    const errors = offerErrors({ name: '', email: 'x', phone: '12', message: '' });
    expect(Object.keys(errors)).toEqual(['name', 'email', 'phone', 'terms']);
    expect(errors.terms).toBe(TERMS_MESSAGE);
    expect(offerErrors({ name: 'A', email: 'a@b.com.au', phone: '0412345678', terms_conditions: 'true' })).toEqual({});
  });

  it('sends the shared lead field names, the offer named in the message', () => {
    const lead = offerLead(
      { name: ' Jess ', email: 'jess@example.com.au', phone: '0412 345 678', message: 'Still on?', terms_conditions: 'true', opt_in: 'true', subcategory: 'Book a Test Drive', offer_id: 'x', offer_name: 'RAV4 deal', url: 'https://e.com/offers/x/', dealership_slug: 'd', model: 'RAV4' },
      'key-1',
    );
    expect(lead).toEqual({
      category: 'offer',
      subcategory: 'Book a Test Drive',
      name: 'Jess',
      email: 'jess@example.com.au',
      phone: '0412345678',
      message: 'Offer: RAV4 deal\n\nStill on?',
      terms_conditions: true,
      opt_in: true,
      url: 'https://e.com/offers/x/',
      source: 'Website',
      dealership_slug: 'd',
      offer_id: 'x',
      model: 'RAV4',
      idempotency_key: 'key-1',
    });
  });
});

describe('offer form on the page', () => {
  it('a failed check shows the summary, focused, with links to the fields; nothing is sent', async () => {
    render();
    const fetchMock = vi.fn();
    enhanceOfferForm(document, fetchMock);
    submit();
    const summary = document.querySelector<HTMLElement>('[data-form-errors]')!;
    expect(summary.hidden).toBe(false);
    expect(document.activeElement).toBe(summary);
    expect(summary.textContent).toContain('Please fix the following errors:');
    expect([...summary.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual(['#offer-name', '#offer-email', '#offer-phone', '#offer-terms']);
    expect(field('name').getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('posts JSON to the lead API and shows the thank-you text with focus on it', async () => {
    render();
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ lead_id: 'L1' }), { status: 201 }));
    enhanceOfferForm(document, fetchMock);
    fill();
    submit();
    await vi.waitFor(() => expect(document.querySelector<HTMLElement>('[data-offer-thanks]')!.hidden).toBe(false));
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://api.example.com.au/api/leads');
    const body = JSON.parse(String(init.body));
    expect(body).toMatchObject({ category: 'offer', subcategory: 'Offer Enquiry', offer_id: 'rav4-hybrid-finance', dealership_slug: 'sunshine-coast-toyota', terms_conditions: true });
    expect(document.querySelector('form')!.hidden).toBe(true);
    expect(document.activeElement?.textContent).toBe('Thank you for your submission!');
  });

  it('a server error is shown in the summary and the form stays', async () => {
    render();
    enhanceOfferForm(document, vi.fn(async () => new Response(JSON.stringify({ error: 'Too many requests.' }), { status: 429 })));
    fill();
    submit();
    const summary = document.querySelector<HTMLElement>('[data-form-errors]')!;
    await vi.waitFor(() => expect(summary.hidden).toBe(false));
    expect(summary.textContent).toContain('Too many requests.');
    expect(document.querySelector('form')!.hidden).toBe(false);
  });

  it('"Book A Test Drive" links preselect the test drive', () => {
    window.history.replaceState(null, '', '/offers/x/?enquiry=test-drive');
    render();
    enhanceOfferForm(document, vi.fn());
    expect(document.querySelector<HTMLInputElement>('#td')!.checked).toBe(true);
  });
});
