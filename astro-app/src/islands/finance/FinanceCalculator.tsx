/**
 * The finance calculator (docs/behaviour/car-page.md, "Finance calculator panel"), hydrated
 * when it scrolls into view (client:visible): below the fold, so none of
 * it loads up front. The maths and the input rules are lib/finance/calculator.ts.
 *
 * - Inputs: purchase price, loan term in years, interest rate in %,
 *   repayment frequency (not for the lender variant), deposit or trade-in
 *   and residual (both optional). Typed text is read with non-numeric
 *   characters stripped; text with no number in it is never read as 0 or
 *   a limit: the field is marked invalid with its message and no repayment
 *   is shown until it is fixed. A term, rate, deposit or residual outside
 *   its limits counts as the nearest limit, says so under the field, and is
 *   corrected when the field is left; a price at or beyond its limits shows
 *   the red help; a deposit or residual that leaves nothing to borrow says
 *   why (calculatorProblems).
 * - Every change recomputes the repayment and the total at once; screen
 *   readers hear the headline once the figures have stayed unchanged for
 *   ANNOUNCE_AFTER_MS (not on every keystroke). The first change sends
 *   analytics event 26 once.
 * - A comparison rate (the car's lender's, else the dealer's range) sits
 *   beside the figures, as large as the repayment, with the warning. With
 *   none to show, the interest rate starts empty: a pre-filled rate without
 *   its comparison rate would be a non-compliant advertisement (the build's
 *   compliance check reads the `data-finance` marks and size classes here).
 * - Enquire Now links to the finance page carrying the car; or, for dealers
 *   with `calculator.enquiry: dialog`, Get Finance Now opens a Finance
 *   Enquiry dialog with the car page's enquiry form in its finance kind
 *   (islands/forms/EnquiryForm, loaded on first open), its message naming
 *   the repayment worked out here.
 */
import { Suspense, lazy, useEffect, useId, useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { sendEvent } from '../../lib/events';
import {
  ANNOUNCE_AFTER_MS,
  blockingProblem,
  calculatorProblems,
  DEFAULT_AMOUNT,
  EVENT_FINANCE_CALCULATOR,
  FREQUENCIES,
  MONEY,
  RATE_STEP,
  TERM,
  clamp,
  frequencyInfo,
  hasNumber,
  isNegative,
  money,
  priceHelp,
  readNumber,
  readTerm,
  repayment,
  repaymentLabel,
  showsAmount,
  total,
  type CalculatorField,
  type Frequency,
  type Loan,
} from '../../lib/finance/calculator';
import { financeEnquiryHref, FINANCE_FORM_ID } from '../../lib/finance/links';
import type { CarFacts } from '../../lib/forms/payload';
import type { FormConfig } from '../forms/specs';
import type { CalculatorSettings, LenderOffer } from '../../types/site';

const EnquiryForm = lazy(() => import('../forms/EnquiryForm'));

export interface CalculatorCar {
  id: string;
  carType: string;
  locationId: string;
}

export interface FinanceCalculatorProps {
  apiBase: string;
  /** `site.features.analytics`: event 26 goes to the dealer's sink. */
  analytics: boolean;
  /** `site.finance.calculator`. */
  settings: CalculatorSettings;
  /** The car's price; 0 or none: the spec's $30,000. */
  price?: number;
  /** The car (none on the finance page). */
  car?: CalculatorCar | null;
  /** The car's lender figures: the rate, term, deposit, residual and fee start from them. */
  lender?: Pick<LenderOffer, 'interest_rate' | 'term_years' | 'deposit' | 'balloon' | 'establishment_fee'> | null;
  /** The comparison rate shown beside the figures ("8.37% p.a."); null: none, and the rate starts empty. */
  comparison: string | null;
  /** `site.finance.comparison_warning`. */
  warning: string;
  /** `site.finance.page` ("/finance/"); null: the car page's own enquiry form is the target. */
  financePage: string | null;
  /**
   * What the dialog's enquiry form needs (`formConfig(site)`, `carFacts(car)`):
   * given only with `settings.enquiry: dialog` on a car page; without it the
   * button is the Enquire Now link.
   */
  enquiry?: { config: FormConfig; car: CarFacts } | null;
  fetchImpl?: typeof fetch;
  navigate?: (url: string) => void;
}

type Field = CalculatorField;

const text = (n: number | null | undefined) => (n === null || n === undefined || n === 0 ? '' : String(n));

export default function FinanceCalculator(props: FinanceCalculatorProps) {
  const { settings, lender, comparison, car } = props;
  const id = useId();
  // A starting rate only with a comparison rate to show beside it (the config check holds them together).
  const startRate = lender?.interest_rate ?? (comparison ? settings.default_interest_rate : null);
  const [values, setValues] = useState<Record<Field, string>>({
    amount: String(Math.round(props.price && props.price > 0 ? props.price : DEFAULT_AMOUNT)),
    term: String(lender?.term_years ? readTerm(String(lender.term_years)) : settings.default_term_years),
    rate: startRate === null ? '' : String(startRate),
    deposit: text(lender?.deposit),
    residual: text(lender?.balloon),
  });
  const [frequency, setFrequency] = useState<Frequency>('week');
  const used = useRef(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const [dialogOpen, setDialogOpen] = useState(false);

  const firstUse = () => {
    if (used.current) return;
    used.current = true;
    sendEvent({ apiBase: props.apiBase, sink: props.analytics, fetchImpl: props.fetchImpl }, EVENT_FINANCE_CALCULATOR, {}, car?.id);
  };
  const change = (field: Field) => (event: ChangeEvent<HTMLInputElement>) => {
    firstUse();
    const value = event.currentTarget.value;
    setChanged((c) => (c.has(field) ? c : new Set([...c, field])));
    setValues((v) => ({ ...v, [field]: value }));
    setAdjusted((a) => (field in a ? Object.fromEntries(Object.entries(a).filter(([f]) => f !== field)) : a));
  };
  /**
   * What leaving a field corrected, kept until the field is typed in
   * again: "a loan term is 1 to 7 years: 7 years is used" stays beside the
   * 7 it wrote, so the correction is never silent.
   */
  const [adjusted, setAdjusted] = useState<Partial<Record<Field, string>>>({});

  // Only what the shopper changed is judged: the figures the page starts from
  // (the lender's) are used as they are, clamped, without a message.
  const [changed, setChanged] = useState<ReadonlySet<Field>>(() => new Set());
  const problems = Object.fromEntries(
    Object.entries(calculatorProblems(values, settings)).filter(
      ([f]) => changed.has(f as Field) || ((f === 'deposit' || f === 'residual') && ['amount', 'deposit', 'residual'].some((m) => changed.has(m as Field))),
    ),
  ) as ReturnType<typeof calculatorProblems>;
  const amount = readNumber(values.amount);
  // A price outside the calculator's limits shows its help instead of a
  // repayment: a figure beside "cannot be more than" would contradict it.
  const outOfRange = hasNumber(values.amount) ? priceHelp(amount, settings.min_price, settings.max_price) : null;
  const blocked = blockingProblem(problems) ?? outOfRange;
  const term = readTerm(values.term);
  const rate = values.rate.trim() === '' ? null : clamp(readNumber(values.rate), settings.min_interest_rate, settings.max_interest_rate);
  const deposit = clamp(readNumber(values.deposit), MONEY.min, MONEY.max);
  const residual = clamp(readNumber(values.residual), MONEY.min, MONEY.max);
  const freq = settings.show_frequency ? frequency : 'week';
  const loan: Loan | null =
    rate === null || blocked
      ? null
      : {
          amount,
          deposit,
          establishment_fee: lender?.establishment_fee ?? settings.establishment_fee,
          residual,
          interest_rate: rate,
          term_years: term,
          frequency: freq,
          rounding: settings.round_down ? 'lender' : 'up',
        };
  const rep = loan ? repayment(loan) : 0;
  const shown = loan !== null && showsAmount(rep);
  const totalValue = loan ? total(loan) : null;
  const help = problems.amount?.message ?? outOfRange;

  /** Leaving a field writes back what the calculation used (clamped, stripped); text with no number stays, with its message. */
  const settle = (field: Field) => () => {
    const note = problems[field];
    if (note && !note.blocks) setAdjusted((a) => ({ ...a, [field]: note.message }));
    setValues((v) => {
      // Only the optional fields may be left empty; anything else without a number stays as typed.
      const optional = field === 'rate' || field === 'deposit' || field === 'residual';
      if (!hasNumber(v[field]) && !(optional && v[field].trim() === '')) return v;
      switch (field) {
        case 'amount':
          // A negative price stays as typed, beside its help: it is no price to correct to.
          return isNegative(v.amount) ? v : { ...v, amount: String(amount) };
        case 'term':
          return { ...v, term: String(term) };
        case 'rate':
          return { ...v, rate: rate === null ? '' : String(rate) };
        case 'deposit':
          return { ...v, deposit: text(deposit) };
        case 'residual':
          return { ...v, residual: text(residual) };
      }
    });
  };

  /** Arrow up / down step a term or rate by half a unit, as a number input would. */
  const stepper = (field: 'term' | 'rate', step: number) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    event.preventDefault();
    firstUse();
    const [min, max] = field === 'term' ? [TERM.min, TERM.max] : [settings.min_interest_rate, settings.max_interest_rate];
    const now = field === 'term' ? term : (rate ?? settings.default_interest_rate ?? settings.min_interest_rate);
    const next = clamp(Math.round((now + (event.key === 'ArrowUp' ? step : -step)) * 100) / 100, min, max);
    setValues((v) => ({ ...v, [field]: String(next) }));
  };
  const fieldId = (f: Field | 'frequency') => `${id}-${f}`;
  /** A field's invalid mark, its hint and message ids, and the message. */
  const checked = (field: Field, hint: boolean) => {
    const problem = problems[field]?.message;
    // Once corrected on leaving the field, the value is valid: the note says what was used, not an error.
    const note = problem ? undefined : adjusted[field];
    const describedBy =
      [hint ? `${fieldId(field)}-hint` : '', problem ? `${fieldId(field)}-error` : '', note ? `${fieldId(field)}-note` : ''].filter(Boolean).join(' ') || undefined;
    const error = problem ? (
      <p className="field__error" id={`${fieldId(field)}-error`}>
        {problem}
      </p>
    ) : note ? (
      <p className="field__hint" id={`${fieldId(field)}-note`} role="status">
        {note}
      </p>
    ) : null;
    return { aria: { 'aria-invalid': problem ? true : undefined, 'aria-describedby': describedBy }, error };
  };
  const numberField = (field: Field, label: string, hint: string, extra: Record<string, unknown> = {}) => {
    const { aria, error } = checked(field, true);
    return (
      <div className="field">
        <label htmlFor={fieldId(field)}>{label}</label>
        <input
          id={fieldId(field)}
          name={field}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          value={values[field]}
          onChange={change(field)}
          onBlur={settle(field)}
          {...aria}
          {...extra}
        />
        <p className="field__hint" id={`${fieldId(field)}-hint`}>
          {hint}
        </p>
        {error}
      </div>
    );
  };
  const rateChecked = checked('rate', true);

  const enquiryHref = props.financePage
    ? car
      ? financeEnquiryHref(props.financePage, { id: car.id, carType: car.carType, locationId: car.locationId, price: amount })
      : `${props.financePage}#${FINANCE_FORM_ID}`
    : '?enquiry=finance#enquire';
  const form = settings.enquiry === 'dialog' && car ? (props.enquiry ?? null) : null;
  const useDialog = form !== null;
  const openDialog = () => {
    setDialogOpen(true);
    const d = dialog.current;
    if (d && typeof d.showModal === 'function') d.showModal();
    else d?.setAttribute('open', '');
  };
  const closeDialog = () => {
    dialog.current?.close?.();
    setDialogOpen(false);
  };

  const adjective = frequencyInfo(freq).adjective;
  // What a screen reader hears: the headline, once it has stayed the same for a moment.
  const headline = blocked ?? (loan === null ? 'Enter an interest rate to see your repayment.' : shown ? `Your ${adjective} repayment is calculated to be ${repaymentLabel(loan)}` : repaymentLabel(loan));
  const [announced, setAnnounced] = useState('');
  const firstHeadline = useRef(headline);
  useEffect(() => {
    if (headline === firstHeadline.current && announced === '') return;
    const timer = setTimeout(() => setAnnounced(headline), ANNOUNCE_AFTER_MS);
    return () => clearTimeout(timer);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `announced` only tells the first headline apart: its change must not announce again
  }, [headline]);
  return (
    <div className="finance-calc" data-finance-block>
      <form className="finance-calc__form" noValidate onSubmit={(e) => e.preventDefault()} aria-label="Finance calculator">
        <div className="field">
          <label htmlFor={fieldId('amount')}>Purchase Price</label>
          <input
            id={fieldId('amount')}
            name="amount"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={values.amount}
            onChange={change('amount')}
            onBlur={settle('amount')}
            aria-invalid={help ? true : undefined}
            aria-describedby={help ? `${fieldId('amount')}-help` : undefined}
          />
          {help && (
            <p className="field__error" id={`${fieldId('amount')}-help`}>
              {help}
            </p>
          )}
        </div>
        {numberField('term', 'Loan term in years', `${TERM.min} to ${TERM.max} years, in half years`, { onKeyDown: stepper('term', TERM.step) })}
        <div className="field">
          <label htmlFor={fieldId('rate')}>Interest rate in %</label>
          <input
            id={fieldId('rate')}
            name="interest"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            className="fin-size-md"
            data-finance="rate"
            onKeyDown={stepper('rate', RATE_STEP)}
            value={values.rate}
            onChange={change('rate')}
            onBlur={settle('rate')}
            {...rateChecked.aria}
          />
          <p className="field__hint" id={`${fieldId('rate')}-hint`}>
            {settings.min_interest_rate} to {settings.max_interest_rate}
          </p>
          {rateChecked.error}
        </div>
        {settings.show_frequency && (
          <div className="field">
            <label htmlFor={fieldId('frequency')}>Repayment frequency</label>
            <select
              id={fieldId('frequency')}
              name="frequency"
              value={frequency}
              onChange={(e) => {
                firstUse();
                setFrequency(e.currentTarget.value as Frequency);
              }}
            >
              {FREQUENCIES.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.name}
                </option>
              ))}
            </select>
          </div>
        )}
        {numberField('deposit', 'Deposit or trade-in (optional)', 'Dollars, up to 250,000')}
        {numberField('residual', 'Residual repayment (optional)', 'A final payment at the end of the loan, in dollars')}
      </form>
      <div className="finance-calc__result">
        <p className="visually-hidden" aria-live="polite" aria-atomic="true" data-calc-announce>
          {announced}
        </p>
        <p className="finance-calc__headline">
          {loan === null ? (
            <span data-finance="repayment" className="fin-size-lg">
              {blocked ?? 'Enter an interest rate to see your repayment.'}
            </span>
          ) : shown ? (
            <>
              Your {adjective} repayment is calculated to be{' '}
              <strong data-finance="repayment" className="fin-size-lg">
                {repaymentLabel(loan)}
              </strong>
            </>
          ) : (
            <strong data-finance="repayment" className="fin-size-lg">
              {repaymentLabel(loan)}
            </strong>
          )}
        </p>
        {comparison && (
          <p className="finance-calc__comparison">
            <span data-finance="comparison" className="fin-size-lg">
              {comparison}
            </span>{' '}
            comparison rate*
          </p>
        )}
        <dl className="finance-calc__summary">
          <div>
            <dt>Repayments</dt>
            <dd>{loan ? repaymentLabel(loan) : '–'}</dd>
          </div>
          <div>
            <dt>Loan Term</dt>
            <dd>{problems.term?.blocks ? '–' : `${term} ${term === 1 ? 'year' : 'years'}`}</dd>
          </div>
          <div>
            <dt>Total repayments</dt>
            <dd>{totalValue === null ? '' : money(totalValue)}</dd>
          </div>
        </dl>
        {comparison && (
          <p className="finance-warning" data-finance="warning">
            {props.warning}
          </p>
        )}
      </div>
      <div className="finance-calc__actions">
        {useDialog ? (
          <button type="button" className="button button--accent" onClick={openDialog} aria-haspopup="dialog">
            Get Finance Now
          </button>
        ) : (
          <a className="button button--accent" href={enquiryHref}>
            Enquire Now
          </a>
        )}
      </div>
      {form && (
        <dialog ref={dialog} className="finance-dialog" aria-labelledby={`${id}-dialog-title`} onClose={() => setDialogOpen(false)}>
          <div className="finance-dialog__bar">
            <h2 id={`${id}-dialog-title`}>Finance Enquiry</h2>
            <button type="button" className="button button--outline" onClick={closeDialog}>
              Close
            </button>
          </div>
          {dialogOpen && (
            <Suspense fallback={<p>Loading the form…</p>}>
              <EnquiryForm
                config={form.config}
                car={form.car}
                enquiry="finance"
                fixed
                headingId={`${id}-dialog-form`}
                message={shown ? `I'm interested in finance at about ${repaymentLabel(loan!).replace(/\*$/, '')} over ${term} years.` : ''}
                fetchImpl={props.fetchImpl}
                navigate={props.navigate}
              />
            </Suspense>
          )}
        </dialog>
      )}
    </div>
  );
}
