/**
 * The car page's finance quote (spec 001 §4, §7): POST /api/youx/quote,
 * asked only when finance is on, no quote exists yet and the price is above
 * 0; silent on failure (no figure shown, nothing logged to the shopper).
 */
import { api } from './api';
import { dollars } from './format';

export interface Quote {
  weeklyRepaymentAmount: number;
  comparisonRate: number;
  advertisedRate: number;
}

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

/**
 * The spec's payload: a 5-year term, GREAT credit, the car's year, VIN and
 * NVIC. A car without an NVIC is still asked about, with "": the worker
 * quotes without one (its own indicative calculator, or the dealer's
 * provider gets the request without the field).
 */
export function quotePayload(car: Omit<QuoteCar, 'id'>) {
  return { purchasePrice: car.price, loanTerm: 5, selfAssessedCreditScore: 'GREAT', year: car.year, vin: car.vin ?? '', nvic: car.nvic ?? '', whoIsHelping: '' };
}

// One quote per car per page view, whichever island asks first.
const quotes = new Map<string, Promise<Quote | null>>();

export function fetchQuote(apiBase: string, car: QuoteCar, fetchImpl?: typeof fetch): Promise<Quote | null> {
  let pending = quotes.get(car.id);
  if (!pending) {
    pending = api<Partial<Quote>>(apiBase, '/api/youx/quote', { body: quotePayload(car), fetchImpl }).then((r) =>
      r.ok && typeof r.data.weeklyRepaymentAmount === 'number' && r.data.weeklyRepaymentAmount > 0
        ? { weeklyRepaymentAmount: r.data.weeklyRepaymentAmount, comparisonRate: Number(r.data.comparisonRate), advertisedRate: Number(r.data.advertisedRate) }
        : null,
    );
    quotes.set(car.id, pending);
  }
  return pending;
}

export function resetQuotes(): void {
  quotes.clear();
}

const rate = (n: number) => `${n.toFixed(2)}% p.a.`;

export function quoteText(q: Quote): { weekly: string; rates: string } {
  return {
    weekly: `${dollars(q.weeklyRepaymentAmount)} / week`,
    rates: `${rate(q.advertisedRate)} · comparison rate ${rate(q.comparisonRate)}`,
  };
}
