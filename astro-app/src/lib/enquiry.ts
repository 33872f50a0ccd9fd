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

/**
 * Messages shared with the server (rules/src/contact.rs and lead.rs), so the
 * shopper sees the same words whichever side catches the problem.
 */
export const PHONE_MESSAGE = 'Please enter an Australian phone number, e.g. 0412 345 678 or (02) 9876 5432.';
export const EMAIL_MESSAGE = 'Please enter a valid email address, e.g. name@example.com.au.';

/** Longest phone input accepted before separators are removed (as on the server). */
const PHONE_INPUT_MAX_LEN = 32;

/**
 * An Australian mobile (04xx xxx xxx, +61 4xx xxx xxx) or landline
 * (0[2378] + 8 digits, +61 [2378] + 8 digits) in national form
 * ("0412345678"), or null. Spaces, dashes, dots and brackets are allowed,
 * "+61 (0)412 345 678" too. Mirrors parse_au_phone in rules/src/contact.rs.
 */
export function parseAuPhone(input: string): string | null {
  const trimmed = input.trim();
  if (trimmed === '' || trimmed.length > PHONE_INPUT_MAX_LEN) return null;
  const international = trimmed.startsWith('+');
  const rest = international ? trimmed.slice(1) : trimmed;
  if (!/^[\d .()-]+$/.test(rest)) return null;
  const digits = rest.replace(/[^\d]/g, '');
  let national = digits;
  if (international) {
    if (!digits.startsWith('61')) return null;
    let afterCc = digits.slice(2);
    if (afterCc.length === 10) {
      // "+61 (0)4..": the trunk zero written after the country code.
      if (!afterCc.startsWith('0')) return null;
      afterCc = afterCc.slice(1);
    }
    national = `0${afterCc}`;
  }
  return /^0[2378]\d{8}$|^04\d{8}$/.test(national) ? national : null;
}

export function isAustralianPhone(phone: string): boolean {
  return parseAuPhone(phone) !== null;
}

/**
 * The server's e-mail rule: a dot-atom local part (at most 64 characters)
 * and a domain of two or more letter/digit/hyphen labels ending in an
 * alphabetic top-level label.
 */
export function isEmail(input: string): boolean {
  const email = input.trim();
  if (email.length > 254) return false;
  const at = email.indexOf('@');
  if (at < 0) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const localOk =
    local.length > 0 && local.length <= 64 && local.split('.').every((atom) => /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/.test(atom));
  const labels = domain.split('.');
  const tld = labels[labels.length - 1] ?? '';
  const domainOk =
    labels.length >= 2 &&
    /^[A-Za-z]{2,}$/.test(tld) &&
    labels.every((l) => l.length > 0 && l.length <= 63 && /^[A-Za-z0-9-]+$/.test(l) && !l.startsWith('-') && !l.endsWith('-'));
  return localOk && domainOk;
}

/** Per-field messages; an empty object means the form may be sent. */
export function validateEnquiry(values: EnquiryValues): EnquiryErrors {
  const errors: EnquiryErrors = {};
  if (values.name.trim() === '') errors.name = 'Please enter your name.';
  if (values.email.trim() === '') errors.email = 'Please enter your email address.';
  else if (!isEmail(values.email)) errors.email = EMAIL_MESSAGE;
  if (values.phone.trim() === '') errors.phone = 'Please enter your phone number.';
  else if (!isAustralianPhone(values.phone)) errors.phone = PHONE_MESSAGE;
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
    phone: parseAuPhone(values.phone) ?? values.phone.trim(),
    message: values.message.trim(),
    car_id: context.carId,
    location_id: context.locationId,
    terms_conditions: true,
    url: context.url,
    idempotency_key: context.idempotencyKey,
  };
}

export type LeadResult =
  | { ok: true; leadId: string }
  | { ok: false; error: string; fields: EnquiryErrors };

/** Server field names (JSON keys) that differ from the form's. */
const SERVER_FIELDS: Record<string, EnquiryField> = {
  name: 'name',
  email: 'email',
  phone: 'phone',
  message: 'message',
  terms_conditions: 'terms',
};

/** The server's `{"fields": {...}}` per-field messages, mapped onto form fields. */
function fieldErrors(value: unknown): EnquiryErrors {
  const errors: EnquiryErrors = {};
  if (typeof value !== 'object' || value === null) return errors;
  for (const [key, message] of Object.entries(value)) {
    const field = SERVER_FIELDS[key];
    if (field && typeof message === 'string') errors[field] = message;
  }
  return errors;
}

/** `${apiBase}/api/leads`; apiBase "" means the same origin. */
export function leadsUrl(apiBase: string): string {
  return `${apiBase.replace(/\/+$/, '')}/api/leads`;
}

/**
 * Posts a lead. Resolves (never rejects) with the lead id, or with the
 * server's `error` message (the generic message when there is none) and its
 * per-field messages.
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
    return {
      ok: false,
      error: typeof error === 'string' && error.trim() !== '' ? error : UNEXPECTED_ERROR,
      fields: fieldErrors(record['fields']),
    };
  } catch {
    return { ok: false, error: UNEXPECTED_ERROR, fields: {} };
  }
}
