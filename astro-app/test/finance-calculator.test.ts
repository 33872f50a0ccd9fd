/**
 * The calculator's rules (docs/behaviour/car-page.md §5, §9): the formula against the shared
 * vectors (rules/vectors/calculator.json, also read by rules/src/finance.rs),
 * and how typed inputs are read.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  clamp,
  ENQUIRE_LABEL,
  FREQUENCIES,
  money,
  priceHelp,
  rangeText,
  isNegative,
  readNumber,
  readTerm,
  repayment,
  repaymentLabel,
  stripNumber,
  total,
  type Loan,
} from '../src/lib/finance/calculator';

interface Case {
  name: string;
  input: Loan;
  expected: { repayment: number; total: number | null; label: string };
}
const vectors = JSON.parse(fs.readFileSync(`${__dirname}/../../rules/vectors/calculator.json`, 'utf8')) as { cases: Case[] };

describe('the shared calculator vectors', () => {
  it('has the edge cases (0 rate, residual above price, the 25 rule, each rounding)', () => {
    expect(vectors.cases.length).toBeGreaterThanOrEqual(20);
    const names = vectors.cases.map((c) => c.name).join('\n');
    for (const needed of ['zero interest', 'residual above the price', 'exactly 25', 'lender variant', 'fortnightly', 'monthly']) expect(names).toContain(needed);
    expect(vectors.cases.some((c) => c.input.rounding === 'lender' && c.expected.label !== ENQUIRE_LABEL)).toBe(true);
  });
  for (const c of vectors.cases) {
    it(c.name, () => {
      expect({ repayment: repayment(c.input), total: total(c.input), label: repaymentLabel(c.input) }).toEqual(c.expected);
    });
  }
});

describe('reading what the shopper types', () => {
  it('strips non-numeric characters before calculating', () => {
    expect(stripNumber('$30,000')).toBe('30000');
    expect(stripNumber('7.5 %')).toBe('7.5');
    expect(stripNumber('1.2.3')).toBe('1.23');
    expect(stripNumber('abc')).toBe('');
    expect(readNumber('$45,990.50')).toBe(45990.5);
  });
  it('a value of 0 or below is 0', () => {
    // A minus before the number is a negative value, below every limit (not a stray character).
    expect(readNumber('-5000')).toBe(0);
    expect(readNumber('−3')).toBe(0);
    expect(readNumber('$-20')).toBe(0);
    expect(isNegative('-3')).toBe(true);
    expect(isNegative('3-4')).toBe(false);
    expect(isNegative('$30,000')).toBe(false);
    expect(readNumber('')).toBe(0);
    expect(readNumber('.')).toBe(0);
    expect(readNumber('0')).toBe(0);
  });
  it('shows the red help at or below the minimum and at or above the maximum', () => {
    expect(priceHelp(1000, 1000, 250000)).toBe('Cannot be less than 1000 or more than 250000');
    expect(priceHelp(999, 1000, 250000)).toBe('Cannot be less than 1000 or more than 250000');
    expect(priceHelp(1001, 1000, 250000)).toBeNull();
    expect(priceHelp(249999, 1000, 250000)).toBeNull();
    expect(priceHelp(250000, 1000, 250000)).toBe('Cannot be less than 1000 or more than 250000');
    expect(priceHelp(5000, 5000, 250000)).toBe('Cannot be less than 5000 or more than 250000');
  });
  it('clamps the other inputs to their limits; terms run 1 to 7 in half years', () => {
    expect(clamp(20, 0.5, 15)).toBe(15);
    expect(clamp(0.1, 0.5, 15)).toBe(0.5);
    expect(clamp(9, 7.5, 14.5)).toBe(9);
    expect(readTerm('9')).toBe(7);
    expect(readTerm('0')).toBe(1);
    expect(readTerm('3.3')).toBe(3.5);
    expect(readTerm('2.2 years')).toBe(2);
  });
  it('frequencies: week 52, fortnight 26, month 12', () => {
    expect(FREQUENCIES.map((f) => [f.value, f.perYear, f.suffix])).toEqual([
      ['week', 52, '/wk'],
      ['fortnight', 26, '/fn'],
      ['month', 12, '/mo'],
    ]);
  });
  it('writes totals and ranges', () => {
    expect(money(38220)).toBe('$38,220');
    expect(money(41400.5)).toBe('$41,400.50');
    expect(money(912.25)).toBe('$912.25');
    expect(rangeText({ from: 8.38, to: 19.42 })).toBe('8.38% to 19.42% p.a.');
    expect(rangeText({ from: 8.19, to: 8.19 })).toBe('8.19% p.a.');
  });
});
