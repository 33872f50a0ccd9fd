/**
 * Enquiry form rules and the lead call, kept free of React so they can be
 * tested on their own and reused by later forms (test drive, finance...).
 */

export const TERMS_MESSAGE = '*You must agree to the terms of use before submitting.';
export const UNEXPECTED_ERROR = 'An unexpected error occurred.';

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
 * Messages shared with the server (rules/src/contact.rs, edge/core/src/lead.rs), so the
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

/**
 * The kinds of car enquiry a link can ask for with `?enquiry=<kind>` (the
 * result cards' Book a Test Drive, Get Finance, Make an Offer... buttons).
 * `category` is the server's lead category (edge/core/src/lead.rs LeadCategory),
 * `subcategory` the label the dealer's CRM files it under.
 */
export type EnquiryKind = 'enquiry' | 'test-drive' | 'finance' | 'offer' | 'trade-in' | 'photos' | 'similar';

export interface EnquiryType {
  kind: EnquiryKind;
  category: 'enquiry' | 'test_drive' | 'finance' | 'offer' | 'trade_in' | 'photo_request' | 'find_me_similar';
  subcategory: string;
  title: string;
  /** Pre-filled message. */
  defaultMessage: string;
  /**
   * Whether the shopper must write a message: as on the server
   * (LeadCategory::message_required), forms whose intent the category
   * already states leave it optional.
   */
  messageRequired: boolean;
  /** Sent with the message, never shown (the photo request's text, spec 000 §5). */
  hiddenText: string;
  /** Optional preferred date and time (the test drive form, spec 000 §5). */
  dateTime: boolean;
}

export const SIMILAR_MESSAGE = 'Can you please find me something similar?';
export const PHOTO_REQUEST_TEXT = 'Please send photos for this car';

const TYPES: Record<EnquiryKind, Omit<EnquiryType, 'kind'>> = {
  enquiry: { category: 'enquiry', subcategory: 'Vehicle Enquiry', title: 'Enquire about this car', defaultMessage: '', messageRequired: true, hiddenText: '', dateTime: false },
  'test-drive': { category: 'test_drive', subcategory: 'Book a Test Drive', title: 'Book a Test Drive', defaultMessage: '', messageRequired: false, hiddenText: '', dateTime: true },
  finance: { category: 'finance', subcategory: 'Finance Enquiry', title: 'Get Finance', defaultMessage: '', messageRequired: false, hiddenText: '', dateTime: false },
  offer: { category: 'offer', subcategory: 'Make an Offer', title: 'Make an Offer', defaultMessage: '', messageRequired: false, hiddenText: '', dateTime: false },
  'trade-in': { category: 'trade_in', subcategory: 'Trade-in Enquiry', title: 'Trade In', defaultMessage: '', messageRequired: false, hiddenText: '', dateTime: false },
  photos: { category: 'photo_request', subcategory: 'Photo Request', title: 'Request Photos', defaultMessage: '', messageRequired: false, hiddenText: PHOTO_REQUEST_TEXT, dateTime: false },
  // Spec 002 §4: a car not in stock asks for something similar.
  similar: { category: 'find_me_similar', subcategory: 'Find me something similar', title: 'Find Me Something Similar', defaultMessage: SIMILAR_MESSAGE, messageRequired: true, hiddenText: '', dateTime: false },
};

/**
 * The form for a requested kind (the `enquiry` query parameter; unknown or
 * missing: the plain enquiry). A sold car only ever gets Find Me Something
 * Similar (spec 001 §4: the SOLD panel replaces the buy buttons).
 */
export function enquiryTypeOf(requested: string | null | undefined, sold = false): EnquiryType {
  const kind: EnquiryKind = sold ? 'similar' : requested && Object.hasOwn(TYPES, requested) ? (requested as EnquiryKind) : 'enquiry';
  return { kind, ...TYPES[kind] };
}

/** The `enquiry` parameter of a query string ("?enquiry=test-drive"), or null. */
export function requestedEnquiry(search: string): string | null {
  return new URLSearchParams(search).get('enquiry');
}

/** Analytics event ids of a sent enquiry (spec 001 §7). */
export const EVENT_ENQUIRY = 14;
export const EVENT_ENQUIRY_USED = 15;
export const EVENT_ENQUIRY_TEST_DRIVE_ONLY = 17;

/**
 * The event a sent enquiry records: 17 when the car's tag is "Test Drive
 * Only", 15 for a used car, otherwise 14 (spec 001 §7). The tag is the
 * dealer's own (Car.tag), not the banner, which Reserved may have replaced.
 */
export function enquiryEventId(car: { tag?: string | null; carType?: string | null }): 14 | 15 | 17 {
  if (car.tag?.trim().toLowerCase() === 'test drive only') return EVENT_ENQUIRY_TEST_DRIVE_ONLY;
  return car.carType === 'used' ? EVENT_ENQUIRY_USED : EVENT_ENQUIRY;
}

/** Per-field messages; an empty object means the form may be sent. */
export function validateEnquiry(values: EnquiryValues, type: Pick<EnquiryType, 'messageRequired'> = { messageRequired: true }): EnquiryErrors {
  const errors: EnquiryErrors = {};
  if (values.name.trim() === '') errors.name = 'Please enter your name.';
  if (values.email.trim() === '') errors.email = 'Please enter your email address.';
  else if (!isEmail(values.email)) errors.email = EMAIL_MESSAGE;
  if (values.phone.trim() === '') errors.phone = 'Please enter your phone number.';
  else if (!isAustralianPhone(values.phone)) errors.phone = PHONE_MESSAGE;
  if (type.messageRequired && values.message.trim() === '') errors.message = 'Please enter a message.';
  if (!values.terms) errors.terms = TERMS_MESSAGE;
  return errors;
}

/** The JSON body of POST {api_base}/api/leads for a vehicle enquiry. */
export interface EnquiryPayload {
  category: EnquiryType['category'];
  /** Extra field the server keeps as given (edge/core/src/lead.rs `extra`). */
  subcategory?: string;
  /** Test drive: "2026-12-01" and "10:30", only when the shopper chose them. */
  preferred_date?: string;
  preferred_time?: string;
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
  type?: EnquiryType,
  when: { date?: string; time?: string } = {},
): EnquiryPayload {
  // The photo request's hidden text leads the message, so the dealer reads
  // the request even when the shopper adds nothing.
  const message = [type?.hiddenText ?? '', values.message.trim()].filter(Boolean).join('\n\n');
  return {
    category: type?.category ?? 'enquiry',
    ...(type ? { subcategory: type.subcategory } : {}),
    ...(type?.dateTime && when.date ? { preferred_date: when.date } : {}),
    ...(type?.dateTime && when.time ? { preferred_time: when.time } : {}),
    name: values.name.trim(),
    email: values.email.trim(),
    phone: parseAuPhone(values.phone) ?? values.phone.trim(),
    message,
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
