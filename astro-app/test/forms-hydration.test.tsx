// @vitest-environment jsdom
/**
 * What a shopper types into a server-rendered form before its island
 * hydrates: every form keeps the values and the focus
 * through hydration, also when values arrive after it (a finance link's
 * budget, ?enquiry= on the contact, offer and car forms), and the next
 * render does not wipe them (React keeps the DOM's value, not the state).
 */
import { act, cleanup, fireEvent } from '@testing-library/react';
import type { ReactElement } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import EnquiryForm from '../src/islands/forms/EnquiryForm';
import FinanceEnquiry from '../src/islands/forms/FinanceEnquiry';
import FleetEnquiry from '../src/islands/forms/FleetEnquiry';
import GeneralEnquiry from '../src/islands/forms/GeneralEnquiry';
import OfferEnquiry from '../src/islands/forms/OfferEnquiry';
import TestDriveForm from '../src/islands/forms/TestDriveForm';
import TradeIn from '../src/islands/forms/TradeIn';
import type { CarFacts } from '../src/lib/forms/payload';
import { mockApi } from './helpers/api-mock';
import { TEST_LOCATIONS, testFormConfig } from './helpers/form-config';

const config = testFormConfig();
const locations = TEST_LOCATIONS;
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

let root: Root | null = null;
let host: HTMLElement | null = null;
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  host?.remove();
  host = null;
  cleanup();
});

/** The island's server HTML in the page, as Astro serves it before hydration. */
function serverRender(island: ReactElement): HTMLElement {
  host = document.createElement('div');
  host.innerHTML = renderToString(island);
  document.body.append(host);
  return host;
}
/** Types into a control of the not-yet-hydrated HTML: the browser changes the DOM, React is not there. */
function typeBefore(el: HTMLInputElement | HTMLTextAreaElement, value: string) {
  el.focus();
  el.value = value;
}
async function hydrate(island: ReactElement) {
  await act(async () => {
    root = hydrateRoot(host!, island);
  });
  // Effects that read the query string and set values after hydration.
  await act(async () => {});
}
const named = (name: string) => host!.querySelector<HTMLInputElement>(`[name="${name}"]:not([type=hidden])`)!;

const api = () => mockApi({ 'POST /api/leads': { status: 201, body: { lead_id: 'l1' } }, 'GET /watchlist-cars.json': { status: 200, body: [] } });

const cases: { name: string; url: string; island: () => ReactElement }[] = [
  { name: 'the car enquiry', url: '/cars/kia/', island: () => <EnquiryForm config={config} car={car} /> },
  { name: 'the car enquiry from a Book a Test Drive link (?enquiry=test-drive)', url: '/cars/kia/?enquiry=test-drive', island: () => <EnquiryForm config={config} car={car} /> },
  { name: 'the contact form', url: '/contact-us/', island: () => <GeneralEnquiry config={config} locations={locations} /> },
  { name: 'the contact form on Fleet (?enquiry=fleet)', url: '/contact-us/?enquiry=fleet', island: () => <GeneralEnquiry config={config} locations={locations} /> },
  { name: 'the finance enquiry', url: '/finance/', island: () => <FinanceEnquiry config={config} locations={locations} /> },
  {
    name: 'the finance enquiry from a finance link',
    url: '/finance/?preferredDealership=bmg-springwood&vehiclePriceBudget=25000',
    island: () => <FinanceEnquiry config={config} locations={locations} />,
  },
  { name: 'the trade-in', url: '/trade-in/', island: () => <TradeIn config={config} saveValuation={false} /> },
  { name: 'book a test drive', url: '/book-test-drive/', island: () => <TestDriveForm config={config} locations={locations} makes={['Kia']} /> },
  { name: 'the fleet enquiry', url: '/fleet/', island: () => <FleetEnquiry config={config} locations={locations} /> },
  {
    name: "an offer's enquiry from its test drive link",
    url: '/offers/rav4/?enquiry=test-drive',
    island: () => <OfferEnquiry config={config} offer={{ id: 'rav4', name: 'RAV4 EOFY' }} locations={locations} />,
  },
];

describe('what a shopper typed before the form hydrated', () => {
  for (const c of cases) {
    it(`${c.name}: the Name keeps its value, its element and the focus; the next render keeps it too`, async () => {
      window.history.replaceState(null, '', c.url);
      serverRender(c.island());
      const name = named('name');
      typeBefore(name, 'Sam');
      await hydrate(c.island());
      expect(named('name'), 'the same input, not a new one').toBe(name);
      expect(name.value).toBe('Sam');
      expect(document.activeElement).toBe(name);
      // A later render (the shopper's next field) must not wipe it.
      fireEvent.change(named('email'), { target: { value: 'sam@example.com.au' } });
      expect(named('name').value).toBe('Sam');
      expect(document.activeElement).toBe(name);
    });
  }

  it('the finance link still fills the fields the shopper left alone (the budget), not the Name typed', async () => {
    window.history.replaceState(null, '', '/finance/?preferredDealership=bmg-springwood&vehiclePriceBudget=25000');
    serverRender(<FinanceEnquiry config={config} locations={locations} />);
    typeBefore(named('name'), 'Sam');
    await hydrate(<FinanceEnquiry config={config} locations={locations} />);
    expect(named('vehiclePriceBudget').value).toBe('25000');
    expect(host!.querySelector<HTMLSelectElement>('select[name="location_id"]')!.value).toBe('bmg-springwood');
    expect(named('name').value).toBe('Sam');
  });

  it('values typed, chosen and ticked before hydration go with the lead', async () => {
    window.history.replaceState(null, '', '/book-test-drive/');
    const { fetchImpl, calls } = api();
    const navigate = vi.fn();
    const island = <FleetEnquiry config={config} locations={locations} fetchImpl={fetchImpl} navigate={navigate} />;
    serverRender(island);
    typeBefore(named('name'), 'Sam Citizen');
    typeBefore(named('email'), 'sam@example.com.au');
    typeBefore(named('phone'), '0412 345 678');
    host!.querySelector<HTMLSelectElement>('select[name="location_id"]')!.value = 'bmg-springwood';
    const terms = named('terms_conditions');
    terms.checked = true;
    const message = host!.querySelector<HTMLTextAreaElement>('textarea[name="message"]')!;
    typeBefore(message, 'Ten utes, please.');
    await hydrate(island);
    await act(async () => {
      fireEvent.submit(host!.querySelector('form')!);
    });
    await vi.waitFor(() => expect(navigate, host!.querySelector('[role=alert]')?.textContent ?? 'no panel').toHaveBeenCalled());
    expect(calls.find((c) => c.path === '/api/leads')?.body).toMatchObject({ name: 'Sam Citizen', email: 'sam@example.com.au', phone: '0412345678', message: 'Ten utes, please.', location_id: 'bmg-springwood' });
  });

  it('a multi-step form whose later field has focus at hydration shows that step, the field and its text kept', async () => {
    window.history.replaceState(null, '', '/cars/kia/');
    serverRender(<EnquiryForm config={config} car={car} />);
    typeBefore(named('name'), 'Sam');
    const message = host!.querySelector<HTMLTextAreaElement>('textarea[name="message"]')!;
    typeBefore(message, 'Is it still there?');
    await hydrate(<EnquiryForm config={config} car={car} />);
    expect(host!.querySelector('textarea[name="message"]')).toBe(message);
    expect(message.value).toBe('Is it still there?');
    expect(document.activeElement).toBe(message);
    expect(host!.querySelector('.form__step')?.textContent).toBe('Step 2 of 2: Your enquiry');
  });
});
