// @vitest-environment jsdom
/**
 * The two flows with more than one call: the trade-in (lead → valuation →
 * lead → saved valuation → offer accepted; docs/behaviour/car-page.md §4) and the checkout
 * (hold → payment provider → back → Reserved; docs/behaviour/search.md/001 Reserve).
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import Checkout, { holdRequest } from '../src/islands/forms/Checkout';
import TradeIn, { NO_ESTIMATE, identifiesCar, valuationRequest } from '../src/islands/forms/TradeIn';
import { resetTurnstileLoader } from '../src/lib/forms/turnstile';
import { resetSession } from '../src/lib/session';
import { mockApi, type Answer } from './helpers/api-mock';
import { testFormConfig } from './helpers/form-config';

const config = testFormConfig();
const car = { id: '7', slug: 'kia-7', name: '2022 Kia Rio S', year: 2022, make: 'Kia', model: 'Rio', badge: 'S', km: 30000, car_type: 'used', status: 'in_stock', stocknum: 'S7', tag: null, location_id: 'bmg-newstead' };

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  resetSession();
});
afterEach(cleanup);

const type = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const press = (name: string) => fireEvent.click(screen.getByRole('button', { name }));

describe('trade-in flow', () => {
  function routes(valuation: Answer, extra: Record<string, Answer> = {}) {
    let n = 0;
    return mockApi({
      'POST /api/leads': async () => ({ status: 201, body: { lead_id: `lead-${++n}`, flow_token: `flow-after-${n}` } }),
      'POST /api/trade-in/valuation': valuation,
      'POST /api/miscellaneous': { status: 201, body: { success: true, id: 'm1' } },
      ...extra,
    });
  }
  async function details() {
    type('First Name', 'Sam');
    type('Last Name', 'Citizen');
    type('Email', 'sam@example.com.au');
    type('Mobile', '0412 345 678');
    type('Postcode', '4006');
    fireEvent.click(screen.getByRole('checkbox', { name: /terms of use/ }));
    press('Continue');
    await screen.findByRole('heading', { name: 'Step 2 of 2: Your car' });
  }

  it('names the location that buys the car: a buying location of several, the car-buying centre first (N05)', async () => {
    window.history.replaceState(null, '', '/trade-in/');
    const { fetchImpl, calls } = routes({ body: { estimate: null, reason: 'no_service' } });
    const locations = [
      { id: 'newstead', name: 'Newstead', kind: 'sales' as const },
      { id: 'workshop', name: 'Workshop', kind: 'service' as const },
      { id: 'buying', name: 'Car Buying Centre', kind: 'car-buying' as const },
    ];
    render(<TradeIn config={config} locations={locations} saveValuation={false} fetchImpl={fetchImpl} navigate={vi.fn()} />);
    const where = screen.getByLabelText('Where should we value it?') as HTMLSelectElement;
    expect([...where.options].map((o) => o.value)).toEqual(['', 'newstead', 'buying']);
    expect(where.value).toBe('buying');
    await details();
    expect(calls.find((c) => c.path === '/api/leads')!.body).toMatchObject({ category: 'trade_in', location_id: 'buying' });
    cleanup();
    // One buying location: no choice to make, the lead names it.
    const one = routes({ body: { estimate: null, reason: 'no_service' } });
    render(<TradeIn config={config} locations={[locations[0]!, locations[1]!]} saveValuation={false} fetchImpl={one.fetchImpl} navigate={vi.fn()} />);
    expect(screen.queryByLabelText('Where should we value it?')).toBeNull();
    await details();
    expect(one.calls.find((c) => c.path === '/api/leads')!.body).toMatchObject({ location_id: 'newstead' });
  });

  it('creates the first lead after step 1, values the car, sends the answers, saves the valuation, and the accepted offer', async () => {
    window.history.replaceState(null, '', '/cars/trade-in/?car_id=7');
    const { fetchImpl, calls } = routes({ body: { estimate: { low: 12000, high: 14500, currency: 'AUD' }, reason: 'valued', vehicle: { year: 2019, make: 'Toyota', model: 'Corolla' } } });
    const withCars = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) =>
      String(input) === '/watchlist-cars.json' ? new Response(JSON.stringify([{ id: '7', slug: 'kia-7', name: '2022 Kia Rio S', price_text: '$19,990', image: null }])) : fetchImpl(input, init),
    ) as unknown as typeof fetch;
    const navigate = vi.fn();
    render(<TradeIn config={config} saveValuation forCar fetchImpl={withCars} navigate={navigate} />);
    await screen.findByRole('link', { name: '2022 Kia Rio S' });
    await details();
    const first = calls.filter((c) => c.path === '/api/leads').map((c) => c.body as Record<string, unknown>);
    expect(first).toEqual([
      expect.objectContaining({ category: 'trade_in', subcategory: '1. Contact Details', name: 'Sam', last_name: 'Citizen', postcode: '4006', form_completed: false, terms_conditions: true, car_id: '7' }),
    ]);
    expect((screen.getByLabelText('Registered in (optional)') as HTMLSelectElement).value).toBe('QLD');
    type('Registration (optional)', 'abc 123');
    type('Kilometres', '85,000');
    fireEvent.click(screen.getAllByLabelText('No')[0]!);
    press('Value my car');
    await screen.findByRole('heading', { name: 'Your trade-in estimate' });
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Your trade-in estimate'));
    expect(screen.getByText('$12,000 – $14,500')).toBeTruthy();
    expect(screen.getByText('We found your 2019 Toyota Corolla.')).toBeTruthy();
    const valuation = calls.find((c) => c.path === '/api/trade-in/valuation')!.body;
    expect(valuation).toEqual({ kms: 85000, rego: 'ABC123', regoState: 'QLD', adjustmentAnswers: { accident: 'no' }, lead_id: 'lead-1' });
    const second = calls.filter((c) => c.path === '/api/leads')[1]!.body as Record<string, unknown>;
    // Each later step shows the token the previous lead's answer carried.
    expect(second).toMatchObject({ subcategory: '2. Vehicle Details', lead_id: 'lead-1', flow_token: 'flow-after-1', form_completed: true, rego: 'ABC123', regoState: 'QLD', kms: 85000, adjustmentAnswers: { accident: 'no' }, preferred_contact_method: 'Phone', valuation: { estimate: { low: 12000, high: 14500, currency: 'AUD' }, reason: 'valued' } });
    expect(calls.find((c) => c.path === '/api/miscellaneous')!.body).toMatchObject({ column_name: 'valuation', lead_id: 'lead-1', flow_token: 'flow-after-2', reason: 'valued', rego: 'ABC123', kms: 85000 });
    press('Accept this estimate');
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/success/?category=trade_in'));
    const third = calls.filter((c) => c.path === '/api/leads')[2]!.body as Record<string, unknown>;
    expect(third).toMatchObject({ category: 'trade_in', subcategory: '3. Offer Accepted', offer_accepted: true, lead_id: 'lead-1', flow_token: 'flow-after-2', name: 'Sam', car_id: '7' });
  });

  it('with the captcha on: later steps send the flow token, not a captcha; one the worker refuses goes again with a solved captcha', async () => {
    resetTurnstileLoader();
    let n = 0;
    const { fetchImpl, calls } = mockApi({
      'POST /api/leads': async () => {
        n += 1;
        // The worker judged step 2 a first lead (its flow token did not hold): 403 without a captcha token.
        const body = calls.at(-1)!.body as Record<string, unknown>;
        if (n === 2 && !body['cf-turnstile-response']) return { status: 403, body: { error: 'The security check failed. Please try again.' } };
        return { status: 201, body: { lead_id: `lead-${n}`, flow_token: `flow-after-${n}` } };
      },
      'POST /api/trade-in/valuation': { body: { estimate: null, reason: 'no_service' } },
    });
    let solved = 0;
    let callback: ((t: string) => void) | undefined;
    const solve = () => setTimeout(() => callback?.(`token-${++solved}`), 5);
    window.turnstile = {
      render: vi.fn((_el: HTMLElement, opts: Record<string, unknown>) => {
        callback = opts['callback'] as (t: string) => void;
        solve();
        return 'w1';
      }),
      reset: vi.fn(solve),
    };
    const navigate = vi.fn();
    render(<TradeIn config={{ ...config, captchaSiteKey: '1x00000000000000000000AA' }} saveValuation={false} fetchImpl={fetchImpl} navigate={navigate} />);
    await details();
    type('Registration (optional)', 'XYZ123');
    type('Kilometres', '1000');
    fireEvent.click(screen.getAllByLabelText('No')[0]!);
    press('Value my car');
    await screen.findByText(NO_ESTIMATE['no_service']!);
    const leads = calls.filter((c) => c.path === '/api/leads').map((c) => c.body as Record<string, unknown>);
    expect(leads.map((b) => [b['subcategory'], b['lead_id'] ?? null, b['flow_token'] ?? null, b['cf-turnstile-response'] ?? null])).toEqual([
      ['1. Contact Details', null, null, 'token-1'],
      ['2. Vehicle Details', 'lead-1', 'flow-after-1', null],
      ['2. Vehicle Details', 'lead-1', 'flow-after-1', 'token-2'],
    ]);
    delete window.turnstile;
  });

  it('without a valuation service: the answers go with the lead, nothing is saved where the dealer keeps none, no offer to accept', async () => {
    window.history.replaceState(null, '', '/trade-in/');
    const { fetchImpl, calls } = routes({ body: { estimate: null, reason: 'no_service' } });
    const navigate = vi.fn();
    render(<TradeIn config={config} saveValuation={false} fetchImpl={fetchImpl} navigate={navigate} />);
    await details();
    press('Value my car');
    // The car must be named: by its plate, or by year, make and model.
    expect(screen.getByRole('alert').textContent).toContain('Please enter the odometer reading.');
    type('Kilometres', '120000');
    press('Value my car');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain("Please enter the car's registration, or its year, make and model."));
    type('Year (optional)', '2012');
    type('Make (optional)', 'Mazda');
    type('Model (optional)', 'CX-5');
    press('Value my car');
    await screen.findByText(NO_ESTIMATE['no_service']!);
    expect(calls.some((c) => c.path === '/api/miscellaneous')).toBe(false);
    expect(screen.queryByRole('button', { name: 'Accept this estimate' })).toBeNull();
    press('Finish');
    expect(navigate).toHaveBeenCalledWith('/success/?category=trade_in');
  });

  it('a failing valuation service never loses the lead', async () => {
    const { fetchImpl, calls } = routes({ status: 503, body: { error: 'down' } });
    render(<TradeIn config={config} saveValuation fetchImpl={fetchImpl} navigate={vi.fn()} />);
    await details();
    type('Registration (optional)', 'XYZ999');
    type('Kilometres', '40000');
    press('Value my car');
    await screen.findByText(NO_ESTIMATE['unavailable']!);
    expect(calls.filter((c) => c.path === '/api/leads').length).toBe(2);
  });

  it('helpers: the valuation request and the car’s identity', () => {
    expect(identifiesCar({ rego: ' ' })).toBe(false);
    expect(identifiesCar({ trade_in_year: '2012', trade_in_make: 'Mazda', trade_in_model: 'CX-5' })).toBe(true);
    expect(valuationRequest({ kms: '5', trade_in_year: '2012', trade_in_make: 'Mazda', trade_in_model: 'CX-5', regoState: 'QLD' }, null)).toEqual({ kms: 5, trade_in_year: 2012, trade_in_make: 'Mazda', trade_in_model: 'CX-5' });
  });

  it('without JavaScript it is one plain form with every answer', () => {
    const doc = new DOMParser().parseFromString(renderToString(<TradeIn config={config} saveValuation={false} />), 'text/html');
    const names = new Set([...doc.querySelectorAll('form [name]')].map((e) => e.getAttribute('name')));
    for (const n of ['name', 'last_name', 'postcode', 'rego', 'regoState', 'kms', 'adjustmentAnswers[accident]', 'category', 'subcategory', 'website']) expect(names.has(n), n).toBe(true);
  });

  it('the state select starts at the dealer’s forms.default_state', () => {
    for (const state of ['QLD', 'WA']) {
      const html = renderToString(<TradeIn config={{ ...config, defaultState: state }} saveValuation={false} />);
      const select = new DOMParser().parseFromString(html, 'text/html').querySelector('select[name="regoState"]') as HTMLSelectElement;
      expect(select.value, state).toBe(state);
    }
  });
});

describe('checkout', () => {
  it('holds the car with the shopper’s details and goes to the payment page', async () => {
    window.history.replaceState(null, '', '/cars/kia-7/checkout/');
    const { fetchImpl, calls } = mockApi({
      'GET /api/cars/kia-7/status': { body: { slug: 'kia-7', reserved: false, pending: false } },
      'POST /api/checkout/hold': { status: 201, body: { hold_id: 'h1', checkout_url: 'https://checkout.stripe.com/c/pay/cs_test_1', state: 'pending' } },
    });
    const navigate = vi.fn();
    render(<Checkout config={config} car={car} deposit={200} holdHours={48} fetchImpl={fetchImpl} navigate={navigate} />);
    expect(screen.getByText('Pay a $200 deposit, 100% refundable, and we hold the car for you for 48 hours.')).toBeTruthy();
    type('Name', 'Sam');
    type('Email', 'sam@example.com.au');
    type('Phone', '0412345678');
    fireEvent.click(screen.getByRole('checkbox', { name: /terms of use/ }));
    press('Reserve and pay $200');
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1'));
    expect(calls.find((c) => c.path === '/api/checkout/hold')!.body).toEqual({ car_slug: 'kia-7', name: 'Sam', email: 'sam@example.com.au', phone: '0412345678', terms_conditions: true, website: '' });
  });

  it('a car someone else holds: the edge’s 409 is shown and the shopper stays', async () => {
    const { fetchImpl } = mockApi({
      'GET /api/cars/kia-7/status': { body: { reserved: false, pending: false } },
      'POST /api/checkout/hold': { status: 409, body: { error: 'Another shopper is paying for this car right now.' } },
    });
    const navigate = vi.fn();
    render(<Checkout config={config} car={car} deposit={200} holdHours={48} fetchImpl={fetchImpl} navigate={navigate} />);
    type('Name', 'Sam');
    type('Email', 'sam@example.com.au');
    type('Phone', '0412345678');
    fireEvent.click(screen.getByRole('checkbox', { name: /terms of use/ }));
    press('Reserve and pay $200');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Another shopper is paying for this car right now.'));
    expect(navigate).not.toHaveBeenCalled();
  });

  it('back from paying: waits for the confirmation, then says the car is reserved', async () => {
    window.history.replaceState(null, '', '/cars/kia-7/checkout/?hold_id=h1&payment=success');
    let n = 0;
    const { fetchImpl } = mockApi({
      'GET /api/cars/kia-7/status': async () => ({ body: { reserved: ++n >= 2, pending: n < 2, held_until: '2026-11-23T03:00:00Z' } }),
    });
    render(<Checkout config={config} car={car} deposit={200} holdHours={48} fetchImpl={fetchImpl} pollMs={5} />);
    expect(await screen.findByRole('heading', { name: 'The car is reserved for you' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toMatch(/We are holding the 2022 Kia Rio S for you until/);
    expect(JSON.parse(localStorage.getItem('dealergen:last-lead')!)).toMatchObject({ category: 'reserve' });
  });

  it('back after cancelling: the car is not reserved and the form is offered again; a reserved car offers none', async () => {
    window.history.replaceState(null, '', '/cars/kia-7/checkout/?hold_id=h1&payment=cancelled');
    const api = mockApi({ 'GET /api/cars/kia-7/status': { body: { reserved: false, pending: false } } });
    render(<Checkout config={config} car={car} deposit={200} holdHours={48} fetchImpl={api.fetchImpl} />);
    await screen.findByRole('heading', { name: 'Your payment was cancelled' });
    expect(screen.getByRole('button', { name: 'Reserve and pay $200' })).toBeTruthy();
    cleanup();
    window.history.replaceState(null, '', '/cars/kia-7/checkout/');
    const taken = mockApi({ 'GET /api/cars/kia-7/status': { body: { reserved: true, pending: false } } });
    render(<Checkout config={config} car={car} deposit={0} holdHours={24} fetchImpl={taken.fetchImpl} />);
    await screen.findByRole('heading', { name: 'This car is reserved' });
    expect(screen.queryByRole('button', { name: /Reserve/ })).toBeNull();
  });

  describe('without a deposit: the mobile confirmed first', () => {
    const free = (me: Answer, hold?: Answer) =>
      mockApi({
        'GET /api/cars/kia-7/status': { body: { reserved: false, pending: false } },
        'GET /api/auth/me': me,
        ...(hold ? { 'POST /api/checkout/hold': hold } : {}),
      });

    it('signed out: no form, a link to confirm the mobile that comes back here', async () => {
      window.history.replaceState(null, '', '/cars/kia-7/checkout/');
      const { fetchImpl } = free({ body: { signed_in: false } });
      render(<Checkout config={config} car={car} deposit={0} holdHours={24} fetchImpl={fetchImpl} />);
      const link = await screen.findByRole('link', { name: 'Confirm my mobile number' });
      const target = new URL(link.getAttribute('href')!, 'https://x.example');
      expect(target.pathname).toBe('/sign-in/');
      expect(Object.fromEntries(target.searchParams)).toEqual({ type: 'reserve', redirect: '/cars/kia-7/checkout/', back: '/cars/kia-7/' });
      expect(screen.queryByRole('button', { name: 'Reserve this car' })).toBeNull();
      expect(screen.getByText(/once you confirm your mobile number with a code we text you/)).toBeTruthy();
    });

    it('signed in: the confirmed mobile fills the form and the car is reserved', async () => {
      window.history.replaceState(null, '', '/cars/kia-7/checkout/');
      const { fetchImpl, calls } = free(
        { body: { signed_in: true, phone_number: '0412345678' } },
        { status: 201, body: { hold_id: 'h2', checkout_url: 'https://dealer.example/cars/kia-7/checkout/?hold_id=h2&payment=success', state: 'reserved' } },
      );
      const navigate = vi.fn();
      render(<Checkout config={config} car={car} deposit={0} holdHours={24} fetchImpl={fetchImpl} navigate={navigate} />);
      await waitFor(() => expect((screen.getByLabelText('Phone') as HTMLInputElement).value).toBe('0412345678'));
      type('Name', 'Sam');
      type('Email', 'sam@example.com.au');
      fireEvent.click(screen.getByRole('checkbox', { name: /terms of use/ }));
      press('Reserve this car');
      await waitFor(() => expect(navigate).toHaveBeenCalledWith('https://dealer.example/cars/kia-7/checkout/?hold_id=h2&payment=success'));
      expect(calls.find((c) => c.path === '/api/checkout/hold')!.body).toMatchObject({ phone: '0412345678' });
    });

    it('the worker says the session ended: on to confirm the mobile again', async () => {
      window.history.replaceState(null, '', '/cars/kia-7/checkout/');
      const { fetchImpl } = free(
        { body: { signed_in: true, phone_number: '0412345678' } },
        { status: 401, body: { error: 'To reserve a car without a deposit, first confirm your mobile number with the code we text you.' } },
      );
      const navigate = vi.fn();
      render(<Checkout config={config} car={car} deposit={0} holdHours={24} fetchImpl={fetchImpl} navigate={navigate} />);
      await waitFor(() => expect((screen.getByLabelText('Phone') as HTMLInputElement).value).toBe('0412345678'));
      type('Name', 'Sam');
      type('Email', 'sam@example.com.au');
      fireEvent.click(screen.getByRole('checkbox', { name: /terms of use/ }));
      press('Reserve this car');
      await waitFor(() => expect(navigate).toHaveBeenCalledWith('/sign-in/?type=reserve&redirect=%2Fcars%2Fkia-7%2Fcheckout%2F&back=%2Fcars%2Fkia-7%2F'));
    });
  });

  it('the hold request carries only the contract’s fields', () => {
    expect(holdRequest('kia-7', { name: 'A', email: 'e', phone: 'p', category: 'enquiry', lead_attributes: {}, website: '', 'cf-turnstile-response': 't' })).toEqual({ car_slug: 'kia-7', name: 'A', email: 'e', phone: 'p', website: '', 'cf-turnstile-response': 't' });
  });
});
