// @vitest-environment jsdom
/**
 * The other form islands: the contact form's category select (careers
 * re-labelled, events 22/51/19), fleet, an offer's enquiry, book a test
 * drive, the finance enquiry from a finance link, Make an Offer's dialog,
 * Turnstile loaded late, the Reserved badge and the success page.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import FinanceEnquiry from '../src/islands/forms/FinanceEnquiry';
import FleetEnquiry from '../src/islands/forms/FleetEnquiry';
import GeneralEnquiry from '../src/islands/forms/GeneralEnquiry';
import MakeOffer from '../src/islands/forms/MakeOffer';
import OfferEnquiry from '../src/islands/forms/OfferEnquiry';
import TestDriveForm from '../src/islands/forms/TestDriveForm';
import type { FormConfig } from '../src/islands/forms/specs';
import { applyStatus, carStatus, watchReserved } from '../src/lib/forms/reserved';
import { fillSuccess } from '../src/lib/forms/success-page';
import { TURNSTILE_SCRIPT, TurnstileWidget, resetTurnstileLoader } from '../src/lib/forms/turnstile';
import LeadForm from '../src/islands/forms/LeadForm';
import { mockApi } from './helpers/api-mock';

/** A test-drive date a week ahead: the forms and the worker take dates from today on, within a year. */
const SOON = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);

const config: FormConfig = {
  apiBase: '',
  successPath: '/success/',
  captchaSiteKey: null,
  analyticsSink: true,
  dealershipSlug: 'brisbane-motor-group',
  messageRequired: true,
  termsRequired: true,
  optInText: 'Send me offers and news by email and SMS. I can unsubscribe at any time.',
  defaultState: 'QLD',
  budgetPresets: [5000, 10000, 20000, 30000, 40000, 50000, 70000],
};
const locations = [
  { id: 'bmg-newstead', name: 'Newstead' },
  { id: 'bmg-springwood', name: 'Springwood' },
];
const car = { id: '7', slug: 'kia-7', name: '2022 Kia Rio S', year: 2022, make: 'Kia', model: 'Rio', badge: 'S', km: 30000, car_type: 'used', status: 'in_stock', stocknum: 'S7', tag: null, location_id: 'bmg-newstead' };

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/contact-us/');
  (window as unknown as { dataLayer?: unknown[] }).dataLayer = [];
});
afterEach(cleanup);

const api = () => mockApi({ 'POST /api/leads': { status: 201, body: { lead_id: 'l1' } }, 'POST /api/events': { status: 202, body: {} } });
const type = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
function contact() {
  type('Name', 'Sam Citizen');
  type('Email', 'sam@example.com.au');
  type('Phone', '0412 345 678');
}
const agree = () => fireEvent.click(screen.getByRole('checkbox', { name: /terms of use/ }));
const lead = (calls: { path: string; body: unknown }[]) => calls.find((c) => c.path === '/api/leads')?.body as Record<string, unknown>;
const eventId = (calls: { path: string; body: unknown }[]) => (calls.find((c) => c.path === '/api/events')?.body as { event_id: number } | undefined)?.event_id;

describe('contact form with the category select (docs/behaviour/content.md §5)', () => {
  it('defaults to General Enquiry, requires a location of several, sends category general and event 22', async () => {
    const { fetchImpl, calls } = api();
    const navigate = vi.fn();
    render(<GeneralEnquiry config={config} locations={locations} fetchImpl={fetchImpl} navigate={navigate} />);
    const select = screen.getByLabelText('Enquiry type') as HTMLSelectElement;
    expect(select.value).toBe('General Enquiry');
    expect([...select.options].map((o) => o.text)).toEqual(['Choose', 'General Enquiry', 'Service Booking', 'Fleet Enquiry', 'Careers Enquiry']);
    // A required select's first option is an empty placeholder (HTML), never chosen.
    expect([select.options[0]!.value, select.options[0]!.disabled]).toEqual(['', true]);
    contact();
    type('Message', 'Are you open on Sunday?');
    agree();
    fireEvent.click(screen.getByRole('button', { name: 'Send enquiry' }));
    expect(screen.getByRole('alert').textContent).toContain('Please choose a location.');
    type('Location', 'bmg-springwood');
    fireEvent.click(screen.getByRole('button', { name: 'Send enquiry' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/success/?category=general'));
    expect(lead(calls)).toMatchObject({ category: 'general', subcategory: 'General Enquiry', location_id: 'bmg-springwood', dealership_slug: 'brisbane-motor-group' });
    expect(eventId(calls)).toBe(22);
  });

  it('Careers Enquiry is re-labelled: a General Enquiry with subcategory Career Enquiry, event 51', async () => {
    const { fetchImpl, calls } = api();
    const navigate = vi.fn();
    render(<GeneralEnquiry config={config} locations={[locations[0]!]} fetchImpl={fetchImpl} navigate={navigate} />);
    expect(screen.queryByLabelText('Location')).toBeNull();
    type('Enquiry type', 'Career Enquiry');
    contact();
    type('Message', 'Do you have apprenticeships?');
    agree();
    fireEvent.click(screen.getByRole('button', { name: 'Send enquiry' }));
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    expect(lead(calls)).toMatchObject({ category: 'general', subcategory: 'Career Enquiry', location_id: 'bmg-newstead' });
    expect(eventId(calls)).toBe(51);
  });

  it('?enquiry=fleet (the search page’s Get In Touch) chooses Fleet Enquiry: category fleet, event 19; a service booking asks for the rego', async () => {
    window.history.replaceState(null, '', '/contact-us/?enquiry=fleet');
    const { fetchImpl, calls } = api();
    const navigate = vi.fn();
    render(<GeneralEnquiry config={config} locations={[locations[0]!]} fetchImpl={fetchImpl} navigate={navigate} />);
    await waitFor(() => expect((screen.getByLabelText('Enquiry type') as HTMLSelectElement).value).toBe('Fleet Enquiry'));
    expect(screen.queryByLabelText(/Registration/)).toBeNull();
    type('Enquiry type', 'Service Booking');
    expect(screen.getByLabelText('Registration (optional)')).toBeTruthy();
    type('Enquiry type', 'Fleet Enquiry');
    contact();
    type('Message', 'Ten utes please');
    agree();
    fireEvent.click(screen.getByRole('button', { name: 'Send enquiry' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/success/?category=fleet'));
    expect(lead(calls)).toMatchObject({ category: 'fleet', subcategory: 'Fleet Enquiry' });
    expect(eventId(calls)).toBe(19);
  });

  it('a service booking offers the dealer’s extras and sends the ticked ones as additional_services (N06)', async () => {
    window.history.replaceState(null, '', '/contact-us/');
    const { fetchImpl, calls } = api();
    const navigate = vi.fn();
    const extras = { ...config, additionalServices: ['Wheel alignment', 'Tyre check', 'Detailing'] };
    render(<GeneralEnquiry config={extras} locations={[locations[0]!]} fetchImpl={fetchImpl} navigate={navigate} />);
    expect(screen.queryByRole('group', { name: /While it is with us/ })).toBeNull();
    type('Enquiry type', 'Service Booking');
    const group = screen.getByRole('group', { name: 'While it is with us (optional)' });
    const boxes = within(group).getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes.map((b) => [b.name, b.value])).toEqual([
      ['additional_services', 'Wheel alignment'],
      ['additional_services', 'Tyre check'],
      ['additional_services', 'Detailing'],
    ]);
    fireEvent.click(within(group).getByLabelText('Detailing'));
    fireEvent.click(within(group).getByLabelText('Wheel alignment'));
    contact();
    type(/^Message/, 'Logbook service please');
    agree();
    fireEvent.click(screen.getByRole('button', { name: 'Send enquiry' }));
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    // In the dealer's order, whatever the order of the ticks.
    expect(lead(calls)).toMatchObject({ category: 'service', additional_services: ['Wheel alignment', 'Detailing'] });
    cleanup();
    // None ticked: the field is left out.
    const none = api();
    render(<GeneralEnquiry config={extras} locations={[locations[0]!]} fetchImpl={none.fetchImpl} navigate={vi.fn()} />);
    type('Enquiry type', 'Service Booking');
    contact();
    type(/^Message/, 'Logbook service please');
    agree();
    fireEvent.click(screen.getByRole('button', { name: 'Send enquiry' }));
    await waitFor(() => expect(lead(none.calls)).toBeTruthy());
    expect(lead(none.calls)).not.toHaveProperty('additional_services');
  });

  it('without JavaScript the select posts its subcategory and the lead files as general', () => {
    const doc = new DOMParser().parseFromString(renderToString(<GeneralEnquiry config={config} locations={locations} />), 'text/html');
    expect(doc.querySelector('select[name=subcategory]')).toBeTruthy();
    expect(doc.querySelector('input[type=hidden][name=category]')!.getAttribute('value')).toBe('general');
    expect(doc.querySelector('select[name=location_id]')!.hasAttribute('required')).toBe(true);
  });
});

describe('fleet, offer, test drive and finance forms', () => {
  it('the fleet form sends category fleet and event 19 (docs/behaviour/search.md §5)', async () => {
    const { fetchImpl, calls } = api();
    const navigate = vi.fn();
    render(<FleetEnquiry config={config} locations={[locations[0]!]} fetchImpl={fetchImpl} navigate={navigate} />);
    contact();
    type('Business name (optional)', 'Acme Plumbing');
    type('What do you need?', 'Five vans');
    agree();
    fireEvent.click(screen.getByRole('button', { name: 'Send fleet enquiry' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/success/?category=fleet'));
    expect(lead(calls)).toMatchObject({ category: 'fleet', subcategory: 'Fleet Enquiry', company: 'Acme Plumbing', message: 'Five vans' });
    expect(eventId(calls)).toBe(19);
  });

  it('an offer’s enquiry names the offer (page_id, subcategory, make and model) and starts the message', async () => {
    const { fetchImpl, calls } = api();
    const navigate = vi.fn();
    render(
      <OfferEnquiry config={config} offer={{ id: 'rav4-eofy', name: 'RAV4 EOFY drive away', manufacturer: 'Toyota', model: 'RAV4' }} locations={[locations[0]!]} fetchImpl={fetchImpl} navigate={navigate} />,
    );
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe("I'm interested in the RAV4 EOFY drive away offer.");
    expect((screen.getByLabelText('Ask about this offer') as HTMLInputElement).checked).toBe(true);
    contact();
    type('Postcode (optional)', '4006');
    agree();
    fireEvent.click(screen.getByRole('button', { name: 'Send enquiry' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/success/?category=general'));
    expect(lead(calls)).toMatchObject({ category: 'general', subcategory: 'Offer Enquiry: RAV4 EOFY drive away', page_id: 'rav4-eofy', make: 'Toyota', model: 'RAV4', postcode: '4006' });
    expect(eventId(calls)).toBe(22);
  });

  it('an offer’s Book A Test Drive (?enquiry=test-drive) chooses the test drive: category test_drive, the message optional', async () => {
    window.history.replaceState(null, '', '/offers/rav4-eofy/?enquiry=test-drive');
    const { fetchImpl, calls } = api();
    const navigate = vi.fn();
    render(<OfferEnquiry config={config} offer={{ id: 'rav4-eofy', name: 'RAV4 EOFY drive away' }} locations={locations} fetchImpl={fetchImpl} navigate={navigate} />);
    await waitFor(() => expect((screen.getByLabelText('Book a test drive') as HTMLInputElement).checked).toBe(true));
    expect(screen.getByLabelText('Message (optional)')).toBeTruthy();
    contact();
    type('Preferred location', 'bmg-springwood');
    type('Message (optional)', '');
    agree();
    fireEvent.click(screen.getByRole('button', { name: 'Send enquiry' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/success/?category=test_drive'));
    const sent = lead(calls);
    expect(sent).toMatchObject({ category: 'test_drive', subcategory: 'Book a Test Drive', page_id: 'rav4-eofy', location_id: 'bmg-springwood' });
    expect(sent['message']).toBeUndefined();
  });

  it('an offer’s form before hydration posts by itself: the offer radio checked, category general, the offer named', () => {
    const html = renderToString(<OfferEnquiry config={config} offer={{ id: 'rav4-eofy', name: 'RAV4 EOFY drive away' }} locations={[locations[0]!]} thanks={{ title: 'Thanks!', text: 'Soon.' }} />);
    expect(html).toMatch(/<form [^>]*action="\/api\/leads" method="post"/);
    expect(html).toContain('type="hidden" name="category" value="general"');
    expect(html).toContain('type="hidden" name="page_id" value="rav4-eofy"');
    expect(html).toMatch(/name="subcategory" checked="" value="Offer Enquiry: RAV4 EOFY drive away"/);
    expect(html).not.toContain('Thanks!');
  });

  it('with the dealer’s thank-you (offers_display.thank_you_*) a sent offer enquiry shows it in place, focus on its title', async () => {
    const { fetchImpl, calls } = api();
    const navigate = vi.fn();
    render(
      <OfferEnquiry
        config={config}
        offer={{ id: 'rav4-eofy', name: 'RAV4 EOFY drive away' }}
        locations={[locations[0]!]}
        thanks={{ title: 'Thank you for your submission!', text: "We'll be in touch with you about your offer shortly." }}
        fetchImpl={fetchImpl}
        navigate={navigate}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Send enquiry' }));
    await screen.findByText('Please fix the following errors:');
    expect(screen.queryByText('Thank you for your submission!')).toBeNull();
    contact();
    agree();
    fireEvent.click(screen.getByRole('button', { name: 'Send enquiry' }));
    const title = await screen.findByRole('heading', { name: 'Thank you for your submission!' });
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(screen.getByText("We'll be in touch with you about your offer shortly.")).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send enquiry' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Enquire about this offer' })).toBeTruthy();
    expect(navigate).not.toHaveBeenCalled();
    expect(lead(calls)).toMatchObject({ category: 'general', page_id: 'rav4-eofy' });
    expect(eventId(calls)).toBe(22);
  });

  it('book a test drive: location, make and model, date and time, category test_drive', async () => {
    const { fetchImpl, calls } = api();
    const navigate = vi.fn();
    render(<TestDriveForm config={config} locations={locations} makes={['Kia', 'MG']} fetchImpl={fetchImpl} navigate={navigate} />);
    contact();
    type('Where would you like to drive?', 'bmg-newstead');
    type('Make (optional)', 'MG');
    type('Model (optional)', 'ZS');
    type('Preferred date (optional)', SOON);
    agree();
    fireEvent.click(screen.getByRole('button', { name: 'Request test drive' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/success/?category=test_drive'));
    expect(lead(calls)).toMatchObject({ category: 'test_drive', subcategory: 'Book a Test Drive', location_id: 'bmg-newstead', make: 'MG', model: 'ZS', preferred_date: SOON });
  });

  it('the finance enquiry (#finance-form) starts from the finance link’s parameters', async () => {
    window.history.replaceState(null, '', '/finance/?preferredDealership=bmg-springwood&vehiclePriceBudget=34990&car_id=7&car_type=used#finance-form');
    const routes = mockApi({ 'POST /api/leads': { status: 201, body: { lead_id: 'l1' } }, 'POST /api/events': { status: 202, body: {} } });
    const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) =>
      String(input) === '/watchlist-cars.json' ? new Response(JSON.stringify([{ id: '7', slug: 'kia-7', name: '2022 Kia Rio S', price_text: '$19,990', image: null }])) : routes.fetchImpl(input, init),
    ) as unknown as typeof fetch;
    const navigate = vi.fn();
    const { container } = render(<FinanceEnquiry config={config} locations={locations} fetchImpl={fetchImpl} navigate={navigate} />);
    expect(container.querySelector('#finance-form')).toBeTruthy();
    await screen.findByRole('link', { name: '2022 Kia Rio S' });
    await waitFor(() => expect((screen.getByLabelText('Preferred dealership') as HTMLSelectElement).value).toBe('bmg-springwood'));
    expect((screen.getByLabelText('How much would you like to borrow? (optional)') as HTMLInputElement).value).toBe('34990');
    fireEvent.click(screen.getByRole('button', { name: '$50,000' }));
    contact();
    type('Postcode', '4006');
    agree();
    fireEvent.click(screen.getByRole('button', { name: 'Send finance enquiry' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/success/?category=finance&car_type=used'));
    expect(lead(routes.calls)).toMatchObject({ category: 'finance', car_id: '7', car_type: 'used', location_id: 'bmg-springwood', vehiclePriceBudget: 50000, postcode: '4006' });
    expect(eventId(routes.calls)).toBe(15);
  });

  it('offers the dealer’s own quick amounts (forms.budget_presets: a truck dealer’s $300,000 to $800,000), or none', () => {
    const trucks = [300_000, 400_000, 500_000, 600_000, 700_000, 800_000];
    const { unmount } = render(<FinanceEnquiry config={{ ...config, budgetPresets: trucks }} locations={locations} />);
    const group = screen.getByRole('group', { name: /quick amounts/ });
    expect(Array.from(group.querySelectorAll('button')).map((b) => b.textContent)).toEqual(['$300,000', '$400,000', '$500,000', '$600,000', '$700,000', '$800,000']);
    unmount();
    render(<FinanceEnquiry config={{ ...config, budgetPresets: [] }} locations={locations} />);
    expect(screen.queryByRole('group', { name: /quick amounts/ })).toBeNull();
  });
});

describe('Make an Offer (features.make_offer: dialog)', () => {
  it('is a link to the offer form before hydration; opens a modal dialog with the amount required; closing returns focus', async () => {
    const html = renderToString(<MakeOffer config={config} car={car} priceText="$19,990" />);
    expect(html).toContain('href="?enquiry=offer#enquire"');
    // jsdom has no modal dialogs: the part of the API the island uses.
    HTMLDialogElement.prototype.showModal = function () {
      this.setAttribute('open', '');
    };
    HTMLDialogElement.prototype.close = function () {
      this.removeAttribute('open');
      this.dispatchEvent(new Event('close'));
    };
    const { fetchImpl, calls } = api();
    const navigate = vi.fn();
    render(<MakeOffer config={config} car={car} priceText="$19,990" fetchImpl={fetchImpl} navigate={navigate} />);
    const trigger = screen.getByRole('button', { name: 'Make an Offer' });
    fireEvent.click(trigger);
    const dialog = screen.getByRole('dialog', { name: 'Make an Offer' });
    expect(dialog.hasAttribute('open')).toBe(true);
    expect(dialog.textContent).toContain('advertised at $19,990');
    contact();
    agree();
    fireEvent.click(screen.getByRole('button', { name: 'Send offer' }));
    expect(screen.getByRole('alert').textContent).toContain('Please enter your offer amount.');
    type('Your offer', '18000');
    fireEvent.click(screen.getByRole('button', { name: 'Send offer' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/success/?category=offer&car_type=used'));
    expect(lead(calls)).toMatchObject({ category: 'offer', offer_amount: 18000, car_id: '7', make: 'Kia' });
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(dialog.hasAttribute('open')).toBe(false);
    expect(document.activeElement).toBe(trigger);
  });
});

/** A three-field contact form (name, email, phone) with `settings`. */
function contactForm(settings: FormConfig, fetchImpl: typeof fetch, navigate: (url: string) => void) {
  render(
    <LeadForm
      formId="t"
      settings={settings}
      fields={[{ name: 'name', rule: 'name', required: true, label: 'Name', input: 'text' }, { name: 'email', rule: 'email', required: true, label: 'Email', input: 'email' }, { name: 'phone', rule: 'phone', required: true, label: 'Phone', input: 'tel' }]}
      category="general"
      submitLabel="Send"
      fetchImpl={fetchImpl}
      navigate={navigate}
    />,
  );
}

describe('Turnstile (features.captcha)', () => {
  it('loads its script only when the form is first focused, and sends the token', async () => {
    resetTurnstileLoader();
    const { fetchImpl, calls } = api();
    const navigate = vi.fn();
    contactForm({ ...config, captchaSiteKey: '1x00000000000000000000AA' }, fetchImpl, navigate);
    const scripts = () => [...document.head.querySelectorAll('script')].filter((s) => s.src === TURNSTILE_SCRIPT);
    expect(scripts().length).toBe(0);
    const render$ = vi.fn((_el: HTMLElement, opts: Record<string, unknown>) => {
      setTimeout(() => (opts['callback'] as (t: string) => void)('token-123'), 10);
      return 'w1';
    });
    fireEvent.focus(screen.getByLabelText('Name'));
    expect(scripts().length).toBe(1);
    window.turnstile = { render: render$, reset: vi.fn() };
    scripts()[0]!.dispatchEvent(new Event('load'));
    contact();
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    expect(render$.mock.calls[0]![1]).toMatchObject({ sitekey: '1x00000000000000000000AA', 'response-field': false });
    expect(lead(calls)['cf-turnstile-response']).toBe('token-123');
    delete window.turnstile;
  });

  it('a step-up under a flood: the worker names the platform widget, the shopper solves it, the lead goes again with the token', async () => {
    resetTurnstileLoader();
    let posts = 0;
    const { fetchImpl, calls } = mockApi({
      'POST /api/leads': async () =>
        ++posts === 1
          ? { status: 403, body: { error: 'This website is receiving a lot of enquiries just now: please tick the box to show you are not a robot, and send again.', captcha_site_key: '0x4AAAAAAAplatform' } }
          : { status: 201, body: { lead_id: 'l-1' } },
    });
    const render$ = vi.fn((_el: HTMLElement, opts: Record<string, unknown>) => {
      setTimeout(() => (opts['callback'] as (t: string) => void)('platform-token'), 10);
      return 'w1';
    });
    window.turnstile = { render: render$, reset: vi.fn() };
    const navigate = vi.fn();
    contactForm(config, fetchImpl, navigate);
    contact();
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(navigate).toHaveBeenCalled());
    const leads = calls.filter((c) => c.path === '/api/leads').map((c) => c.body as Record<string, unknown>);
    expect(leads.map((b) => b['cf-turnstile-response'] ?? null)).toEqual([null, 'platform-token']);
    expect(render$.mock.calls[0]![1]).toMatchObject({ sitekey: '0x4AAAAAAAplatform' });
    delete window.turnstile;
  });

  it('a token that never comes stops the send with a clear message', async () => {
    const widget = new TurnstileWidget(() => document.body, 'k', 'a', () => new Promise(() => {}));
    await expect(widget.token(20)).rejects.toThrow('The security check could not be completed. Please try again.');
  });
});

describe('the Reserved badge (GET /api/cars/{slug}/status)', () => {
  it('reads the status and shows the badge, hiding the car’s Reserve buttons', async () => {
    const { fetchImpl } = mockApi({ 'GET /api/cars/kia-7/status': { body: { slug: 'kia-7', reserved: true, pending: false, held_until: null } } });
    expect(await carStatus('', 'kia-7', fetchImpl)).toEqual({ reserved: true, pending: false });
    document.body.innerHTML = '<h1><span data-reserved-slug="kia-7" hidden>Reserved</span></h1><a data-reserve-for="kia-7">Reserve</a><span data-reserved-slug="other" hidden></span>';
    applyStatus(document, 'kia-7', { reserved: true, pending: false });
    expect(document.querySelector<HTMLElement>('[data-reserved-slug="kia-7"]')!.hidden).toBe(false);
    expect(document.querySelector<HTMLElement>('[data-reserve-for="kia-7"]')!.hidden).toBe(true);
    expect(document.querySelector<HTMLElement>('[data-reserved-slug="other"]')!.hidden).toBe(true);
    applyStatus(document, 'other', null);
    expect(document.querySelector<HTMLElement>('[data-reserved-slug="other"]')!.hidden).toBe(true);
  });

  it('asks once per car, only when its badge comes into view, also for badges added later', async () => {
    const observed: Element[] = [];
    let fire: (targets: Element[]) => void = () => {};
    class IO {
      constructor(cb: (e: { isIntersecting: boolean; target: Element }[]) => void) {
        fire = (targets) => cb(targets.map((target) => ({ isIntersecting: true, target })));
      }
      observe(el: Element) {
        observed.push(el);
      }
      unobserve() {}
    }
    vi.stubGlobal('IntersectionObserver', IO);
    const { fetchImpl, calls } = mockApi({ 'GET /api/cars/a/status': { body: { reserved: true, pending: false } } });
    document.body.innerHTML = '<div id="c1"><span data-reserved-slug="a" hidden>Reserved</span></div>';
    watchReserved(document, fetchImpl);
    expect(calls.length).toBe(0);
    fire([document.getElementById('c1')!]);
    await waitFor(() => expect(document.querySelector<HTMLElement>('#c1 span')!.hidden).toBe(false));
    document.body.insertAdjacentHTML('beforeend', '<div id="c2"><span data-reserved-slug="a" hidden>Reserved</span></div>');
    await waitFor(() => expect(observed.length).toBe(2));
    fire([document.getElementById('c2')!]);
    await waitFor(() => expect(document.querySelector<HTMLElement>('#c2 span')!.hidden).toBe(false));
    expect(calls.length).toBe(1);
    vi.unstubAllGlobals();
  });
});

describe('the success page', () => {
  it('puts in the category’s words, the car kept by the form and the car type’s search page', () => {
    document.body.innerHTML = `<h1 data-success-title>Thank you</h1><p data-success-text></p><p data-success-car-line hidden>About the <a data-success-car href="/search/">car</a>.</p><a data-success-more data-href-used="/search/used-cars/" href="/search/">Browse our stock</a>`;
    localStorage.setItem('dealergen:last-lead', JSON.stringify({ category: 'test_drive', car: { name: '2022 Kia Rio S', slug: 'kia-7', car_type: 'used' }, at: Date.now() }));
    fillSuccess(document, '?category=test_drive&car_type=used');
    expect(document.querySelector('h1')!.textContent).toBe('Thank you for booking a test drive');
    expect(document.querySelector<HTMLAnchorElement>('[data-success-car]')!.getAttribute('href')).toBe('/cars/kia-7/');
    expect(document.querySelector<HTMLElement>('[data-success-car-line]')!.hidden).toBe(false);
    expect(document.querySelector<HTMLAnchorElement>('[data-success-more]')!.textContent).toBe('Browse more used cars');
    fillSuccess(document, '?category=general&car_type=demo');
    expect(document.querySelector<HTMLAnchorElement>('[data-success-more]')!.getAttribute('href')).toBe('/search/used-cars/');
  });
});
