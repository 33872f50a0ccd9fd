/**
 * The car enquiry's kinds (`?enquiry=` on the car page) and the contact
 * rules every form shares (Australian phones, e-mail addresses), kept free
 * of React. The forms themselves: lib/forms/ and islands/forms/.
 */
import { EVENTS, vehicleEnquiryEvent } from './events';

export const TERMS_MESSAGE = '*You must agree to the terms of use before submitting.';

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
  /** Sent with the message, never shown (the photo request's text, docs/behaviour/search.md §5). */
  hiddenText: string;
  /** Optional preferred date and time (the test drive form, docs/behaviour/search.md §5). */
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
  // docs/behaviour/content.md §4: a car not in stock asks for something similar.
  similar: { category: 'find_me_similar', subcategory: 'Find me something similar', title: 'Find Me Something Similar', defaultMessage: SIMILAR_MESSAGE, messageRequired: true, hiddenText: '', dateTime: false },
};

/**
 * The form for a requested kind (the `enquiry` query parameter; unknown or
 * missing: the plain enquiry). A sold car only ever gets Find Me Something
 * Similar (docs/behaviour/car-page.md §4: the SOLD panel replaces the buy buttons).
 */
export function enquiryTypeOf(requested: string | null | undefined, sold = false): EnquiryType {
  const kind: EnquiryKind = sold ? 'similar' : requested && Object.hasOwn(TYPES, requested) ? (requested as EnquiryKind) : 'enquiry';
  return { kind, ...TYPES[kind] };
}

/** The `enquiry` parameter of a query string ("?enquiry=test-drive"), or null. */
export function requestedEnquiry(search: string): string | null {
  return new URLSearchParams(search).get('enquiry');
}

/** Analytics event ids of a sent enquiry (docs/behaviour/car-page.md §7), from the one event table (lib/events.ts). */
export const EVENT_ENQUIRY = EVENTS.vehicle_enquiry;
export const EVENT_ENQUIRY_USED = EVENTS.vehicle_enquiry_used;
export const EVENT_ENQUIRY_TEST_DRIVE_ONLY = EVENTS.vehicle_enquiry_test_drive_only;

/** The event a sent enquiry records (17 Test Drive Only, 15 used, 14 otherwise). */
export const enquiryEventId = vehicleEnquiryEvent;
