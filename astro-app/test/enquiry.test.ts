import { describe, expect, it, vi } from 'vitest';
import {
  EMAIL_MESSAGE,
  PHONE_MESSAGE,
  TERMS_MESSAGE,
  UNEXPECTED_ERROR,
  buildEnquiryPayload,
  isEmail,
  leadsUrl,
  parseAuPhone,
  submitLead,
  validateEnquiry,
  type EnquiryValues,
} from '../src/lib/enquiry';

const valid: EnquiryValues = {
  name: 'Sam Citizen',
  email: 'sam@example.com.au',
  phone: '0412 345 678',
  message: 'Is it still available?',
  terms: true,
};

describe('parseAuPhone (same cases as rules/src/contact.rs)', () => {
  it('accepts mobiles in common spellings', () => {
    for (const input of [
      '0412345678',
      '0412 345 678',
      '0412-345-678',
      '04 1234 5678',
      '+61412345678',
      '+61 412 345 678',
      '+61 (0)412 345 678',
      '  0412 345 678  ',
    ]) {
      expect(parseAuPhone(input), input).toBe('0412345678');
    }
  });

  it('accepts landlines of every area code', () => {
    expect(parseAuPhone('(02) 9876 5432')).toBe('0298765432');
    expect(parseAuPhone('03 9876 5432')).toBe('0398765432');
    expect(parseAuPhone('07.3000.1001')).toBe('0730001001');
    expect(parseAuPhone('+61 8 9123 4567')).toBe('0891234567');
  });

  it('rejects other prefixes, lengths, letters and a misplaced plus', () => {
    for (const input of ['', '041234567', '04123456789', '0512345678', '1300 123 456', '+6141234567', '+44 20 7946 0958', '0412 345 67a', '04+12345678', '0412/345/678']) {
      expect(parseAuPhone(input), input).toBeNull();
    }
  });
});

describe('isEmail', () => {
  it('accepts ordinary addresses', () => {
    expect(isEmail('sam@example.com.au')).toBe(true);
    expect(isEmail('first.last+cars@sub.example.com')).toBe(true);
  });
  it('rejects the rest', () => {
    for (const input of ['', 'sam', 'sam@', '@example.com', 'sam@example', 'sam@example.c0m', 'sa m@example.com', 'sam@-example.com', 'a..b@example.com']) {
      expect(isEmail(input), input).toBe(false);
    }
  });
});

describe('validateEnquiry', () => {
  it('passes a complete form', () => {
    expect(validateEnquiry(valid)).toEqual({});
  });

  it('reports every empty field at once', () => {
    expect(validateEnquiry({ name: ' ', email: '', phone: '', message: '', terms: false })).toEqual({
      name: 'Please enter your name.',
      email: 'Please enter your email address.',
      phone: 'Please enter your phone number.',
      message: 'Please enter a message.',
      terms: TERMS_MESSAGE,
    });
  });

  it('uses the server messages for bad email and phone', () => {
    const errors = validateEnquiry({ ...valid, email: 'sam@example', phone: '1234' });
    expect(errors).toEqual({ email: EMAIL_MESSAGE, phone: PHONE_MESSAGE });
  });

  it('uses the spec wording for the terms checkbox', () => {
    expect(validateEnquiry({ ...valid, terms: false }).terms).toBe('*You must agree to the terms of use before submitting.');
  });
});

describe('buildEnquiryPayload', () => {
  it('trims, normalises the phone and adds the car and location', () => {
    expect(
      buildEnquiryPayload({ ...valid, name: ' Sam Citizen ', phone: '+61 412 345 678' }, {
        carId: 'car-1',
        locationId: 'loc-1',
        url: 'https://www.example.com.au/cars/x/',
        idempotencyKey: 'key-1',
      }),
    ).toEqual({
      category: 'enquiry',
      name: 'Sam Citizen',
      email: 'sam@example.com.au',
      phone: '0412345678',
      message: 'Is it still available?',
      car_id: 'car-1',
      location_id: 'loc-1',
      terms_conditions: true,
      url: 'https://www.example.com.au/cars/x/',
      idempotency_key: 'key-1',
    });
  });
});

describe('submitLead', () => {
  const payload = buildEnquiryPayload(valid, { carId: 'c', locationId: 'l', url: 'https://x.example/', idempotencyKey: 'k' });
  const respond = (status: number, body: unknown) =>
    vi.fn<typeof fetch>(async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status }));

  it('builds the endpoint from api_base', () => {
    expect(leadsUrl('')).toBe('/api/leads');
    expect(leadsUrl('https://api.example.com/')).toBe('https://api.example.com/api/leads');
  });

  it('posts JSON and returns the lead id', async () => {
    const fetchMock = respond(201, { lead_id: 'lead-42' });
    await expect(submitLead('https://api.example.com', payload, fetchMock)).resolves.toEqual({ ok: true, leadId: 'lead-42' });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('https://api.example.com/api/leads');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual(payload);
  });

  it("returns the server's error and field messages", async () => {
    const result = await submitLead('', payload, respond(400, { error: 'Please fix the following errors:', fields: { phone: 'Bad phone', terms_conditions: 'Agree', other: 'x' } }));
    expect(result).toEqual({ ok: false, error: 'Please fix the following errors:', fields: { phone: 'Bad phone', terms: 'Agree' } });
  });

  it('falls back to the generic message', async () => {
    expect(await submitLead('', payload, respond(500, 'oops'))).toEqual({ ok: false, error: UNEXPECTED_ERROR, fields: {} });
    const offline = vi.fn<typeof fetch>(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await submitLead('', payload, offline)).toEqual({ ok: false, error: UNEXPECTED_ERROR, fields: {} });
  });
});
