/**
 * The car page's finance quote (docs/behaviour/car-page.md §5, §7): POST /api/youx/quote,
 * asked only for cars the generator marked (`car.finance.quote`: the dealer
 * has a quote service, the car shows no lender figures, it is priced and
 * in stock, its make is not excluded), once per car per page, silent on
 * failure. The figures are the quote service's: the weekly amount is
 * rounded to whole dollars and the rates to 2 decimals for display, nothing
 * is computed here.
 */
import type { KnownQuote } from '../../types/site';
import { api } from '../api';
import { dollars } from '../format';

export interface Quote {
  weeklyRepaymentAmount: number;
  comparisonRate: number;
  advertisedRate: number;
}

/** The quote the stock feed carries (`car.finance.known_quote`), as the service's answer reads. */
export function knownQuote(k: KnownQuote): Quote {
  return { weeklyRepaymentAmount: k.weekly_repayment, comparisonRate: k.comparison_rate, advertisedRate: k.advertised_rate };
}

/** docs/behaviour/car-page.md §5: only when enabled, no quote exists yet, and the price is above 0. */
export function shouldRequestQuote(state: { enabled: boolean; existing: Quote | null | undefined; price: number }): boolean {
  return state.enabled && !state.existing && state.price > 0;
}

/** What a quote is asked for: the car's price, year, VIN and NVIC (cars.json). */
export interface QuoteCar {
  id: string;
  price: number;
  year: number;
  vin: string | null;
  nvic: string | null;
}

/** The spec's payload: a 5-year term, GREAT credit, the car's year, VIN and NVIC ("" when the feed has none). */
export function quotePayload(car: Omit<QuoteCar, 'id'>) {
  return { purchasePrice: car.price, loanTerm: 5, selfAssessedCreditScore: 'GREAT', year: car.year, vin: car.vin ?? '', nvic: car.nvic ?? '', whoIsHelping: '' };
}

const figure = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null);

/** A service answer the page may show: all three figures, a repayment above 0. */
export function readQuote(data: Partial<Record<keyof Quote, unknown>>): Quote | null {
  const weekly = figure(data.weeklyRepaymentAmount);
  const comparison = figure(data.comparisonRate);
  const advertised = figure(data.advertisedRate);
  if (weekly === null || weekly <= 0 || comparison === null || advertised === null) return null;
  return { weeklyRepaymentAmount: weekly, comparisonRate: comparison, advertisedRate: advertised };
}

// One quote per car per page view, whichever island asks first.
const quotes = new Map<string, Promise<Quote | null>>();

export function fetchQuote(apiBase: string, car: QuoteCar, fetchImpl?: typeof fetch): Promise<Quote | null> {
  let pending = quotes.get(car.id);
  if (!pending) {
    pending = api<Partial<Record<keyof Quote, unknown>>>(apiBase, '/api/youx/quote', { body: quotePayload(car), fetchImpl }).then((r) => (r.ok ? readQuote(r.data) : null));
    quotes.set(car.id, pending);
  }
  return pending;
}

export function resetQuotes(): void {
  quotes.clear();
}

const rate = (n: number) => `${n.toFixed(2)}% p.a.`;

/** The quote as shown: "$99" a week (whole dollars, nearest), the rates to 2 decimals. */
export function quoteText(q: Quote): { weekly: string; comparison: string; advertised: string } {
  return { weekly: dollars(q.weeklyRepaymentAmount), comparison: rate(q.comparisonRate), advertised: rate(q.advertisedRate) };
}
