// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import FinanceQuote from '../src/islands/FinanceQuote';
import { fetchQuote, quotePayload, quoteText, resetQuotes, shouldRequestQuote } from '../src/lib/quote';
import { mockApi } from './helpers/api-mock';

beforeEach(resetQuotes);
afterEach(cleanup);

const QUOTE = { weeklyRepaymentAmount: 123, comparisonRate: 9.12, advertisedRate: 8.5, source: 'indicative' };

describe('finance quote rules', () => {
  it('asked only when enabled, no quote exists yet and the price is above 0', () => {
    expect(shouldRequestQuote({ enabled: true, existing: null, price: 30000 })).toBe(true);
    expect(shouldRequestQuote({ enabled: false, existing: null, price: 30000 })).toBe(false);
    expect(shouldRequestQuote({ enabled: true, existing: QUOTE, price: 30000 })).toBe(false);
    expect(shouldRequestQuote({ enabled: true, existing: null, price: 0 })).toBe(false);
  });
  it("sends the spec's payload with the car's VIN and NVIC, empty when the feed has none", () => {
    expect(quotePayload({ price: 30990, year: 2021, vin: 'JTDKB3FU103456789', nvic: '0AB12C' })).toEqual({
      purchasePrice: 30990, loanTerm: 5, selfAssessedCreditScore: 'GREAT', year: 2021, vin: 'JTDKB3FU103456789', nvic: '0AB12C', whoIsHelping: '',
    });
    expect(quotePayload({ price: 30990, year: 2021, vin: null, nvic: null })).toEqual({
      purchasePrice: 30990, loanTerm: 5, selfAssessedCreditScore: 'GREAT', year: 2021, vin: '', nvic: '', whoIsHelping: '',
    });
  });
  it('one call per car per page; words the figures', async () => {
    const { fetchImpl, calls } = mockApi({ 'POST /api/youx/quote': { body: QUOTE } });
    const car = { id: '1', price: 30990, year: 2021, vin: 'V1', nvic: null };
    await fetchQuote('', car, fetchImpl);
    expect(await fetchQuote('', car, fetchImpl)).toEqual({ weeklyRepaymentAmount: 123, comparisonRate: 9.12, advertisedRate: 8.5 });
    expect(calls).toHaveLength(1);
    expect(quoteText({ weeklyRepaymentAmount: 123, comparisonRate: 9.12, advertisedRate: 8.5 })).toEqual({ weekly: '$123 / week', rates: '8.50% p.a. · comparison rate 9.12% p.a.' });
  });
});

describe('FinanceQuote', () => {
  it("shows the weekly figure, asked with the car's VIN and NVIC", async () => {
    const { fetchImpl, calls } = mockApi({ 'POST /api/youx/quote': { body: QUOTE } });
    render(<FinanceQuote apiBase="" enabled carId="1" price={30990} year={2021} vin="JTDKB3FU103456789" nvic="0AB12C" fetchImpl={fetchImpl} />);
    expect(await screen.findByText('$123 / week')).toBeTruthy();
    expect(calls[0]!.body).toMatchObject({ purchasePrice: 30990, year: 2021, vin: 'JTDKB3FU103456789', nvic: '0AB12C' });
  });
  it('silent on failure', async () => {
    const { fetchImpl, calls } = mockApi({ 'POST /api/youx/quote': { status: 400, body: { error: 'Please check the form.' } } });
    const { container } = render(<FinanceQuote apiBase="" enabled carId="1" price={500} year={2021} vin={null} nvic={null} fetchImpl={fetchImpl} />);
    await waitFor(() => expect(calls).toHaveLength(1));
    await act(async () => {});
    expect(container.textContent).toBe('');
  });
  it('asks nothing for a car without a price or with a quote already', async () => {
    const { fetchImpl, calls } = mockApi({ 'POST /api/youx/quote': { body: QUOTE } });
    render(<FinanceQuote apiBase="" enabled carId="1" price={0} year={2021} vin={null} nvic={null} fetchImpl={fetchImpl} />);
    render(<FinanceQuote apiBase="" enabled carId="2" price={100} year={2021} vin={null} nvic={null} existing={{ weeklyRepaymentAmount: 7, comparisonRate: 1, advertisedRate: 1 }} fetchImpl={fetchImpl} />);
    await act(async () => {});
    expect(calls).toHaveLength(0);
    expect(screen.getByText('$7 / week')).toBeTruthy();
  });
});
