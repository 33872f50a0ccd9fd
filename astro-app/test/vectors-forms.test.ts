/**
 * The lead form's shared rules (rules/vectors/forms.json): the worker's
 * Rust tests read the same file (edge/core/tests/vectors.rs), so the form
 * asks for a message exactly where the worker needs one and shows the
 * worker's words for each field.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EMAIL_MESSAGE,
  PHONE_MESSAGE,
  TERMS_MESSAGE,
  enquiryTypeOf,
  validateEnquiry,
  type EnquiryErrors,
  type EnquiryKind,
} from '../src/lib/enquiry';

interface FormVectors {
  messages: Record<string, string>;
  message_required: Record<string, boolean>;
  cases: {
    name: string;
    category: string;
    values: { name: string; email: string; phone: string; message: string; terms_conditions: boolean };
    errors: Record<string, string>;
  }[];
}

const vectors = JSON.parse(fs.readFileSync(`${__dirname}/../../rules/vectors/forms.json`, 'utf8')) as FormVectors;

/** Every kind of car enquiry form the site offers. */
const KINDS: EnquiryKind[] = ['enquiry', 'test-drive', 'finance', 'offer', 'trade-in', 'photos', 'similar'];

/** The form's field names are the worker's, except the terms checkbox. */
const asServerFields = (errors: EnquiryErrors): Record<string, string> =>
  Object.fromEntries(Object.entries(errors).map(([k, v]) => [k === 'terms' ? 'terms_conditions' : k, v as string]));

describe('shared form vectors', () => {
  it('uses the worker’s messages for a bad phone, e-mail and the terms', () => {
    expect(vectors.messages['phone_invalid']).toBe(PHONE_MESSAGE);
    expect(vectors.messages['email_invalid']).toBe(EMAIL_MESSAGE);
    expect(vectors.messages['terms']).toBe(TERMS_MESSAGE);
  });

  it('asks for a message exactly where the worker requires one', () => {
    const seen = new Set<string>();
    for (const kind of KINDS) {
      const type = enquiryTypeOf(kind);
      expect(type.kind).toBe(kind);
      const required = vectors.message_required[type.category];
      expect(required, `category ${type.category} is in the vector`).toBeTypeOf('boolean');
      expect(type.messageRequired, `${kind} (${type.category})`).toBe(required);
      seen.add(type.category);
    }
    expect(seen.size).toBe(KINDS.length);
  });

  it('gives each case the worker’s messages, field by field', () => {
    expect(vectors.cases.length).toBeGreaterThanOrEqual(10);
    for (const c of vectors.cases) {
      const { terms_conditions, ...rest } = c.values;
      const errors = validateEnquiry({ ...rest, terms: terms_conditions }, { messageRequired: vectors.message_required[c.category] === true });
      expect(asServerFields(errors), c.name).toEqual(c.errors);
    }
  });
});
