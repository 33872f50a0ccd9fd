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

/** The spec's payload: a 5-year term, GREAT credit, the car's year and VIN. */
export function quotePayload(car: { price: number; year: number; vin: string | null }) {
  return { purchasePrice: car.price, loanTerm: 5, selfAssessedCreditScore: 'GREAT', year: car.year, vin: car.vin ?? '', nvic: '', whoIsHelping: '' };
}

// One quote per car per page view, whichever island asks first.
const quotes = new Map<string, Promise<Quote | null>>();

export function fetchQuote(
  apiBase: string,
  car: { id: string; price: number; year: number; vin: string | null },
  fetchImpl?: typeof fetch,
): Promise<Quote | null> {
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
