/**
 * Enquiry form rules and the lead call, kept free of React so they can be
 * tested on their own and reused by later forms (test drive, finance...).
 */

export const TERMS_MESSAGE = '*You must agree to the terms of use before submitting.';
export const UNEXPECTED_ERROR = 'An unexpected error occured.';

export interface EnquiryValues {
  name: string;
  email: string;
  phone: string;
  message: string;
  terms: boolean;
}

export type EnquiryField = keyof EnquiryValues;
export type EnquiryErrors = Partial<Record<EnquiryField, string>>;

/** Removes the spaces, dashes, dots and brackets people type into phone numbers. */
export function normalisePhone(phone: string): string {
  return phone.trim().replace(/[\s\-().]/g, '');
}

/**
 * Australian numbers: mobiles 04xxxxxxxx or +614xxxxxxxx,
 * landlines 0[2378]xxxxxxxx (area code plus 8 digits).
 */
export function isAustralianPhone(phone: string): boolean {
  const p = normalisePhone(phone);
  return /^04\d{8}$/.test(p) || /^\+614\d{8}$/.test(p) || /^0[2378]\d{8}$/.test(p);
}

/** A pragmatic check (something@domain.tld); the server validates again. */
export function isEmail(email: string): boolean {
  return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email.trim());
}

/** Per-field messages; an empty object means the form may be sent. */
export function validateEnquiry(values: EnquiryValues): EnquiryErrors {
  const errors: EnquiryErrors = {};
  if (values.name.trim() === '') errors.name = 'Please enter your name.';
  if (values.email.trim() === '') errors.email = 'Please enter your email address.';
  else if (!isEmail(values.email)) errors.email = 'Please enter a valid email address.';
  if (values.phone.trim() === '') errors.phone = 'Please enter your phone number.';
  else if (!isAustralianPhone(values.phone))
    errors.phone = 'Please enter a valid Australian phone number, e.g. 0412 345 678.';
  if (values.message.trim() === '') errors.message = 'Please enter a message.';
  if (!values.terms) errors.terms = TERMS_MESSAGE;
  return errors;
}

/** The JSON body of POST {api_base}/api/leads for a vehicle enquiry. */
export interface EnquiryPayload {
  category: 'enquiry';
  name: string;
  email: string;
  phone: string;
  message: string;
  car_id: string;
  location_id: string;
  terms_conditions: true;
  url: string;
  idempotency_key: string;
}

export function buildEnquiryPayload(
  values: EnquiryValues,
  context: { carId: string; locationId: string; url: string; idempotencyKey: string },
): EnquiryPayload {
  return {
    category: 'enquiry',
    name: values.name.trim(),
    email: values.email.trim(),
    phone: normalisePhone(values.phone),
    message: values.message.trim(),
    car_id: context.carId,
    location_id: context.locationId,
    terms_conditions: true,
    url: context.url,
    idempotency_key: context.idempotencyKey,
  };
}

export type LeadResult = { ok: true; leadId: string } | { ok: false; error: string };

/** `${apiBase}/api/leads`; apiBase "" means the same origin. */
export function leadsUrl(apiBase: string): string {
  return `${apiBase.replace(/\/+$/, '')}/api/leads`;
}

/**
 * Posts a lead. Resolves (never rejects) with the lead id, or with the
 * server's `error` message, or the generic message when there is none.
 */
export async function submitLead(
  apiBase: string,
  payload: EnquiryPayload,
  fetchImpl: typeof fetch = fetch,
): Promise<LeadResult> {
  try {
    const response = await fetchImpl(leadsUrl(apiBase), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(payload),
    });
    const body: unknown = await response.json().catch(() => null);
    const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const leadId = record['lead_id'];
    if (response.ok && (typeof leadId === 'string' || typeof leadId === 'number')) {
      return { ok: true, leadId: String(leadId) };
    }
    const error = record['error'];
    return { ok: false, error: typeof error === 'string' && error.trim() !== '' ? error : UNEXPECTED_ERROR };
  } catch {
    return { ok: false, error: UNEXPECTED_ERROR };
  }
}
