/** The contact rules every form shares (lib/enquiry.ts): Australian phones and e-mail addresses. */
import { describe, expect, it } from 'vitest';
import { isEmail, parseAuPhone } from '../src/lib/enquiry';

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
