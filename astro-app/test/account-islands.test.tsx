// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import PhoneReveal from '../src/islands/PhoneReveal';
import SignIn, { signInIntro, signInParams } from '../src/islands/SignIn';
import { showViews } from '../src/lib/views';
import WatchlistList from '../src/islands/WatchlistList';
import { resetSession } from '../src/lib/session';
import { toastStore } from '../src/lib/toast';
import { resetWatchlist } from '../src/lib/watchlist';
import { mockApi } from './helpers/api-mock';

beforeEach(() => {
  resetSession();
  resetWatchlist();
  toastStore.reset();
});
afterEach(cleanup);

describe('SignIn', () => {
  const SEARCH = '?type=watchlist&redirect=%2Fcars%2Fa-1%2F&back=%2Fsearch%2F';
  const signedOut = { 'GET /api/auth/me': { body: { signed_in: false } } };

  it('reads only site paths from the query', () => {
    expect(signInParams(SEARCH)).toEqual({ type: 'watchlist', redirect: '/cars/a-1/', back: '/search/' });
    expect(signInParams('?redirect=https%3A%2F%2Fevil.example').redirect).toBe('/');
  });

  it('says why the shopper signs in: the watchlist, or the mobile of a hold without a deposit', () => {
    expect(signInIntro('watchlist')).toMatch(/save cars to your watchlist/);
    expect(signInIntro('reserve')).toMatch(/^Confirm your mobile number .* reserve the car without a deposit\.$/);
    expect(signInIntro('')).toBe('Sign in with your mobile number to continue.');
  });

  it('code by SMS, a wrong code shows the message, the right one goes to redirect', async () => {
    const navigate = vi.fn();
    let attempt = 0;
    const { fetchImpl, calls } = mockApi({
      ...signedOut,
      'POST /api/auth/request-code': { status: 202, body: { success: true, expires_in: 600 } },
      'POST /api/auth/verify': async () =>
        attempt++ === 0 ? { status: 400, body: { error: 'That code is not right.' } } : { body: { success: true, phone_number: '0412345678' } },
    });
    render(<SignIn apiBase="" search={SEARCH} fetchImpl={fetchImpl} navigate={navigate} />);
    expect(screen.getByText(/save cars to your watchlist/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back' }).getAttribute('href')).toBe('/search/');
    fireEvent.change(screen.getByLabelText('Mobile number'), { target: { value: '0412 345 678' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    const code = await screen.findByLabelText('Code');
    // The focus moves in an effect after the step's render: wait for it (it raced under load).
    await waitFor(() => expect(document.activeElement).toBe(code));
    expect(calls.find((c) => c.path === '/api/auth/request-code')!.body).toEqual({ phone_number: '0412 345 678' });
    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('That code is not right.');
    expect(navigate).not.toHaveBeenCalled();
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/cars/a-1/'));
    expect(calls.filter((c) => c.path === '/api/auth/verify')[1]!.body).toEqual({ phone_number: '0412 345 678', code: '123456' });
  });

  it('with the captcha on, each code request carries a fresh Turnstile token; a failed check says so and sends nothing', async () => {
    const tokens = ['tok-1'];
    const widget = {
      start: vi.fn(),
      token: vi.fn(async () => {
        const t = tokens.shift();
        if (!t) throw new Error('no token');
        return t;
      }),
      reset: vi.fn(),
    };
    const { fetchImpl, calls } = mockApi({
      ...signedOut,
      'POST /api/auth/request-code': { status: 202, body: { success: true, expires_in: 600 } },
    });
    render(<SignIn apiBase="" search={SEARCH} fetchImpl={fetchImpl} navigate={vi.fn()} captchaWidget={widget} />);
    const phone = screen.getByLabelText('Mobile number');
    fireEvent.focus(phone);
    expect(widget.start).toHaveBeenCalled();
    fireEvent.change(phone, { target: { value: '0412 345 678' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await screen.findByLabelText('Code');
    expect(calls.find((c) => c.path === '/api/auth/request-code')!.body).toEqual({
      phone_number: '0412 345 678',
      'cf-turnstile-response': 'tok-1',
    });
    expect(widget.reset).toHaveBeenCalledTimes(1);
    // Another number: the widget has no token to give this time.
    fireEvent.click(screen.getByRole('button', { name: 'Use another number' }));
    fireEvent.change(screen.getByLabelText('Mobile number'), { target: { value: '0412 345 679' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/security check could not be completed/);
    expect(calls.filter((c) => c.path === '/api/auth/request-code')).toHaveLength(1);
  });

  it("shows the server's message for a bad number and stays on the first step", async () => {
    const { fetchImpl } = mockApi({ ...signedOut, 'POST /api/auth/request-code': { status: 400, body: { error: 'Please check the form.', fields: { phone_number: 'Please enter an Australian mobile number.' } } } });
    render(<SignIn apiBase="" search={SEARCH} fetchImpl={fetchImpl} navigate={vi.fn()} />);
    fireEvent.change(screen.getByLabelText('Mobile number'), { target: { value: '08 9123 4567' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please enter an Australian mobile number.');
    expect(screen.getByLabelText('Mobile number').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByLabelText('Code')).toBeNull();
  });

  it('already signed in: straight on to redirect', async () => {
    const navigate = vi.fn();
    const { fetchImpl } = mockApi({ 'GET /api/auth/me': { body: { signed_in: true, phone_number: '0412345678' } } });
    render(<SignIn apiBase="" search={SEARCH} fetchImpl={fetchImpl} navigate={navigate} />);
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/cars/a-1/'));
  });
});

describe('PhoneReveal', () => {
  afterEach(() => {
    delete (window as { dataLayer?: unknown }).dataLayer;
  });

  it('masked until clicked, then the number the worker answers as a call link; event 25 in the dataLayer, not sent to the sink again', async () => {
    const { fetchImpl, calls } = mockApi({ 'POST /api/phone-reveal': { body: { phone: '(07) 3555 0101' } } });
    render(<PhoneReveal apiBase="" carId="42" locationId="l1" websiteId="demo" masked="(07) 3555 XXXX" fetchImpl={fetchImpl} />);
    expect(screen.queryByText(/0101/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /Show number/ }));
    const link = await screen.findByRole('link', { name: 'Call (07) 3555 0101' });
    expect(link.getAttribute('href')).toBe('tel:0735550101');
    expect(calls[0]!.body).toMatchObject({ car_id: '42', location_id: 'l1' });
    expect((window as { dataLayer?: unknown[] }).dataLayer).toEqual([{ event: 'dealergen_phone_click', event_id: 25, car_id: '42' }]);
    // The reveal call records event 25 in the sink itself, and the call link
    // opts out of the page's phone-click recording (data-event="").
    expect(link.getAttribute('data-event')).toBe('');
    link.addEventListener('click', (e) => e.preventDefault()); // jsdom cannot open tel:
    fireEvent.click(link);
    expect(calls.some((c) => c.path === '/api/events')).toBe(false);
  });

  it('a failed reveal shows no number: logged, said in a live region, the button kept for another try', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { fetchImpl, calls } = mockApi({ 'POST /api/phone-reveal': { status: 429, body: { error: 'Too many.' } } });
    const { container } = render(<PhoneReveal apiBase="" carId="42" locationId="l1" websiteId="demo" masked="(07) 3555 XXXX" fetchImpl={fetchImpl} />);
    // The live region is there (empty) before the failure, so what is put into it is announced.
    const region = screen.getByRole('alert');
    expect(region.textContent).toBe('');
    fireEvent.click(screen.getByRole('button', { name: /Show number/ }));
    await waitFor(() => expect(region.textContent).toBe('The number could not be shown just now. Please try again.'));
    expect(screen.queryByRole('link')).toBeNull();
    expect(container.textContent).not.toMatch(/3555 \d{4}/);
    expect(log).toHaveBeenCalledWith('phone reveal failed:', 'Too many.');
    expect((window as { dataLayer?: unknown[] }).dataLayer).toBeUndefined();
    fireEvent.click(screen.getByRole('button', { name: /Show number/ }));
    await waitFor(() => expect(calls).toHaveLength(2));
    log.mockRestore();
  });

  it('a failed reveal offers the location page, which shows the number: the shopper can still call', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { fetchImpl } = mockApi({ 'POST /api/phone-reveal': { status: 503, body: { error: 'Unavailable.' } } });
    render(<PhoneReveal apiBase="" carId="42" locationId="l1" websiteId="demo" masked="(07) 3555 XXXX" contact={{ href: '/contact-us/newstead/', name: 'Newstead' }} fetchImpl={fetchImpl} />);
    fireEvent.click(screen.getByRole('button', { name: /Show number/ }));
    const region = screen.getByRole('alert');
    await waitFor(() => expect(region.textContent).toBe('The number could not be shown just now. Please try again, or call from our Newstead page.'));
    expect(within(region).getByRole('link', { name: 'our Newstead page' }).getAttribute('href')).toBe('/contact-us/newstead/');
    vi.restoreAllMocks();
  });
});

describe('the views line (components/car/ViewsCounter.astro, lib/views.ts showViews)', () => {
  const line = () => {
    document.body.innerHTML = '<p class="car-views" data-views-slug="a-1" data-views-photos="9" data-views-website="demo" data-api-base="" hidden></p>';
    return document.querySelector<HTMLElement>('.car-views')!;
  };
  it('counts the view and shows the total', async () => {
    const { fetchImpl, calls } = mockApi({ 'GET /api/cars/a-1/view.json': { body: { slug: 'a-1', views: 57 } } });
    const el = line();
    await showViews(document, fetchImpl);
    expect(el.textContent).toBe('57 views');
    expect(el.hidden).toBe(false);
    expect(calls[0]!.url).toBe('/api/cars/a-1/view.json?photos_count=9&website_id=demo');
  });
  it('shows nothing when the call fails', async () => {
    const { fetchImpl, calls } = mockApi({});
    const el = line();
    await showViews(document, fetchImpl);
    expect(calls).toHaveLength(1);
    expect(el.hidden).toBe(true);
    expect(el.textContent).toBe('');
  });
});

describe('WatchlistList', () => {
  const cars = [
    { id: '1', slug: 'car-1', name: 'Car One', price_text: '$10,000', image: '/1.jpg' },
    { id: '2', slug: 'car-2', name: 'Car Two', price_text: '$20,000', image: null },
  ];
  const routes = (ids: string[]) => ({
    'GET /api/auth/me': { body: { signed_in: true, phone_number: '0412345678' } },
    'GET /api/watchlist': { body: { success: true, car_ids: ids } },
    'GET /watchlist-cars.json': { body: cars },
  });

  it('lists the saved cars newest first, and one no longer listed', async () => {
    const { fetchImpl } = mockApi(routes(['1', '2', '99']));
    render(<WatchlistList apiBase="" carsUrl="/watchlist-cars.json" fetchImpl={fetchImpl} />);
    const list = await screen.findByRole('list', { name: 'Saved cars' });
    expect([...list.querySelectorAll('.watchlist__name')].map((n) => n.textContent)).toEqual(['A car that is no longer listed', 'Car Two', 'Car One']);
    expect(screen.getByRole('link', { name: 'Car One' }).getAttribute('href')).toBe('/cars/car-1/');
  });

  it('Remove: gone at once, then the Car Removed toast', async () => {
    const { fetchImpl, calls } = mockApi({ ...routes(['1']), 'POST /api/watchlist/remove-car': { body: { success: true } } });
    render(<WatchlistList apiBase="" carsUrl="/watchlist-cars.json" fetchImpl={fetchImpl} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Car One from your watchlist' }));
    expect(screen.getByText(/no saved cars yet/)).toBeTruthy();
    expect(await screen.findByText('Car One is no longer in your watchlist')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'View List' })).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/watchlist/remove-car')!.body).toEqual({ phone_number: '0412345678', car_id: '1' });
  });

  it('a failed remove puts the car back and alerts', async () => {
    const alert = vi.fn();
    const { fetchImpl } = mockApi({ ...routes(['1']), 'POST /api/watchlist/remove-car': { status: 500, body: { error: 'Database busy.' } } });
    render(<WatchlistList apiBase="" carsUrl="/watchlist-cars.json" fetchImpl={fetchImpl} alert={alert} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Car One from your watchlist' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Database busy.'));
    expect(screen.getByRole('link', { name: 'Car One' })).toBeTruthy();
    expect(screen.queryByText('Car Removed')).toBeNull();
  });

  it('signed out: a sign-in link back to the list', async () => {
    const { fetchImpl } = mockApi({ 'GET /api/auth/me': { body: { signed_in: false } } });
    render(<WatchlistList apiBase="" carsUrl="/watchlist-cars.json" fetchImpl={fetchImpl} />);
    const link = await screen.findByRole('link', { name: 'Sign in' });
    expect(new URLSearchParams(link.getAttribute('href')!.split('?')[1]).get('redirect')).toBe('/watchlist/');
  });
});
