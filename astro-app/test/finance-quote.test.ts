// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fillQuotePanels } from '../src/lib/finance/quote-panel';
import { fetchQuote, quotePayload, quoteText, readQuote, resetQuotes, shouldRequestQuote } from '../src/lib/finance/quote';
import { mockApi } from './helpers/api-mock';

beforeEach(resetQuotes);
afterEach(() => {
  document.body.innerHTML = '';
});

const QUOTE = { weeklyRepaymentAmount: 122.5, comparisonRate: 9.124, advertisedRate: 8.5 };
const WARNING = 'WARNING: This comparison rate is true only for the example given.';
const CAR = { id: '1', price: 30990, year: 2021, vin: 'JTDKB3FU103456789', nvic: '0AB12C' };

/** A pending panel as components/finance/FinanceQuote.astro writes it (the e2e suites check the built page's). */
function pendingPanel(car: object = CAR): HTMLElement {
  document.body.innerHTML = `<section class="finance-panel finance-panel--quote finance-panel--pending" aria-hidden="true" data-api-base="" data-quote-car='${JSON.stringify(car)}'>
    <p class="finance-panel__title">Finance quote</p>
    <div class="finance-panel__figures">
      <p class="finance-panel__figure"><strong data-quote-mark="repayment" class="fin-size-lg">—</strong> <span class="finance-panel__unit">per week*</span></p>
      <p class="finance-panel__figure"><strong data-quote-mark="comparison" class="fin-size-lg">—</strong> <span class="finance-panel__unit">comparison rate*</span></p>
    </div>
    <p class="finance-panel__terms"><span data-quote-mark="rate" class="fin-size-sm">—</span> advertised rate over 5 years.</p>
    <p class="finance-warning" data-quote-mark="warning">${WARNING}</p>
  </section>`;
  return document.querySelector('section')!;
}
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

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

describe('the quote panel (components/finance/FinanceQuote.astro, lib/finance/quote-panel.ts)', () => {
  it("shows the service's weekly figure with its comparison rate, as prominent, and the warning", async () => {
    const { fetchImpl, calls } = mockApi({ 'POST /api/youx/quote': { body: QUOTE } });
    const panel = pendingPanel();
    await fillQuotePanels(document, fetchImpl);
    expect(calls[0]!.body).toMatchObject({ purchasePrice: 30990, year: 2021, vin: 'JTDKB3FU103456789', nvic: '0AB12C' });
    expect(panel.hasAttribute('data-finance-block')).toBe(true);
    expect(panel.getAttribute('aria-hidden')).toBeNull();
    expect(panel.getAttribute('aria-label')).toBe('Finance quote');
    expect(panel.classList.contains('finance-panel--pending')).toBe(false);
    const repayment = panel.querySelector('[data-finance="repayment"]')!;
    const comparison = panel.querySelector('[data-finance="comparison"]')!;
    expect(repayment.textContent).toBe('$123');
    expect(comparison.textContent).toBe('9.12% p.a.');
    expect(comparison.className).toBe(repayment.className);
    expect(comparison.className).toBe('fin-size-lg');
    expect(panel.querySelector('[data-finance="rate"]')!.textContent).toBe('8.50% p.a.');
    // The warning keeps the dealer's words; it is marked, not rewritten.
    expect(panel.querySelector('[data-finance="warning"]')!.textContent).toBe(WARNING);
    expect(panel.querySelector('[data-quote-mark]')).toBeNull();
  });
  it("keeps the panel's room, hidden and without figures, until the quote arrives (no layout shift)", async () => {
    let answer: (r: Response) => void = () => {};
    const fetchImpl = (() => new Promise<Response>((r) => (answer = r))) as typeof fetch;
    const panel = pendingPanel({ ...CAR, id: 'pending' });
    const filled = fillQuotePanels(document, fetchImpl);
    await Promise.resolve();
    expect(panel.getAttribute('aria-hidden')).toBe('true');
    // Nothing the compliance check would judge: no finance markup, no figure.
    expect(document.querySelector('[data-finance], [data-finance-block]')).toBeNull();
    expect(panel.textContent).not.toMatch(/[$%]/);
    answer(json(QUOTE));
    await filled;
    expect(panel.querySelector('[data-finance="repayment"]')!.textContent).toBe('$123');
    expect(document.querySelector('.finance-panel--pending')).toBeNull();
    expect(panel.getAttribute('aria-hidden')).toBeNull();
  });
  it('on failure, and on an answer without a comparison rate: the same room, saying no quote came and where to ask for one, with no figure', async () => {
    for (const answer of [{ status: 502, body: { error: 'The quote service gave no quote.' } }, { body: { weeklyRepaymentAmount: 99, advertisedRate: 6 } }]) {
      resetQuotes();
      const { fetchImpl, calls } = mockApi({ 'POST /api/youx/quote': answer });
      const panel = pendingPanel();
      await fillQuotePanels(document, fetchImpl);
      expect(calls).toHaveLength(1);
      // The room is kept (it was given back before, moving the sidebar): the panel stays, its placeholder figures hidden.
      expect(panel.classList.contains('finance-panel--failed')).toBe(true);
      expect(panel.classList.contains('finance-panel--pending')).toBe(false);
      expect(panel.getAttribute('aria-hidden')).toBeNull();
      expect(panel.querySelector('.finance-panel__figures')).not.toBeNull();
      const note = panel.querySelector('.finance-panel__unavailable')!;
      expect(note.textContent).toBe('No quote could be fetched just now. Ask us for a finance quote.');
      expect(note.querySelector('a')!.getAttribute('href')).toBe('?enquiry=finance#enquire');
      // Right under the title, where the figures' room is.
      expect(note.previousElementSibling!.className).toBe('finance-panel__title');
      // Still nothing the compliance check would judge, and no figure.
      expect(document.querySelector('[data-finance], [data-finance-block]')).toBeNull();
      expect(panel.textContent).not.toMatch(/[$%]/);
    }
  });
  it('a panel whose car it cannot read asks nothing and stays as it is', async () => {
    const { fetchImpl, calls } = mockApi({ 'POST /api/youx/quote': { body: QUOTE } });
    const panel = pendingPanel({ id: 7 });
    await fillQuotePanels(document, fetchImpl);
    expect(calls).toHaveLength(0);
    expect(panel.classList.contains('finance-panel--pending')).toBe(true);
  });
});
