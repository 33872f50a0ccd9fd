// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EVENTS, sendEvent } from '../src/lib/events';
import { revealPhone, telLink } from '../src/lib/phone';
import { fetchViews, viewsPath, viewsText } from '../src/lib/views';
import { mockApi } from './helpers/api-mock';

describe('phone', () => {
  it('links digits only', () => {
    expect(telLink('(07) 3555 0101')).toBe('tel:0735550101');
    expect(telLink('+61 7 3555 0101')).toBe('tel:+61735550101');
  });
  it('reveals the number the worker answers, for the car and location', async () => {
    const { fetchImpl, calls } = mockApi({ 'POST /api/phone-reveal': { body: { phone: '(07) 3555 0101', location_id: 'l1' } } });
    expect(await revealPhone({ apiBase: '', carId: '42', locationId: 'l1', websiteId: 'demo', fetchImpl })).toBe('(07) 3555 0101');
    expect(calls[0]!.body).toEqual({ car_id: '42', location_id: 'l1', website_id: 'demo' });
  });
  it('a failed reveal is only logged', async () => {
    const { fetchImpl } = mockApi({ 'POST /api/phone-reveal': { status: 429, body: { error: 'Too many.' } } });
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(await revealPhone({ apiBase: '', carId: '42', locationId: 'l1', fetchImpl })).toBeNull();
    expect(log).toHaveBeenCalledWith('phone reveal failed:', 'Too many.');
    log.mockRestore();
  });
});

describe('views', () => {
  it('asks view.json with photos_count and website_id', () => {
    expect(viewsPath('2021-kia-rio-1', { photosCount: 12, websiteId: 'demo' })).toBe('/api/cars/2021-kia-rio-1/view.json?photos_count=12&website_id=demo');
  });
  it('reads the count, or null when the answer is not ok', async () => {
    expect(await fetchViews('', '/api/cars/x/view.json', mockApi({ 'GET /api/cars/x/view.json': { body: { slug: 'x', views: 1234 } } }).fetchImpl)).toBe(1234);
    expect(await fetchViews('', '/api/cars/x/view.json', mockApi({ 'GET /api/cars/x/view.json': { status: 404, body: { error: 'No such car.' } } }).fetchImpl)).toBeNull();
  });
  it('words the count', () => {
    expect(viewsText(1)).toBe('1 view');
    expect(viewsText(1234)).toBe('1,234 views');
  });
});

describe('analytics', () => {
  afterEach(() => {
    delete (window as { dataLayer?: unknown }).dataLayer;
  });
  it('a dealer without the sink: the dataLayer gets the event, the edge nothing', () => {
    const { fetchImpl, calls } = mockApi({});
    sendEvent({ apiBase: '', sink: false, fetchImpl }, EVENTS.save_car, {}, '1');
    expect(calls).toHaveLength(0);
    expect((window as { dataLayer?: unknown[] }).dataLayer).toEqual([{ event: 'dealergen_save_car', event_id: 39, car_id: '1' }]);
  });
  it('with the sink: also posts the event id, car and page to /api/events, kept alive past navigation', () => {
    const { fetchImpl, calls } = mockApi({ 'POST /api/events': { status: 202, body: { accepted: true } } });
    sendEvent({ apiBase: 'https://api.example.com', sink: true, fetchImpl }, EVENTS.phone_click, {}, '42');
    expect(calls[0]).toMatchObject({ url: 'https://api.example.com/api/events', body: { event_id: 25, car_id: '42', url: window.location.href } });
    expect(calls[0]!.init!.keepalive).toBe(true);
    expect((window as { dataLayer?: unknown[] }).dataLayer).toHaveLength(1);
  });
  it('a broken dataLayer does not stop the sink', () => {
    (window as { dataLayer?: unknown }).dataLayer = { push: () => { throw new Error('tag manager'); } };
    const { fetchImpl, calls } = mockApi({ 'POST /api/events': { status: 202, body: {} } });
    sendEvent({ apiBase: '', sink: true, fetchImpl }, EVENTS.car_print, {}, '42');
    expect(calls).toHaveLength(1);
  });
});
