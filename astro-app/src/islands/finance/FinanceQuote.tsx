/**
 * The quote service's weekly figure on a car page without lender figures
 * (client:idle: it starts empty, and an empty island never becomes
 * "visible"). Renders nothing until a quote arrives, and nothing at all when
 * it fails (spec 001 §8: silent). The figures are marked for the finance
 * markup contract (see generator/src/compliance): the comparison rate is
 * as large as the weekly figure, with the warning.
 */
import { useEffect, useState } from 'react';
import { fetchQuote, quoteText, shouldRequestQuote, type Quote } from '../../lib/finance/quote';

export interface FinanceQuoteProps {
  apiBase: string;
  /** `car.finance.quote`. */
  enabled: boolean;
  carId: string;
  price: number;
  year: number;
  vin: string | null;
  /** The car's NVIC (cars.json), sent with the request; null when the feed has none. */
  nvic: string | null;
  /** `site.finance.comparison_warning`. */
  warning: string;
  /** A quote already known (none today: the feed carries no quote). */
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
    <section className="finance-panel finance-panel--quote" data-finance-block aria-label="Finance quote">
      <p className="finance-panel__title">Finance quote</p>
      <div className="finance-panel__figures">
        <p className="finance-panel__figure">
          <strong data-finance="repayment" className="fin-size-lg">
            {text.weekly}
          </strong>
          <span className="finance-panel__unit">per week*</span>
        </p>
        <p className="finance-panel__figure">
          <strong data-finance="comparison" className="fin-size-lg">
            {text.comparison}
          </strong>
          <span className="finance-panel__unit">comparison rate*</span>
        </p>
      </div>
      <p className="finance-panel__terms">
        <span data-finance="rate" className="fin-size-sm">
          {text.advertised}
        </span>{' '}
        advertised rate over 5 years. An indicative quote, not an offer of credit; subject to approval.
      </p>
      <p className="finance-warning" data-finance="warning">
        {props.warning}
      </p>
    </section>
  );
}
