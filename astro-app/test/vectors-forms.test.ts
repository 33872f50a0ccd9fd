/**
 * The forms' shared rules (rules/vectors/forms.json): the worker's Rust
 * tests read the same file (edge/core/tests/vectors.rs), so every form
 * asks for a message exactly where the worker needs one and shows the
 * worker's words for each field.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { enquiryTypeOf, type EnquiryKind } from '../src/lib/enquiry';
import { FORM_ERROR_TITLE, MESSAGES, MESSAGE_REQUIRED, TERMS_LABEL, checkFields, messageRequired, type FieldRule, type FormValues } from '../src/lib/forms/rules';
import { AU_STATES } from '../src/lib/forms/rules';
import { unsubscribeFields } from '../src/islands/forms/Unsubscribe';

interface Case {
  name: string;
  category: string;
  values: Record<string, string | number | boolean>;
  errors: Record<string, string>;
}
interface FormVectors {
  messages: Record<string, string>;
  message_required: Record<string, boolean>;
  cases: Case[];
  field_messages: Record<string, string>;
  field_cases: Case[];
  terms_label: string;
  form_error_title: string;
}

/** A case's body as a form holds it: numbers the worker also takes (an offer of 25000) are the typed text. */
function typed(values: Record<string, unknown>): FormValues {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'number' ? String(v) : (v as string | boolean)]));
}

const vectors = JSON.parse(fs.readFileSync(`${__dirname}/../../rules/vectors/forms.json`, 'utf8')) as FormVectors;

/** Every kind of car enquiry form the site offers. */
const KINDS: EnquiryKind[] = ['enquiry', 'test-drive', 'finance', 'offer', 'trade-in', 'photos', 'similar'];

/** The rules a form has for the fields a case fills in, as the site's forms declare them. */
function rulesFor(c: Case): FieldRule[] {
  // The unsubscribe form asks for an e-mail or a mobile, nothing else: its own fields.
  if (c.category === 'unsubscribe') return unsubscribeFields();
  const rules: FieldRule[] = [
    { name: 'name', rule: 'name', required: true },
    { name: 'email', rule: 'email', required: true },
    { name: 'phone', rule: 'phone', required: true },
    { name: 'message', rule: 'message', required: messageRequired(c.category, true) },
    { name: 'terms_conditions', rule: 'terms', required: true },
  ];
  const has = (k: string) => k in c.values;
  if (has('postcode')) rules.push({ name: 'postcode', rule: 'postcode', required: true });
  if (c.category === 'offer') rules.push({ name: 'offer_amount', rule: 'money', required: true, missing: 'offer_missing' });
  if (has('rego')) rules.push({ name: 'rego', rule: 'rego', required: false });
  if (has('regoState')) rules.push({ name: 'regoState', rule: 'choice', required: false, choices: AU_STATES, missing: 'rego_state_invalid' });
  if (has('kms')) rules.push({ name: 'kms', rule: 'kms', required: true });
  if (has('preferred_date')) rules.push({ name: 'preferred_date', rule: 'date', required: false });
  if (has('preferred_time')) rules.push({ name: 'preferred_time', rule: 'time', required: false });
  return rules;
}

describe('shared form vectors', () => {
  it('every message is the worker’s word for word', () => {
    for (const [key, text] of Object.entries(vectors.messages)) expect(MESSAGES[key as keyof typeof MESSAGES], key).toBe(text);
    for (const [key, text] of Object.entries(vectors.field_messages)) expect(MESSAGES[key as keyof typeof MESSAGES], key).toBe(text);
    expect(TERMS_LABEL).toBe(vectors.terms_label);
    expect(FORM_ERROR_TITLE).toBe(vectors.form_error_title);
  });

  it('asks for a message exactly where the worker requires one, for every category', () => {
    expect(MESSAGE_REQUIRED).toEqual(vectors.message_required);
    const seen = new Set<string>();
    for (const kind of KINDS) {
      const type = enquiryTypeOf(kind);
      expect(type.messageRequired, `${kind} (${type.category})`).toBe(vectors.message_required[type.category]);
      seen.add(type.category);
    }
    expect(seen.size).toBe(KINDS.length);
  });

  it('the dealer switch (forms.message_required: false) drops the message everywhere', () => {
    for (const category of Object.keys(vectors.message_required)) expect(messageRequired(category, false), category).toBe(false);
  });

  it('gives each case the worker’s messages, field by field', () => {
    expect(vectors.cases.length).toBeGreaterThanOrEqual(10);
    for (const c of vectors.cases) expect(checkFields(rulesFor(c), typed(c.values)), c.name).toEqual(c.errors);
  });

  it('gives each case of the other fields (postcode, offer, rego, kilometres, date and time) the same messages', () => {
    expect(vectors.field_cases.length).toBeGreaterThanOrEqual(10);
    for (const c of vectors.field_cases) expect(checkFields(rulesFor(c), typed(c.values)), c.name).toEqual(c.errors);
  });
});
