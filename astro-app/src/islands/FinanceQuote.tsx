/**
 * "Finance from $X / week" on the car page (client:idle: it starts empty,
 * and an empty island never becomes "visible"), from the
 * edge's quote. Renders nothing until a quote arrives, and nothing at all
 * when it is not asked for or fails (spec 001 §7: silent on failure).
 */
import { useEffect, useState } from 'react';
import { fetchQuote, quoteText, shouldRequestQuote, type Quote } from '../lib/quote';

export interface FinanceQuoteProps {
  apiBase: string;
  /** `site.features.finance_quote`. */
  enabled: boolean;
  carId: string;
  price: number;
  year: number;
  vin: string | null;
  /** The car's NVIC (cars.json), sent with the request; null when the feed has none. */
  nvic: string | null;
  /** A quote already known (none today: the feed carries no quote yet). */
  existing?: Quote | null;
  fetchImpl?: typeof fetch;
}

export default function FinanceQuote(props: FinanceQuoteProps) {
  const { apiBase, enabled, carId, price, year, vin, nvic, fetchImpl } = props;
  const [quote, setQuote] = useState<Quote | null>(props.existing ?? null);
  useEffect(() => {
    if (!shouldRequestQuote({ enabled, existing: props.existing, price })) return;
    let live = true;
    fetchQuote(apiBase, { id: carId, price, year, vin, nvic }, fetchImpl).then((q) => live && q && setQuote(q));
    return () => {
      live = false;
    };
  }, [apiBase, enabled, carId, price, year, vin, nvic, fetchImpl, props.existing]);
  if (!quote) return null;
  const text = quoteText(quote);
  return (
    <p className="finance-quote">
      Finance from <strong>{text.weekly}</strong>
      <span className="finance-quote__rates">{text.rates}. Indicative only, subject to approval.</span>
    </p>
  );
}
