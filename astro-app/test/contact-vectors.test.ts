/**
 * The shared contact-detail cases (rules/vectors/contact.json): the worker's
 * Rust checks read the same file (rules/tests/integration/contact_vectors.rs), so the
 * form never accepts a phone or e-mail the server then refuses.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isEmail, parseAuPhone } from '../src/lib/enquiry';

const vectors = JSON.parse(fs.readFileSync(`${__dirname}/../../rules/vectors/contact.json`, 'utf8')) as {
  phones: { input: string; national: string | null }[];
  emails: { input: string; valid: boolean }[];
};

describe('shared contact vectors', () => {
  it('phones parse to the same national form as on the server', () => {
    expect(vectors.phones.length).toBeGreaterThan(20);
    for (const { input, national } of vectors.phones) expect(parseAuPhone(input), JSON.stringify(input)).toBe(national);
  });

  it('e-mails are judged as on the server', () => {
    expect(vectors.emails.length).toBeGreaterThan(20);
    for (const { input, valid } of vectors.emails) expect(isEmail(input), JSON.stringify(input)).toBe(valid);
  });
});
