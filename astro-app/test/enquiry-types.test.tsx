// @vitest-environment jsdom
/**
 * Kinds of car enquiry (`?enquiry=` from the result cards' buttons; spec 000
 * §5, 002 §4) and the enquiry analytics event (spec 001 §7).
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import EnquiryForm, { type EnquiryFormProps } from '../src/islands/EnquiryForm';
import {
  buildEnquiryPayload,
  enquiryEventId,
  enquiryTypeOf,
  PHOTO_REQUEST_TEXT,
  requestedEnquiry,
  SIMILAR_MESSAGE,
  validateEnquiry,
} from '../src/lib/enquiry';
import { mockApi } from './helpers/api-mock';

const valid = { name: 'Sam', email: 'sam@example.com.au', phone: '0412 345 678', message: '', terms: true };
const ctx = { carId: 'car-1', locationId: 'loc-1', url: 'https://x.example/cars/a/', idempotencyKey: 'k' };

describe('enquiry kinds', () => {
  it.each([
    ['test-drive', 'test_drive', 'Book a Test Drive', 'Book a Test Drive'],
    ['finance', 'finance', 'Finance Enquiry', 'Get Finance'],
    ['offer', 'offer', 'Make an Offer', 'Make an Offer'],
    ['trade-in', 'trade_in', 'Trade-in Enquiry', 'Trade In'],
    ['photos', 'photo_request', 'Photo Request', 'Request Photos'],
    ['similar', 'find_me_similar', 'Find me something similar', 'Find Me Something Similar'],
  ])('%s → category %s, subcategory %s, heading %s', (requested, category, subcategory, title) => {
    expect(enquiryTypeOf(requested)).toMatchObject({ kind: requested, category, subcategory, title });
  });

  it('a missing or unknown kind is the plain enquiry; a sold car always asks for something similar', () => {
    expect(enquiryTypeOf(null).category).toBe('enquiry');
    expect(enquiryTypeOf('toString').category).toBe('enquiry');
    expect(enquiryTypeOf('<script>').category).toBe('enquiry');
    expect(enquiryTypeOf('test-drive', true)).toMatchObject({ category: 'find_me_similar', defaultMessage: SIMILAR_MESSAGE });
  });

  it('reads the kind from the query string', () => {
    expect(requestedEnquiry('?enquiry=test-drive')).toBe('test-drive');
    expect(requestedEnquiry('?a=1&enquiry=photos')).toBe('photos');
    expect(requestedEnquiry('')).toBeNull();
  });

  it('the message is required for open questions only (as LeadCategory::message_required)', () => {
    expect(validateEnquiry(valid, enquiryTypeOf(null)).message).toBe('Please enter a message.');
    expect(validateEnquiry(valid, enquiryTypeOf('similar')).message).toBe('Please enter a message.');
    for (const kind of ['test-drive', 'finance', 'offer', 'trade-in', 'photos']) {
      expect(validateEnquiry(valid, enquiryTypeOf(kind))).toEqual({});
    }
  });

  it('the photo request sends its hidden text, with the optional message after it', () => {
    const photos = enquiryTypeOf('photos');
    expect(buildEnquiryPayload(valid, ctx, photos).message).toBe(PHOTO_REQUEST_TEXT);
    expect(buildEnquiryPayload({ ...valid, message: 'Interior please' }, ctx, photos).message).toBe(`${PHOTO_REQUEST_TEXT}\n\nInterior please`);
    expect(PHOTO_REQUEST_TEXT).toBe('Please send photos for this car');
  });

  it('only the test drive sends a preferred date and time, and only when chosen', () => {
    const when = { date: '2026-12-01', time: '10:30' };
    expect(buildEnquiryPayload(valid, ctx, enquiryTypeOf('test-drive'), when)).toMatchObject({
      category: 'test_drive',
      subcategory: 'Book a Test Drive',
      preferred_date: '2026-12-01',
      preferred_time: '10:30',
    });
    expect(buildEnquiryPayload(valid, ctx, enquiryTypeOf('test-drive'), { date: '', time: '' })).not.toHaveProperty('preferred_date');
    expect(buildEnquiryPayload(valid, ctx, enquiryTypeOf('finance'), when)).not.toHaveProperty('preferred_date');
  });
});

describe('enquiry event id (spec 001 §7)', () => {
  it('is 17 for a Test Drive Only tag (whatever the type), 15 for used cars, otherwise 14', () => {
    expect(enquiryEventId({ tag: 'Test Drive Only', carType: 'used' })).toBe(17);
    expect(enquiryEventId({ tag: ' test drive only ', carType: 'new' })).toBe(17);
    expect(enquiryEventId({ tag: 'Test Drive', carType: 'used' })).toBe(15);
    expect(enquiryEventId({ tag: null, carType: 'used' })).toBe(15);
    expect(enquiryEventId({ tag: null, carType: 'new' })).toBe(14);
    expect(enquiryEventId({ tag: 'Hot Deal', carType: 'demo' })).toBe(14);
    expect(enquiryEventId({})).toBe(14);
  });
});

describe('EnquiryForm kinds', () => {
  beforeEach(() => window.history.replaceState(null, '', '/cars/a/'));
  afterEach(cleanup);

  function setup(props: Partial<EnquiryFormProps> = {}, leadStatus = 201) {
    const api = mockApi({
      'POST /api/leads': { status: leadStatus, body: leadStatus < 300 ? { lead_id: 'lead-1' } : { error: 'No.' } },
      'POST /api/events': { body: { ok: true } },
    });
    render(<EnquiryForm apiBase="https://api.example.com" carId="car-1" locationId="loc-1" carName="2020 Kia Rio S" fetchImpl={api.fetchImpl} {...props} />);
    return api;
  }
  function fill(message?: string) {
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Sam Citizen' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'sam@example.com.au' } });
    fireEvent.change(screen.getByLabelText('Phone'), { target: { value: '0412 345 678' } });
    if (message !== undefined) fireEvent.change(screen.getByLabelText(/^Message/), { target: { value: message } });
    fireEvent.click(screen.getByRole('checkbox'));
  }
  const lead = (api: ReturnType<typeof mockApi>) => api.calls.find((c) => c.path === '/api/leads')?.body as Record<string, unknown>;

  it('?enquiry=test-drive: heading, optional date and time, category and subcategory', async () => {
    window.history.replaceState(null, '', '/cars/a/?enquiry=test-drive');
    const api = setup();
    expect(await screen.findByRole('heading', { name: 'Book a Test Drive' })).toBeTruthy();
    expect(screen.getByLabelText('Message (optional)')).toBeTruthy();
    fill();
    fireEvent.change(screen.getByLabelText('Preferred date (optional)'), { target: { value: '2026-12-01' } });
    fireEvent.change(screen.getByLabelText('Preferred time (optional)'), { target: { value: '10:30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Request test drive' }));
    await screen.findByRole('status');
    expect(lead(api)).toMatchObject({ category: 'test_drive', subcategory: 'Book a Test Drive', preferred_date: '2026-12-01', preferred_time: '10:30', message: '' });
  });

  it('?enquiry=photos: hidden request text, message optional', async () => {
    window.history.replaceState(null, '', '/cars/a/?enquiry=photos');
    const api = setup();
    expect(await screen.findByRole('heading', { name: 'Request Photos' })).toBeTruthy();
    const hidden = document.querySelector('input[type="hidden"][name="text"]') as HTMLInputElement;
    expect(hidden.value).toBe('Please send photos for this car');
    expect(screen.queryByLabelText('Preferred date (optional)')).toBeNull();
    fill();
    fireEvent.click(screen.getByRole('button', { name: 'Send enquiry' }));
    await screen.findByRole('status');
    expect(lead(api)).toMatchObject({ category: 'photo_request', subcategory: 'Photo Request', message: 'Please send photos for this car' });
  });

  it.each([
    ['finance', 'finance', 'Finance Enquiry', 'Get Finance'],
    ['offer', 'offer', 'Make an Offer', 'Make an Offer'],
    ['trade-in', 'trade_in', 'Trade-in Enquiry', 'Trade In'],
  ])('?enquiry=%s sends category %s / %s under the heading %s', async (kind, category, subcategory, heading) => {
    window.history.replaceState(null, '', `/cars/a/?enquiry=${kind}`);
    const api = setup({ title: 'Enquire about this car' });
    expect(await screen.findByRole('heading', { name: heading })).toBeTruthy();
    fill('Call me after 5');
    fireEvent.click(screen.getByRole('button', { name: 'Send enquiry' }));
    await screen.findByRole('status');
    expect(lead(api)).toMatchObject({ category, subcategory, message: 'Call me after 5' });
  });

  it('a sold car asks for something similar, pre-filled, even when a test drive was requested', async () => {
    window.history.replaceState(null, '', '/cars/a/?enquiry=test-drive');
    const api = setup({ sold: true });
    expect(await screen.findByRole('heading', { name: 'Find Me Something Similar' })).toBeTruthy();
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('Can you please find me something similar?');
    fill();
    fireEvent.click(screen.getByRole('button', { name: 'Send enquiry' }));
    await screen.findByRole('status');
    expect(lead(api)).toMatchObject({ category: 'find_me_similar', subcategory: 'Find me something similar', message: SIMILAR_MESSAGE });
  });

  it('?enquiry=similar (the sold card button) pre-fills the message too', async () => {
    window.history.replaceState(null, '', '/cars/a/?enquiry=similar');
    setup();
    await waitFor(() => expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe(SIMILAR_MESSAGE));
  });

  it('sends the enquiry event after the lead is stored, only with the sink on', async () => {
    const on = setup({ analytics: true, tag: 'Test Drive Only', carType: 'used' });
    fill('Still there?');
    fireEvent.click(screen.getByRole('button', { name: 'Send enquiry' }));
    await screen.findByRole('status');
    await waitFor(() => expect(on.calls.map((c) => c.path)).toEqual(['/api/leads', '/api/events']));
    expect(on.calls[1]!.url).toBe('https://api.example.com/api/events');
    expect(on.calls[1]!.body).toMatchObject({ event_id: 17, car_id: 'car-1' });
    cleanup();

    const used = setup({ analytics: true, carType: 'used' });
    fill('Still there?');
    fireEvent.click(screen.getByRole('button', { name: 'Send enquiry' }));
    await screen.findByRole('status');
    await waitFor(() => expect(used.calls[1]?.body).toMatchObject({ event_id: 15 }));
    cleanup();

    const off = setup({ analytics: false, carType: 'used' });
    fill('Still there?');
    fireEvent.click(screen.getByRole('button', { name: 'Send enquiry' }));
    await screen.findByRole('status');
    expect(off.calls.map((c) => c.path)).toEqual(['/api/leads']);
  });

  it('sends no event when the lead fails', async () => {
    const api = setup({ analytics: true, carType: 'new' }, 400);
    fill('Still there?');
    fireEvent.click(screen.getByRole('button', { name: 'Send enquiry' }));
    await screen.findByRole('alert');
    expect(api.calls.map((c) => c.path)).toEqual(['/api/leads']);
  });
});
