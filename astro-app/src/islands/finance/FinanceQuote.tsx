/**
 * The quote service's weekly figure on a car page without lender figures
 * (client:idle: it starts empty, and an empty island never becomes
 * "visible"). Keeps its room (invisible) until a quote arrives; when none
 * comes, the room says so and links the finance enquiry, so nothing on the
 * page moves either way. The figures are marked for the finance
 * markup contract (see generator/src/checks/compliance): the comparison rate is
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
  /** The quote the stock feed carries (`car.finance.known_quote`): shown, and nothing is asked. */
  existing?: Quote | null;
  fetchImpl?: typeof fetch;
}

export default function FinanceQuote(props: FinanceQuoteProps) {
  const { apiBase, enabled, carId, price, year, vin, nvic, fetchImpl } = props;
  const [quote, setQuote] = useState<Quote | null>(props.existing ?? null);
  const asks = shouldRequestQuote({ enabled, existing: props.existing, price });
  // Until the service answers, the panel's room is kept (an invisible copy
  // with dashes for figures), so the quote's arrival moves nothing on the
  // page. A failure keeps the room too (giving it back moved the sidebar
  // 255 px): the panel says no quote came and where to ask for one.
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!asks) return;
    let live = true;
    fetchQuote(apiBase, { id: carId, price, year, vin, nvic }, fetchImpl).then((q) => {
      if (!live) return;
      if (q) setQuote(q);
      else setFailed(true);
    });
    return () => {
      live = false;
    };
  }, [asks, apiBase, carId, price, year, vin, nvic, fetchImpl]);
  if (!quote && !asks) return null;
  const pending = !quote;
  const text = quote ? quoteText(quote) : { weekly: '—', comparison: '—', advertised: '—' };
  // The placeholder carries no finance markup (generator/src/checks/compliance
  // judges figures, and a dash is none) and is hidden from everyone.
  const mark = (kind: string) => (pending ? {} : { 'data-finance': kind });
  return (
    <section
      className={`finance-panel finance-panel--quote${pending ? (failed ? ' finance-panel--failed' : ' finance-panel--pending') : ''}`}
      {...(pending ? (failed ? { 'aria-label': 'Finance quote' } : { 'aria-hidden': true }) : { 'data-finance-block': '', 'aria-label': 'Finance quote' })}
    >
      <p className="finance-panel__title">Finance quote</p>
      {failed && (
        <p className="finance-panel__unavailable">
          No quote could be fetched just now. <a href="?enquiry=finance#enquire">Ask us for a finance quote</a>.
        </p>
      )}
      <div className="finance-panel__figures">
        <p className="finance-panel__figure">
          <strong {...mark('repayment')} className="fin-size-lg">
            {text.weekly}
          </strong>
          <span className="finance-panel__unit">per week*</span>
        </p>
        <p className="finance-panel__figure">
          <strong {...mark('comparison')} className="fin-size-lg">
            {text.comparison}
          </strong>
          <span className="finance-panel__unit">comparison rate*</span>
        </p>
      </div>
      <p className="finance-panel__terms">
        <span {...mark('rate')} className="fin-size-sm">
          {text.advertised}
        </span>{' '}
        advertised rate over 5 years. An indicative quote, not an offer of credit; subject to approval.
      </p>
      <p className="finance-warning" {...mark('warning')}>
        {props.warning}
      </p>
    </section>
  );
}
