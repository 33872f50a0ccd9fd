// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import FinanceQuote from '../src/islands/finance/FinanceQuote';
import { fetchQuote, quotePayload, quoteText, readQuote, resetQuotes, shouldRequestQuote } from '../src/lib/finance/quote';
import { mockApi } from './helpers/api-mock';

beforeEach(resetQuotes);
afterEach(cleanup);

const QUOTE = { weeklyRepaymentAmount: 122.5, comparisonRate: 9.124, advertisedRate: 8.5 };
const WARNING = 'WARNING: This comparison rate is true only for the example given.';
const props = { apiBase: '', enabled: true, carId: '1', price: 30990, year: 2021, vin: 'JTDKB3FU103456789', nvic: '0AB12C', warning: WARNING };

describe('finance quote rules', () => {
  it('asked only when enabled, no quote exists yet and the price is above 0 (docs/behaviour/car-page.md §5)', () => {
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
  it('one call per car per page; the figures as the service gave them, rounded only for display', async () => {
    const { fetchImpl, calls } = mockApi({ 'POST /api/youx/quote': { body: QUOTE } });
    const car = { id: '1', price: 30990, year: 2021, vin: 'V1', nvic: null };
    await fetchQuote('', car, fetchImpl);
    expect(await fetchQuote('', car, fetchImpl)).toEqual(QUOTE);
    expect(calls).toHaveLength(1);
    expect(quoteText(QUOTE)).toEqual({ weekly: '$123', comparison: '9.12% p.a.', advertised: '8.50% p.a.' });
    expect(quoteText({ ...QUOTE, weeklyRepaymentAmount: 122.49 }).weekly).toBe('$122'); // whole dollars, nearest
  });
  it('a quote without its comparison rate (or any figure) is no quote', () => {
    expect(readQuote({ weeklyRepaymentAmount: 99, advertisedRate: 6 })).toBeNull();
    expect(readQuote({ weeklyRepaymentAmount: 99, comparisonRate: null, advertisedRate: 6 })).toBeNull();
    expect(readQuote({ weeklyRepaymentAmount: 0, comparisonRate: 7, advertisedRate: 6 })).toBeNull();
    expect(readQuote({ weeklyRepaymentAmount: '99', comparisonRate: 7, advertisedRate: 6 })).toBeNull();
    expect(readQuote({ weeklyRepaymentAmount: 99, comparisonRate: 7, advertisedRate: 6 })).toEqual({ weeklyRepaymentAmount: 99, comparisonRate: 7, advertisedRate: 6 });
  });
});

describe('FinanceQuote', () => {
  it("shows the service's weekly figure with its comparison rate, as prominent, and the warning", async () => {
    const { fetchImpl, calls } = mockApi({ 'POST /api/youx/quote': { body: QUOTE } });
    const { container } = render(<FinanceQuote {...props} fetchImpl={fetchImpl} />);
    expect(await screen.findByText('$123')).toBeTruthy();
    expect(calls[0]!.body).toMatchObject({ purchasePrice: 30990, year: 2021, vin: 'JTDKB3FU103456789', nvic: '0AB12C' });
    const block = container.querySelector('[data-finance-block]')!;
    const repayment = block.querySelector('[data-finance="repayment"]')!;
    const comparison = block.querySelector('[data-finance="comparison"]')!;
    expect(comparison.textContent).toBe('9.12% p.a.');
    expect(comparison.className).toBe(repayment.className);
    expect(comparison.className).toBe('fin-size-lg');
    expect(block.querySelector('[data-finance="rate"]')!.textContent).toBe('8.50% p.a.');
    expect(block.querySelector('[data-finance="warning"]')!.textContent).toBe(WARNING);
  });
  it("keeps the panel's room, hidden and without figures, until the quote arrives (no layout shift)", async () => {
    let answer: (r: Response) => void = () => {};
    const fetchImpl = (() => new Promise<Response>((r) => (answer = r))) as typeof fetch;
    const { container } = render(<FinanceQuote {...props} carId="pending" fetchImpl={fetchImpl} />);
    const held = container.querySelector('section.finance-panel--pending')!;
    expect(held).not.toBeNull();
    expect(held.getAttribute('aria-hidden')).toBe('true');
    // Nothing the compliance check would judge: no finance markup, no figure.
    expect(container.querySelector('[data-finance], [data-finance-block]')).toBeNull();
    expect(held.textContent).not.toMatch(/[$%]/);
    await act(async () => answer(new Response(JSON.stringify(QUOTE), { status: 200, headers: { 'content-type': 'application/json' } })));
    await screen.findByText('$123');
    expect(container.querySelector('.finance-panel--pending')).toBeNull();
    expect(container.querySelector('section[data-finance-block]')!.getAttribute('aria-hidden')).toBeNull();
  });
  it('on failure, and on an answer without a comparison rate: the same room, saying no quote came and where to ask for one, with no figure', async () => {
    for (const answer of [{ status: 502, body: { error: 'The quote service gave no quote.' } }, { body: { weeklyRepaymentAmount: 99, advertisedRate: 6 } }]) {
      resetQuotes();
      const { fetchImpl, calls } = mockApi({ 'POST /api/youx/quote': answer });
      const { container, unmount } = render(<FinanceQuote {...props} fetchImpl={fetchImpl} />);
      await waitFor(() => expect(calls).toHaveLength(1));
      await act(async () => {});
      // The room is kept (it was given back before, moving the sidebar): the panel stays, its placeholder figures hidden.
      const panel = container.querySelector('section.finance-panel--failed')!;
      expect(panel).not.toBeNull();
      expect(panel.getAttribute('aria-hidden')).toBeNull();
      expect(panel.querySelector('.finance-panel__figures')).not.toBeNull();
      expect(screen.getByText(/No quote could be fetched just now/)).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Ask us for a finance quote' }).getAttribute('href')).toBe('?enquiry=finance#enquire');
      // Still nothing the compliance check would judge, and no figure.
      expect(container.querySelector('[data-finance], [data-finance-block]')).toBeNull();
      expect(panel.textContent).not.toMatch(/[$%]/);
      unmount();
    }
  });
  it('asks nothing for a car without a price or with a quote already', async () => {
    const { fetchImpl, calls } = mockApi({ 'POST /api/youx/quote': { body: QUOTE } });
    render(<FinanceQuote {...props} price={0} fetchImpl={fetchImpl} />);
    render(<FinanceQuote {...props} carId="2" existing={{ weeklyRepaymentAmount: 7, comparisonRate: 1, advertisedRate: 1 }} fetchImpl={fetchImpl} />);
    await act(async () => {});
    expect(calls).toHaveLength(0);
    expect(screen.getByText('$7')).toBeTruthy();
  });
});
