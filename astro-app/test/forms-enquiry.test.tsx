// @vitest-environment jsdom
/**
 * The car page's multi-step enquiry form (islands/forms/EnquiryForm.tsx on
 * LeadForm): the plain HTML form it renders on the server, the steps, the
 * error panel and its focus, ARIA, the lead payload with the car form
 * defaults, the success page, the event, idempotency keys, kept details,
 * the kinds (?enquiry=) and the dealer's switches.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import EnquiryForm, { type EnquiryFormProps } from '../src/islands/forms/EnquiryForm';
import type { CarFacts } from '../src/lib/forms/payload';
import { mockApi } from './helpers/api-mock';
import { testFormConfig } from './helpers/form-config';

/** A test-drive date a week ahead: the forms and the worker take dates from today on, within a year. */
const SOON = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);

const car: CarFacts = {
  id: '410033',
  slug: '2023-kia-cerato-sport-410033',
  name: '2023 Kia Cerato Sport',
  year: 2023,
  make: 'Kia',
  model: 'Cerato',
  badge: 'Sport',
  km: 21000,
  car_type: 'used',
  status: 'in_stock',
  stocknum: 'BMG123',
  tag: null,
  location_id: 'bmg-newstead',
};

const config = testFormConfig({ apiBase: 'https://api.example.com', analyticsSink: true });

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/cars/2023-kia-cerato-sport-410033/');
  (window as unknown as { dataLayer?: unknown[] }).dataLayer = [];
});
afterEach(cleanup);

function setup(props: Partial<EnquiryFormProps> = {}, answer: { status?: number; body: unknown } = { status: 201, body: { lead_id: 'lead-1' } }) {
  const api = mockApi({ 'POST /api/leads': answer, 'POST /api/events': { status: 202, body: { accepted: true } } });
  const navigate = vi.fn();
  render(<EnquiryForm config={config} car={car} fetchImpl={api.fetchImpl} navigate={navigate} {...props} />);
  return { ...api, navigate };
}

const type = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const press = (name: string) => fireEvent.click(screen.getByRole('button', { name }));
function details() {
  type('Name', 'Sam Citizen');
  type('Email', 'sam@example.com.au');
  type('Phone', '0412 345 678');
}
async function toStep2() {
  details();
  press('Continue');
  await screen.findByRole('heading', { name: 'Step 2 of 2: Your enquiry' });
}
const leads = (calls: { path: string; body: unknown }[]) => calls.filter((c) => c.path === '/api/leads').map((c) => c.body as Record<string, unknown>);

describe('the server-rendered form works without JavaScript', () => {
  const html = renderToString(<EnquiryForm config={config} car={car} />);
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const form = doc.querySelector('form')!;

  it('is a POST to the edge’s /api/leads with every step’s fields and the browser’s own checks', () => {
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe('https://api.example.com/api/leads');
    expect(form.hasAttribute('novalidate')).toBe(false);
    const names = [...form.querySelectorAll('input:not([type=hidden]), textarea, select')].map((e) => e.getAttribute('name'));
    expect(names).toEqual(['name', 'email', 'phone', 'do-you-have-a-trade-in', 'do-you-have-a-trade-in', 'opt_in_finance', 'opt_in_trade', 'message', 'opt_in', 'terms_conditions', 'website']);
    // The marketing opt-in is a box the shopper sees, in the dealer's words, never ticked for them (ACMA takes no pre-ticked box as consent; docs/behaviour/forms.md "Consent"): unticked, a plain form post sends no opt_in at all.
    const optIn = form.querySelector<HTMLInputElement>('input[type=checkbox][name=opt_in]')!;
    expect(optIn.checked).toBe(false);
    expect(optIn.hasAttribute('checked')).toBe(false);
    expect(optIn.hasAttribute('required')).toBe(false);
    expect(form.querySelector(`label[for="${optIn.id}"]`)!.textContent).toBe(config.optInText);
    expect(form.querySelectorAll('input[name=opt_in]')).toHaveLength(1);
    // One send button: without scripts it says "Send enquiry" (the whole form posts); where scripts run the CSS
    // shows it as the hydrated form's first step does ("Continue", with the step's heading, the later step's fields hidden).
    const submit = form.querySelector('button[type=submit]')!;
    expect(submit.querySelector('.form__no-script')!.textContent).toBe('Send enquiry');
    expect(submit.querySelector('.form__pre-step')!.textContent).toBe('Continue');
    expect(form.querySelector('h3.form__pre-step')!.textContent).toBe('Step 1 of 2: Your details');
    const later = [...form.querySelectorAll('.form__later-step')].map((f) => f.querySelector('[name]')!.getAttribute('name'));
    expect(later).toEqual(['do-you-have-a-trade-in', 'opt_in_finance', 'opt_in_trade', 'message', 'opt_in', 'terms_conditions']);
    expect(form.querySelector('button[type=submit]')!.hasAttribute('disabled')).toBe(false);
    for (const n of ['name', 'email', 'phone', 'message', 'terms_conditions']) expect(form.querySelector(`[name="${n}"]`)!.hasAttribute('required'), n).toBe(true);
  });

  it('carries the car form defaults and the lead’s category as hidden inputs', () => {
    const hidden = Object.fromEntries([...form.querySelectorAll('input[type=hidden]')].map((i) => [i.getAttribute('name'), i.getAttribute('value')]));
    expect(hidden).toEqual({
      car_id: '410033',
      dealership_slug: 'brisbane-motor-group',
      manufacturer_slug: 'kia',
      make: 'Kia',
      model: 'Cerato',
      car_type: 'used',
      vehicle_status: 'in_stock',
      location_id: 'bmg-newstead',
      stock_number: 'BMG123',
      category: 'enquiry',
      subcategory: 'Vehicle Enquiry',
      source: 'Website',
    });
  });

  it('hides the honeypot from people, keyboards, screen readers and autofill', () => {
    const hp = form.querySelector('input[name=website]')!;
    expect(hp.getAttribute('tabindex')).toBe('-1');
    expect(hp.getAttribute('autocomplete')).toBe('off');
    expect(hp.closest('[aria-hidden=true]')?.className).toBe('hp-field');
  });
});

describe('the enquiry, step by step', () => {
  it('shows one step at a time once hydrated; a step with errors keeps the shopper there, with the panel focused', async () => {
    const { calls } = setup();
    expect(screen.queryByLabelText('Message')).toBeNull();
    press('Continue');
    const panel = screen.getByRole('alert');
    expect(document.activeElement).toBe(panel);
    expect(panel.querySelector('h3')!.textContent).toBe('Please fix the following errors:');
    expect([...panel.querySelectorAll('a')].map((a) => a.textContent)).toEqual(['Please enter your name.', 'Please enter your email address.', 'Please enter your phone number.']);
    const name = screen.getByLabelText('Name');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(name.getAttribute('aria-describedby')!)!.textContent).toBe('Please enter your name.');
    // The panel's link puts the caret in its field.
    fireEvent.click(panel.querySelector('a')!);
    expect(document.activeElement).toBe(name);
    // Editing a field clears its message.
    type('Name', 'Sam');
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('false');
    expect(calls.length).toBe(0);
  });

  it('continues to step 2 with focus on its heading, and Back returns', async () => {
    setup();
    await toStep2();
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Step 2 of 2: Your enquiry'));
    expect(screen.getByLabelText('Message')).toBeTruthy();
    press('Back');
    await screen.findByRole('heading', { name: 'Step 1 of 2: Your details' });
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Sam Citizen');
  });

  it('a second failed attempt moves focus to the panel again', async () => {
    setup();
    await toStep2();
    press('Send enquiry');
    expect(document.activeElement).toBe(screen.getByRole('alert'));
    screen.getByLabelText('Message').focus();
    press('Send enquiry');
    expect(document.activeElement).toBe(screen.getByRole('alert'));
    const items = [...screen.getByRole('alert').querySelectorAll('li')].map((li) => li.textContent);
    expect(items).toEqual(['Please enter a message.', 'You must agree to the terms of use before submitting.']);
  });

  it('the terms message under the box is a sentence, without the older platform\'s leading "*"', async () => {
    setup();
    await toStep2();
    press('Send enquiry');
    const terms = screen.getByRole('checkbox', { name: /terms of use/ });
    const message = document.getElementById(terms.getAttribute('aria-describedby')!.split(' ').find((i) => i.endsWith('-error'))!)!;
    expect(message.textContent).toBe('You must agree to the terms of use before submitting.');
  });

  for (const [what, answer] of [
    ['the enquiry service down (503, no message)', { status: 503, body: {} }],
    // A proxy's or a misrouted API's answer: nothing the shopper can act on.
    ['an answer without a message (404)', { status: 404, body: {} }],
    ['no network', 'offline'],
  ] as const) {
    it(`${what}: the panel says it was not sent and offers the dealer's phone as a link`, async () => {
      const api =
        answer === 'offline'
          ? { fetchImpl: (async () => Promise.reject(new TypeError('Failed to fetch'))) as unknown as typeof fetch }
          : mockApi({ 'POST /api/leads': answer });
      render(<EnquiryForm config={{ ...config, phone: '(07) 3555 0100' }} car={car} fetchImpl={api.fetchImpl} navigate={vi.fn()} />);
      await toStep2();
      type('Message', 'Hi');
      fireEvent.click(screen.getByRole('checkbox', { name: /terms of use/ }));
      press('Send enquiry');
      await waitFor(() => expect(screen.getByRole('alert').querySelector('h3')!.textContent).toBe('An error occurred when submitting this form'));
      const panel = screen.getByRole('alert');
      expect(panel.textContent).not.toContain('An unexpected error occurred');
      expect(panel.textContent).toContain('call us on (07) 3555 0100');
      expect(panel.querySelector('a[href^="tel:"]')!.textContent).toBe('(07) 3555 0100');
    });
  }

  it('what was typed before a failed send survives a reload (this tab), never its boxes; a sent form forgets it', async () => {
    sessionStorage.clear();
    localStorage.clear();
    const down = mockApi({ 'POST /api/leads': { status: 503, body: {} } });
    const first = render(<EnquiryForm config={config} car={car} fetchImpl={down.fetchImpl} navigate={vi.fn()} />);
    await toStep2();
    type('Message', 'Is it still available on Saturday?');
    fireEvent.click(screen.getByRole('checkbox', { name: config.optInText }));
    fireEvent.click(screen.getByRole('checkbox', { name: /terms of use/ }));
    press('Send enquiry');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Nothing you entered is lost'));
    first.unmount();
    // The page again (a reload): the text is back, the boxes are not ticked for the shopper.
    const { calls, fetchImpl } = mockApi({ 'POST /api/leads': { status: 201, body: { lead_id: 'l-1' } } });
    const navigate = vi.fn();
    render(<EnquiryForm config={config} car={car} fetchImpl={fetchImpl} navigate={navigate} />);
    await waitFor(() => expect((screen.getByLabelText('Name', { exact: true }) as HTMLInputElement).value).toBe('Sam Citizen'));
    await toStep2();
    expect((screen.getByLabelText(/^Message/) as HTMLTextAreaElement).value).toBe('Is it still available on Saturday?');
    expect((screen.getByRole('checkbox', { name: config.optInText }) as HTMLInputElement).checked).toBe(false);
    expect((screen.getByRole('checkbox', { name: /terms of use/ }) as HTMLInputElement).checked).toBe(false);
    fireEvent.click(screen.getByRole('checkbox', { name: /terms of use/ }));
    press('Send enquiry');
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    expect(leads(calls)[0]).toMatchObject({ message: 'Is it still available on Saturday?', opt_in: false });
    expect(Object.keys(sessionStorage).filter((k) => k.startsWith('dealergen:draft:'))).toEqual([]);
  });

  it('sends the spec’s lead payload, records event 15 (a used car) and goes to the success page', async () => {
    const { calls, navigate } = setup();
    sessionStorage.setItem('dealergen:visit', JSON.stringify({ visited_pages: ['/search/', '/cars/a/'], linked_query_params: { utm_source: 'google' } }));
    await toStep2();
    fireEvent.click(screen.getByLabelText('Yes'));
    // The trade opt-in starts unticked, as the finance one; ticked, it is sent.
    const trade = screen.getByRole('checkbox', { name: 'I would like a valuation of my trade-in.' });
    expect((trade as HTMLInputElement).checked).toBe(false);
    fireEvent.click(trade);
    type('Message', '  Is it still available?  ');
    fireEvent.click(screen.getByRole('checkbox', { name: /terms of use/ }));
    press('Send enquiry');
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/success/?category=enquiry&car_type=used'));
    const [lead] = leads(calls);
    expect(lead).toMatchObject({
      category: 'enquiry',
      subcategory: 'Vehicle Enquiry',
      name: 'Sam Citizen',
      email: 'sam@example.com.au',
      phone: '0412345678',
      message: 'Is it still available?',
      'do-you-have-a-trade-in': 'Yes',
      opt_in_finance: false,
      opt_in_trade: true,
      terms_conditions: true,
      car_id: '410033',
      dealership_slug: 'brisbane-motor-group',
      manufacturer_slug: 'kia',
      stock_number: 'BMG123',
      make: 'Kia',
      model: 'Cerato',
      car_type: 'used',
      vehicle_status: 'in_stock',
      location_id: 'bmg-newstead',
      opt_in: false,
      source: 'Website',
      url: window.location.href,
      user_agent: navigator.userAgent,
      lead_attributes: { visited_pages: ['/search/', '/cars/a/'], linked_query_params: { utm_source: 'google' } },
      website: '',
    });
    expect(typeof lead!['idempotency_key']).toBe('string');
    const event = calls.find((c) => c.path === '/api/events');
    expect(event?.body).toMatchObject({ event_id: 15, car_id: '410033', data: { category: 'enquiry', vehicleMake: 'Kia', vehicleYear: 2023 } });
    expect((window as unknown as { dataLayer: unknown[] }).dataLayer).toEqual([
      expect.objectContaining({ event: 'dealergen_vehicle_enquiry_used', event_id: 15, vehicleModel: 'Cerato' }),
    ]);
    // Kept for the next form and for the success page.
    expect(JSON.parse(localStorage.getItem('dealergen:customer')!)).toEqual({ name: 'Sam Citizen', email: 'sam@example.com.au', phone: '0412 345 678' });
    expect(JSON.parse(localStorage.getItem('dealergen:last-lead')!)).toMatchObject({ category: 'enquiry', car: { slug: car.slug, car_type: 'used' } });
  });

  it('sends opt_in true only when the shopper ticks the marketing box, which starts unticked', async () => {
    const { calls, navigate } = setup();
    await toStep2();
    type('Message', 'Hi');
    const optIn = screen.getByRole('checkbox', { name: config.optInText });
    expect((optIn as HTMLInputElement).checked).toBe(false);
    fireEvent.click(optIn);
    fireEvent.click(screen.getByRole('checkbox', { name: /terms of use/ }));
    press('Send enquiry');
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    expect(leads(calls)[0]).toMatchObject({ opt_in: true });
  });

  it('no event reaches the sink of a dealer without one (the dataLayer still gets it)', async () => {
    const { calls, navigate } = setup({ config: { ...config, analyticsSink: false }, car: { ...car, tag: 'Test Drive Only' } });
    await toStep2();
    type('Message', 'Hi');
    fireEvent.click(screen.getByRole('checkbox', { name: /terms of use/ }));
    press('Send enquiry');
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    expect(calls.some((c) => c.path === '/api/events')).toBe(false);
    expect((window as unknown as { dataLayer: { event_id: number }[] }).dataLayer[0]!.event_id).toBe(17);
  });

  it('an enquiry about a new or demo car records event 14 (docs/behaviour/car-page.md §7)', async () => {
    for (const carType of ['new', 'demo'] as const) {
      (window as unknown as { dataLayer?: unknown[] }).dataLayer = [];
      const { navigate } = setup({ car: { ...car, car_type: carType } });
      await toStep2();
      type('Message', 'Hi');
      fireEvent.click(screen.getByRole('checkbox', { name: /terms of use/ }));
      press('Send enquiry');
      await waitFor(() => expect(navigate).toHaveBeenCalled());
      expect((window as unknown as { dataLayer: { event_id: number }[] }).dataLayer.map((e) => e.event_id), carType).toEqual([14]);
      cleanup();
    }
  });

  it('shows the server’s error and its field messages (on the field’s step), keeps the key for a resend, renews it after a change', async () => {
    let answer: { status: number; body: unknown } = { status: 400, body: { error: 'Please fix the following errors:', fields: { phone: 'Please enter an Australian phone number, e.g. 0412 345 678 or (02) 9876 5432.' } } };
    const api = mockApi({ 'POST /api/leads': async () => answer });
    const navigate = vi.fn();
    render(<EnquiryForm config={config} car={car} fetchImpl={api.fetchImpl} navigate={navigate} />);
    await toStep2();
    type('Message', 'Hi');
    fireEvent.click(screen.getByRole('checkbox', { name: /terms of use/ }));
    press('Send enquiry');
    // The phone is on step 1: the form goes back there, the panel lists it.
    await screen.findByRole('heading', { name: 'Step 1 of 2: Your details' });
    const panel = screen.getByRole('alert');
    expect(panel.textContent).toContain('Please enter an Australian phone number');
    expect(panel.textContent).not.toMatch(/following errors:.*following errors:/);
    expect(screen.getByLabelText('Phone').getAttribute('aria-invalid')).toBe('true');
    // A network failure, then the same details again: same key.
    answer = { status: 503, body: { error: 'Leads are not being accepted right now.' } };
    press('Continue');
    await screen.findByRole('heading', { name: 'Step 2 of 2: Your enquiry' });
    press('Send enquiry');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Leads are not being accepted right now.'));
    expect(screen.getByRole('alert').querySelector('h3')!.textContent).toBe('An error occurred when submitting this form');
    answer = { status: 201, body: { lead_id: 'lead-2' } };
    type('Message', 'Hi, changed');
    press('Send enquiry');
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    const keys = leads(api.calls).map((l) => l['idempotency_key']);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[1]);
  });

  it('ignores a second press while sending; the button keeps focus (aria-disabled, never disabled)', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const api = mockApi({ 'POST /api/leads': async () => (await held, { status: 201, body: { lead_id: 'x' } }) });
    render(<EnquiryForm config={config} car={car} fetchImpl={api.fetchImpl} navigate={vi.fn()} />);
    await toStep2();
    type('Message', 'Hi');
    fireEvent.click(screen.getByRole('checkbox', { name: /terms of use/ }));
    press('Send enquiry');
    const sending = await screen.findByRole('button', { name: 'Sending…' });
    expect(sending.getAttribute('aria-disabled')).toBe('true');
    // The spinner shows while sending and is not read out (the words say it).
    expect(sending.querySelector('.spinner')?.getAttribute('aria-hidden')).toBe('true');
    expect(sending.hasAttribute('disabled')).toBe(false);
    fireEvent.click(sending);
    await act(async () => release());
    expect(leads(api.calls).length).toBe(1);
  });

  it('fills the details kept from an earlier form', async () => {
    localStorage.setItem('dealergen:customer', JSON.stringify({ name: 'Kept Name', email: 'kept@example.com.au', phone: '0412 000 111' }));
    setup();
    await waitFor(() => expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Kept Name'));
    expect((screen.getByLabelText('Phone') as HTMLInputElement).value).toBe('0412 000 111');
  });
});

describe('kinds of enquiry', () => {
  it('?enquiry=test-drive: optional date, time and the car location’s distribution locations', async () => {
    window.history.replaceState(null, '', '/cars/x/?enquiry=test-drive');
    const { calls, navigate } = setup({ distributionLocations: ['Logan', 'Ipswich'], locationName: 'Newstead' });
    await screen.findByRole('heading', { name: 'Book a Test Drive' });
    await toStep2();
    const where = screen.getByLabelText('Where would you like to see the car? (optional)') as HTMLSelectElement;
    expect([...where.options].map((o) => o.text)).toEqual(['At Newstead', 'Logan', 'Ipswich']);
    fireEvent.change(where, { target: { value: 'Logan' } });
    type('Preferred date (optional)', SOON);
    type('Preferred time (optional)', '10:30');
    fireEvent.click(screen.getByRole('checkbox', { name: /terms of use/ }));
    press('Request test drive');
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/success/?category=test_drive&car_type=used'));
    expect(leads(calls)[0]).toMatchObject({ category: 'test_drive', subcategory: 'Book a Test Drive', preferred_date: SOON, preferred_time: '10:30', distribution_location: 'Logan' });
    expect('message' in leads(calls)[0]!).toBe(false);
  });

  it('a test drive without distribution locations has no such select', async () => {
    window.history.replaceState(null, '', '/cars/x/?enquiry=test-drive');
    setup();
    await screen.findByRole('heading', { name: 'Book a Test Drive' });
    await toStep2();
    expect(screen.queryByLabelText(/Where would you like/)).toBeNull();
  });

  it('?enquiry=offer: the amount is required and sent as a number', async () => {
    window.history.replaceState(null, '', '/cars/x/?enquiry=offer');
    const { calls, navigate } = setup();
    await screen.findByRole('heading', { name: 'Make an Offer' });
    await toStep2();
    fireEvent.click(screen.getByRole('checkbox', { name: /terms of use/ }));
    press('Send offer');
    expect(screen.getByRole('alert').textContent).toContain('Please enter your offer amount.');
    type('Your offer', '$24,500');
    press('Send offer');
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    expect(leads(calls)[0]).toMatchObject({ category: 'offer', subcategory: 'Make an Offer', offer_amount: 24500 });
  });

  it('?enquiry=photos: the hidden request text leads the message', async () => {
    window.history.replaceState(null, '', '/cars/x/?enquiry=photos');
    const { calls, navigate } = setup();
    await screen.findByRole('heading', { name: 'Request Photos' });
    await toStep2();
    fireEvent.click(screen.getByRole('checkbox', { name: /terms of use/ }));
    press('Send enquiry');
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    expect(leads(calls)[0]).toMatchObject({ category: 'photo_request', message: 'Please send photos for this car' });
  });

  it('a sold car asks for something similar, pre-filled, whatever was asked', async () => {
    window.history.replaceState(null, '', '/cars/x/?enquiry=test-drive');
    const { calls, navigate } = setup({ sold: true, car: { ...car, status: 'sold' } });
    await screen.findByRole('heading', { name: 'Find Me Something Similar' });
    await toStep2();
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('Can you please find me something similar?');
    fireEvent.click(screen.getByRole('checkbox', { name: /terms of use/ }));
    press('Send enquiry');
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    expect(leads(calls)[0]).toMatchObject({ category: 'find_me_similar', subcategory: 'Find me something similar', vehicle_status: 'sold' });
  });
});

describe('the dealer’s form switches', () => {
  it('forms.terms_required off: no terms box, nothing claimed; forms.message_required off: the message is optional', async () => {
    const { calls, navigate } = setup({ config: { ...config, termsRequired: false, messageRequired: false } });
    await toStep2();
    expect(screen.queryByRole('checkbox', { name: /terms of use/ })).toBeNull();
    expect(screen.getByLabelText('Message (optional)')).toBeTruthy();
    press('Send enquiry');
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    const [lead] = leads(calls);
    expect('terms_conditions' in lead!).toBe(false);
    expect('message' in lead!).toBe(false);
  });
});
