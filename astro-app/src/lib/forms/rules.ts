/**
 * Field rules of every shopper form: what a field may hold and the words a
 * shopper reads when it does not. The worker checks the same fields with
 * the same messages (edge/core/src/lead.rs, rules/src/contact.rs); both
 * sides are pinned by one file of cases, rules/vectors/forms.json.
 *
 * Pure: no DOM, no React. A form is a list of `FieldRule`s; its values are
 * a map from the field's wire name (the JSON key the worker reads, also the
 * `name` of the HTML input) to the text typed or the box ticked.
 */
import { isEmail, parseAuPhone } from '../enquiry';

/** Every message a form shows, by the key rules/vectors/forms.json uses. */
export const MESSAGES = {
  name_missing: 'Please enter your name.',
  last_name_missing: 'Please enter your last name.',
  email_missing: 'Please enter your email address.',
  email_invalid: 'Please enter a valid email address, e.g. name@example.com.au.',
  phone_missing: 'Please enter your phone number.',
  phone_invalid: 'Please enter an Australian phone number, e.g. 0412 345 678 or (02) 9876 5432.',
  message_missing: 'Please enter a message.',
  terms: '*You must agree to the terms of use before submitting.',
  postcode_missing: 'Please enter your postcode.',
  postcode_invalid: 'Invalid postcode. Please enter a 4-digit number.',
  offer_missing: 'Please enter your offer amount.',
  offer_invalid: 'Please enter your offer as an amount in dollars.',
  amount_invalid: 'Please enter an amount in whole dollars, e.g. 25000.',
  category_missing: 'Please choose an enquiry category.',
  choice_missing: 'Please choose an option.',
  location_missing: 'Please choose a location.',
  rego_invalid: 'Please enter the registration as letters and numbers (at most 12).',
  rego_missing: 'Please enter the registration.',
  rego_state_invalid: 'Please choose the state the car is registered in.',
  kms_missing: 'Please enter the odometer reading.',
  kms_invalid: 'Please enter the kilometres as a whole number.',
  date_invalid: 'Please choose a date from today on, within a year.',
  time_invalid: 'Please choose a time as HH:MM.',
  year_invalid: 'Please enter a year such as 2018.',
  trade_in_car_missing: "Please enter the car's registration, or its year, make and model.",
  unsubscribe_missing: 'Please enter the email address or mobile number to unsubscribe.',
} as const;

export type MessageKey = keyof typeof MESSAGES;

/** Title of the error panel (docs/behaviour/content.md §5). */
export const FORM_ERROR_TITLE = 'Please fix the following errors:';
/** The panel's title when the server refused the form without naming a field: docs/behaviour/content.md's failure wording, announced by the panel (role=alert) rather than a blocking alert(). */
export const NOT_SENT_TITLE = 'An error occurred when submitting this form';
/** The panel's message when the lead could not reach the dealer (no network, the service down); the phone follows it. */
export const NOT_SENT_MESSAGE = 'We could not send it: our enquiry service did not answer. Nothing you entered is lost.';
/** Label of the terms checkbox (the words before the two links). */
export const TERMS_LABEL = 'I agree to the terms of use and privacy policy.';

/** Postcodes are exactly 4 digits; the input takes at most 4 characters (docs/behaviour/content.md §5). */
export const POSTCODE_MAX_LENGTH = 4;
/** Registrations: letters, digits, spaces and dashes, at most 12 characters (as the worker takes them). */
export const REGO_MAX_LENGTH = 12;
/** Highest odometer reading the worker takes. */
export const KMS_MAX = 2_000_000;
/** Highest amount a money field takes (the calculator's purchase maximum is 250,000; caravans and trucks go higher). */
export const AMOUNT_MAX = 10_000_000;

/** The Australian states and territories a form's state select offers. */
export const AU_STATES = ['ACT', 'NSW', 'NT', 'QLD', 'SA', 'TAS', 'VIC', 'WA'] as const;

/** How a field's value is checked. */
export type RuleKind =
  | 'name'
  | 'last_name'
  | 'email'
  | 'phone'
  | 'message'
  | 'text'
  | 'terms'
  | 'checkbox'
  | 'postcode'
  | 'money'
  | 'choice'
  /** Several of `choices` (a value per line): the service booking's extras. */
  | 'choices'
  | 'rego'
  | 'kms'
  | 'date'
  | 'time'
  | 'year';

export interface FieldRule {
  /** Wire name: the JSON key and the input's `name`. */
  name: string;
  rule: RuleKind;
  required: boolean;
  /** Message for a required field left empty, when not the rule's own. */
  missing?: MessageKey;
  /** Required only while this other field is empty (an unsubscribe: the e-mail, unless a mobile is given). */
  requiredUnless?: string;
  /** For `choice`: the values that may be chosen. */
  choices?: readonly string[];
}

export type FieldValue = string | boolean;

/** The values of a `choices` field: one a line, as its checkboxes keep them. */
export function chosen(value: string): string[] {
  return value.split('\n').filter((v) => v.trim() !== '');
}
export type FormValues = Record<string, FieldValue>;
export type FormErrors = Record<string, string>;

const MISSING: Partial<Record<RuleKind, MessageKey>> = {
  name: 'name_missing',
  last_name: 'last_name_missing',
  email: 'email_missing',
  phone: 'phone_missing',
  message: 'message_missing',
  text: 'choice_missing',
  postcode: 'postcode_missing',
  money: 'offer_missing',
  choice: 'choice_missing',
  rego: 'rego_missing',
  kms: 'kms_missing',
  date: 'date_invalid',
  time: 'time_invalid',
  year: 'year_invalid',
};

/** "25,000", "$25 000" and "25000" are 25000; anything else (cents, letters) is null. */
export function parseAmount(input: string): number | null {
  const cleaned = input.trim().replace(/^\$/, '').replace(/[,\s]/g, '');
  if (!/^\d{1,9}$/.test(cleaned)) return null;
  const n = Number(cleaned);
  return n > 0 && n <= AMOUNT_MAX ? n : null;
}

/** Odometer readings: whole kilometres, separators allowed ("85,000"). */
export function parseKms(input: string): number | null {
  const cleaned = input.trim().replace(/[,\s]/g, '').replace(/km$/i, '');
  if (!/^\d{1,7}$/.test(cleaned)) return null;
  const n = Number(cleaned);
  return n <= KMS_MAX ? n : null;
}

/** "abc 123" -> "ABC123": registrations are sent without spaces or dashes, upper case (as the worker stores them). */
export function normaliseRego(input: string): string {
  return input.replace(/[\s-]/g, '').toUpperCase();
}

/** Letters, digits, spaces and dashes, 1 to 12 characters, with at least one letter or digit. */
export function isRego(input: string): boolean {
  const t = input.trim();
  return /^[A-Za-z0-9 -]{1,12}$/.test(t) && /[A-Za-z0-9]/.test(t);
}

export function isPostcode(input: string): boolean {
  return /^\d{4}$/.test(input.trim());
}

/** Day number (days since 1970-01-01) of a real YYYY-MM-DD date, else null. */
function dayOf(input: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(input.trim());
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (d.getUTCMonth() !== Number(m[2]) - 1 || d.getUTCDate() !== Number(m[3])) return null;
  return Math.floor(d.getTime() / 86_400_000);
}

/**
 * A real date from today on, within a year: the worker's rule (edge/core
 * lead.rs), which allows a day either side of UTC's today because the
 * shopper's today in Australia is up to 14 hours ahead of UTC.
 */
export function isDateAhead(input: string, now: number): boolean {
  const day = dayOf(input);
  const today = Math.floor(now / 86_400_000);
  return day !== null && day >= today - 1 && day <= today + 366;
}

/** The message for one field's value, or undefined when it may be sent. */
export function checkField(rule: FieldRule, value: FieldValue | undefined): string | undefined {
  if (rule.rule === 'terms') return rule.required && value !== true ? MESSAGES.terms : undefined;
  if (rule.rule === 'checkbox') return undefined;
  const text = typeof value === 'string' ? value.trim() : '';
  if (text === '') {
    if (!rule.required) return undefined;
    return MESSAGES[rule.missing ?? MISSING[rule.rule] ?? 'choice_missing'];
  }
  switch (rule.rule) {
    case 'email':
      return isEmail(text) ? undefined : MESSAGES.email_invalid;
    case 'phone':
      return parseAuPhone(text) ? undefined : MESSAGES.phone_invalid;
    case 'postcode':
      return isPostcode(text) ? undefined : MESSAGES.postcode_invalid;
    case 'money':
      // The offer's words are the worker's (it judges offer_amount); other amounts are the site's own.
      if (parseAmount(text) !== null) return undefined;
      return rule.name === 'offer_amount' ? MESSAGES.offer_invalid : MESSAGES.amount_invalid;
    case 'kms':
      return parseKms(text) === null ? MESSAGES.kms_invalid : undefined;
    case 'rego':
      return isRego(text) ? undefined : MESSAGES.rego_invalid;
    case 'choice':
      return rule.choices && !rule.choices.includes(text) ? MESSAGES[rule.missing ?? 'choice_missing'] : undefined;
    case 'choices':
      return rule.choices && chosen(text).some((c) => !rule.choices?.includes(c)) ? MESSAGES[rule.missing ?? 'choice_missing'] : undefined;
    case 'date':
      return isDateAhead(text, Date.now()) ? undefined : MESSAGES.date_invalid;
    case 'time':
      return /^([01]\d|2[0-3]):[0-5]\d$/.test(text) ? undefined : MESSAGES.time_invalid;
    case 'year':
      return /^\d{4}$/.test(text) && Number(text) >= 1900 && Number(text) <= 2100 ? undefined : MESSAGES.year_invalid;
    default:
      return undefined;
  }
}

/** Every field's message at once, in the order of `rules`; empty means the form may be sent. */
export function checkFields(rules: readonly FieldRule[], values: FormValues): FormErrors {
  const errors: FormErrors = {};
  for (const rule of rules) {
    const other = rule.requiredUnless === undefined ? undefined : values[rule.requiredUnless];
    const required = rule.required || (rule.requiredUnless !== undefined && (typeof other !== 'string' || other.trim() === ''));
    const message = checkField(required === rule.required ? rule : { ...rule, required }, values[rule.name]);
    if (message) errors[rule.name] = message;
  }
  return errors;
}

/**
 * Whether a lead category asks for a message (the worker's
 * LeadCategory::message_required, pinned by rules/vectors/forms.json):
 * open questions need one, forms whose category states the intent do not.
 * A dealer can switch the message off everywhere (forms.message_required).
 */
export const MESSAGE_REQUIRED: Record<string, boolean> = {
  enquiry: true,
  test_drive: false,
  finance: false,
  trade_in: false,
  fleet: true,
  photo_request: false,
  offer: false,
  find_me_similar: true,
  general: true,
  careers: true,
  service: false,
  parts: true,
  feedback: true,
  unsubscribe: false,
};

export function messageRequired(category: string, dealerRequiresMessages: boolean): boolean {
  return dealerRequiresMessages && MESSAGE_REQUIRED[category] === true;
}
