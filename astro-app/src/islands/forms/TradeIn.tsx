/**
 * The trade-in flow (docs/behaviour/car-page.md §4 "Trade-in flow", §7 for the
 * valuation calls), on /trade-in and /cars/trade-in?car_id={id}:
 *
 *  1. Your details (First Name, Last Name, Mobile, Email, Postcode): the
 *     first lead is created at once ("1. Contact Details"), so a shopper
 *     who stops here is still a lead;
 *  2. Your car: registration and state (the rego lookup) or year, make and
 *     model, kilometres and the adjustment questions. The edge asks the
 *     dealer's valuation service (`POST /api/trade-in/valuation`; none for
 *     cars over 7 years or 100,000 km), the second lead carries the answers
 *     and the estimate ("2. Vehicle Details"), and the valuation is saved
 *     with the first lead (`POST /api/miscellaneous`) where the dealer keeps
 *     valuations (`trade_in.save_valuation`);
 *  3. Your estimate: accepting it sends "3. Offer Accepted"
 *     (offer_accepted), then the success page. Without an estimate the
 *     dealer prices the car from the answers.
 *
 * Every later lead names the first (`lead_id`) and carries the flow token
 * the previous lead's answer gave (`flow_token`). Without JavaScript the
 * page is one plain form: a single trade-in lead with every answer.
 */
import '../../styles/forms.css';
import { useEffect, useRef, useState } from 'react';
import { api } from '../../lib/api';
import { dollars } from '../../lib/format';
import { leadAttributes } from '../../lib/forms/attribution';
import { findCar } from '../../lib/forms/car-lookup';
import { buildLeadPayload } from '../../lib/forms/payload';
import { MESSAGES, normaliseRego, parseKms, type FormValues } from '../../lib/forms/rules';
import { saveLastLead } from '../../lib/forms/storage';
import { postLead, withFlowToken } from '../../lib/forms/submit';
import { successUrl } from '../../lib/forms/success';
import type { WatchlistCar } from '../../lib/watchlist-cars';
import type { FieldSpec } from './Fields';
import LeadForm, { type StepOutcome } from './LeadForm';
import { contactFields, locationField, postcodeField, stateField, consentFields, type FormConfig } from './specs';
import type { Location } from '../../types/site';

export const TRADE_IN_STEPS = ['Your details', 'Your car'];
export const SUBCATEGORY_DETAILS = '1. Contact Details';
export const SUBCATEGORY_VEHICLE = '2. Vehicle Details';
export const SUBCATEGORY_ACCEPTED = '3. Offer Accepted';

const YES_NO = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
];

/** The adjustment questions (answers go as `adjustmentAnswers`, question id → answer). */
export const ADJUSTMENT_QUESTIONS: { id: string; label: string; options: { value: string; label: string }[] }[] = [
  { id: 'accident', label: 'Has the car been in an accident?', options: YES_NO },
  { id: 'damage', label: 'Does the body or interior have damage?', options: YES_NO },
  { id: 'service_history', label: 'Does it have a full service history?', options: YES_NO },
  { id: 'finance_owing', label: 'Is there finance owing on it?', options: YES_NO },
  {
    id: 'keys',
    label: 'How many keys does it have?',
    options: [
      { value: '1', label: 'One' },
      { value: '2', label: 'Two or more' },
    ],
  },
];

/** Where a car is bought: the sales locations and the car-buying centres (not a service or parts site). */
export function buyingLocations<L extends Pick<Location, 'kind'>>(locations: L[]): L[] {
  const buying = locations.filter((l) => l.kind === 'sales' || l.kind === 'car-buying');
  return buying.length > 0 ? buying : locations;
}

/** The location a trade-in goes to before the shopper chooses: the car-buying centre, when there is one (N05). */
export function preferredBuyingLocation(locations: Pick<Location, 'id' | 'kind'>[]): string | undefined {
  return locations.find((l) => l.kind === 'car-buying')?.id;
}

export function tradeInFields(config: FormConfig, locations: Pick<Location, 'id' | 'name' | 'kind'>[] = []): FieldSpec[] {
  const where = locationField(buyingLocations(locations), 0, 'Where should we value it?');
  const fields: FieldSpec[] = [
    ...contactFields(0, { lastName: true, firstNameLabel: 'First Name', phoneLabel: 'Mobile' }),
    postcodeField(true, 0),
    // The lead names the location that buys the car (its lead e-mail gets it).
    ...(where ? [where] : []),
    // The first lead goes when step 1 is done, so the terms are agreed there.
    ...consentFields(config, 0),
    { name: 'rego', rule: 'rego', required: false, label: 'Registration', input: 'rego', hint: 'We look the car up by its plate.', step: 1 },
    { ...stateField('regoState', 'Registered in', false, 1) },
    { name: 'trade_in_year', rule: 'year', required: false, label: 'Year', input: 'text', hint: 'Without a registration: the year, make and model.', step: 1 },
    { name: 'trade_in_make', rule: 'text', required: false, label: 'Make', input: 'text', step: 1 },
    { name: 'trade_in_model', rule: 'text', required: false, label: 'Model', input: 'text', step: 1 },
    { name: 'kms', rule: 'kms', required: true, label: 'Kilometres', input: 'kms', hint: 'The odometer reading, e.g. 85000.', step: 1 },
  ];
  for (const q of ADJUSTMENT_QUESTIONS) {
    fields.push({
      name: `adjustmentAnswers[${q.id}]`,
      rule: 'choice',
      required: false,
      label: q.label,
      input: 'radio',
      options: q.options,
      choices: q.options.map((o) => o.value),
      step: 1,
    });
  }
  fields.push(
    {
      name: 'preferred_contact_method',
      rule: 'choice',
      required: false,
      label: 'How should we contact you?',
      input: 'radio',
      options: ['Phone', 'Email', 'SMS'].map((v) => ({ value: v, label: v })),
      choices: ['Phone', 'Email', 'SMS'],
      step: 1,
    },
    {
      name: 'finance',
      rule: 'choice',
      required: false,
      label: 'Would you like finance for your next car?',
      input: 'radio',
      options: [
        { value: 'Yes', label: 'Yes' },
        { value: 'No', label: 'No' },
      ],
      choices: ['Yes', 'No'],
      step: 1,
    },
  );
  return fields;
}

export interface Valuation {
  estimate: { low: number; high: number } | null;
  reason: string;
  vehicle?: { year?: number; make?: string; model?: string; variant?: string };
}

/** What the shopper reads when there is no estimate, per the worker's reason. */
export const NO_ESTIMATE: Record<string, string> = {
  too_old: 'We do not value cars over 7 years old online. Our team will price yours from your answers and be in touch shortly.',
  too_many_km: 'We do not value cars over 100,000 km online. Our team will price yours from your answers and be in touch shortly.',
  not_found: 'We could not find your car from its registration. Our team will price it from your answers and be in touch shortly.',
  no_service: 'Our team will price your car from your answers and be in touch shortly.',
  unavailable: 'Our valuation service is not answering right now. Our team will price your car from your answers and be in touch shortly.',
};

/** The answers of the valuation request (ValuationRequest in edge/openapi.yaml). */
export function valuationRequest(values: FormValues, leadId: string | null): Record<string, unknown> {
  const text = (k: string) => (typeof values[k] === 'string' ? (values[k] as string).trim() : '');
  const body: Record<string, unknown> = { kms: parseKms(text('kms')) ?? 0 };
  if (text('rego')) {
    body['rego'] = normaliseRego(text('rego'));
    if (text('regoState')) body['regoState'] = text('regoState');
  }
  if (text('trade_in_year')) body['trade_in_year'] = Number(text('trade_in_year'));
  if (text('trade_in_make')) body['trade_in_make'] = text('trade_in_make');
  if (text('trade_in_model')) body['trade_in_model'] = text('trade_in_model');
  const answers: Record<string, string> = {};
  for (const q of ADJUSTMENT_QUESTIONS) {
    const v = text(`adjustmentAnswers[${q.id}]`);
    if (v) answers[q.id] = v;
  }
  if (Object.keys(answers).length > 0) body['adjustmentAnswers'] = answers;
  if (leadId) body['lead_id'] = leadId;
  return body;
}

/** The car must be named: by its registration (and state), or by year, make and model. */
export function identifiesCar(values: FormValues): boolean {
  const has = (k: string) => typeof values[k] === 'string' && (values[k] as string).trim() !== '';
  return has('rego') || (has('trade_in_year') && has('trade_in_make') && has('trade_in_model'));
}

export interface TradeInProps {
  config: FormConfig;
  /** The dealer's locations: the buying ones are offered (several), the car-buying centre chosen first. */
  locations?: Pick<Location, 'id' | 'name' | 'kind'>[];
  /** `trade_in.save_valuation`: the valuation is saved with the lead. */
  saveValuation: boolean;
  /** The car page's flow (/cars/trade-in): the `car_id` query names the car the trade-in goes towards. */
  forCar?: boolean;
  fetchImpl?: typeof fetch;
  navigate?: (url: string) => void;
}

type Result = { leadId: string; valuation: Valuation; values: FormValues };

export default function TradeIn({ config, locations = [], saveValuation, forCar = false, fetchImpl, navigate }: TradeInProps) {
  const firstLead = useRef<string | null>(null);
  const lastValues = useRef<FormValues>({});
  const valuation = useRef<Valuation | null>(null);
  const [carId, setCarId] = useState('');
  const [car, setCar] = useState<WatchlistCar | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  const [accepting, setAccepting] = useState(false);
  const [acceptError, setAcceptError] = useState('');
  const estimateHeading = useRef<HTMLHeadingElement>(null);
  const fields = tradeInFields(config, locations);
  const buying = buyingLocations(locations);
  const go = navigate ?? ((url: string) => window.location.assign(url));

  useEffect(() => {
    if (!forCar) return;
    const id = (new URLSearchParams(window.location.search).get('car_id') ?? '').slice(0, 64);
    setCarId(id);
    if (id) void findCar(id, fetchImpl).then(setCar);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- once, after hydration: the query string
  }, []);
  useEffect(() => {
    if (result) estimateHeading.current?.focus();
  }, [result]);

  const defaults: Record<string, string | boolean> = { dealership_slug: config.dealershipSlug };
  if (buying.length === 1 && buying[0]) defaults['location_id'] = buying[0].id;
  if (carId) defaults['car_id'] = carId;
  const base = (values: FormValues, subcategory: string, only?: (f: FieldSpec) => boolean) =>
    buildLeadPayload(only ? fields.filter(only) : fields, values, {
      category: 'trade_in',
      subcategory,
      url: window.location.href,
      userAgent: navigator.userAgent,
      attributes: leadAttributes(),
      defaults,
    });

  /** Step 1 done: the first lead, so the details are kept even if the shopper stops here. */
  async function onContinue(step: number, values: FormValues, token: () => Promise<string | undefined>): Promise<StepOutcome> {
    if (step !== 0 || firstLead.current) return;
    let captcha: string | undefined;
    try {
      captcha = await token();
    } catch (e) {
      return { error: (e as Error).message };
    }
    const body: Record<string, unknown> = { ...base(values, SUBCATEGORY_DETAILS, (f) => (f.step ?? 0) === 0), form_completed: false };
    if (captcha) body['cf-turnstile-response'] = captcha;
    const r = await postLead(config.apiBase, body, fetchImpl);
    if (!r.ok) return { error: r.error, fields: r.fields };
    firstLead.current = r.leadId;
  }

  async function prepare(values: FormValues): Promise<{ extra?: Record<string, unknown>; error?: string }> {
    if (!identifiesCar(values)) return { error: MESSAGES.trade_in_car_missing };
    lastValues.current = values;
    const r = await api<Valuation>(config.apiBase, '/api/trade-in/valuation', { body: valuationRequest(values, firstLead.current), fetchImpl });
    // Never lose the lead to a valuation outage: the dealer prices it from the answers.
    const v: Valuation =
      r.ok && typeof r.data.reason === 'string' ? { estimate: r.data.estimate ?? null, reason: r.data.reason, ...(r.data.vehicle ? { vehicle: r.data.vehicle } : {}) } : { estimate: null, reason: 'unavailable' };
    valuation.current = v;
    const extra: Record<string, unknown> = { form_completed: true, valuation: { estimate: v.estimate, reason: v.reason } };
    if (firstLead.current) extra['lead_id'] = firstLead.current;
    return { extra };
  }

  async function onSent(leadId: string, payload: Record<string, unknown>) {
    const v = valuation.current ?? { estimate: null, reason: 'unavailable' };
    if (saveValuation) {
      const r = await api(config.apiBase, '/api/miscellaneous', {
        body: withFlowToken({ column_name: 'valuation', lead_id: firstLead.current ?? leadId, estimate: v.estimate, reason: v.reason, ...valuationRequest(lastValues.current, null) }),
        fetchImpl,
      });
      // docs/behaviour/car-page.md §8: a failed save is a console message only.
      if (!r.ok) console.warn('valuation not saved:', r.error);
    }
    void payload;
    saveLastLead({ category: 'trade_in', subcategory: SUBCATEGORY_VEHICLE, ...(car ? { car: { name: car.name, slug: car.slug, car_type: '' } } : {}) });
    setResult({ leadId, valuation: v, values: lastValues.current });
  }

  async function accept() {
    if (!result || accepting) return;
    setAccepting(true);
    setAcceptError('');
    const body = {
      ...base(result.values, SUBCATEGORY_ACCEPTED, (f) => (f.step ?? 0) === 0),
      lead_id: firstLead.current ?? result.leadId,
      offer_accepted: true,
      form_completed: true,
      valuation: { estimate: result.valuation.estimate, reason: result.valuation.reason },
    };
    const r = await postLead(config.apiBase, body, fetchImpl);
    setAccepting(false);
    if (!r.ok) return setAcceptError(r.error);
    go(successUrl(config.successPath, { category: 'trade_in' }));
  }

  const finish = () => go(successUrl(config.successPath, { category: 'trade_in' }));

  if (result) {
    const { estimate, reason, vehicle } = result.valuation;
    const named = vehicle && [vehicle.year, vehicle.make, vehicle.model, vehicle.variant].filter(Boolean).join(' ');
    return (
      <section className="enquiry trade-in-result" aria-labelledby="trade-in-estimate">
        <h2 id="trade-in-estimate" tabIndex={-1} ref={estimateHeading}>
          {estimate ? 'Your trade-in estimate' : 'Thank you, we have your car'}
        </h2>
        {named && <p>We found your {named}.</p>}
        {estimate ? (
          <>
            <p className="trade-in-result__figure">
              {dollars(estimate.low)} – {dollars(estimate.high)}
            </p>
            <p>The final price depends on an inspection of the car. Accept the estimate and we will call you to arrange it.</p>
            {acceptError && (
              <p className="form-error" role="alert">
                {acceptError}
              </p>
            )}
            <div className="form__actions">
              <button type="button" className="button button--primary" onClick={() => void accept()} aria-disabled={accepting || undefined}>
                {accepting ? 'Sending…' : 'Accept this estimate'}
              </button>
              <button type="button" className="button button--outline" onClick={finish}>
                Not now
              </button>
            </div>
          </>
        ) : (
          <>
            <p>{NO_ESTIMATE[reason] ?? NO_ESTIMATE['no_service']}</p>
            <div className="form__actions">
              <button type="button" className="button button--primary" onClick={finish}>
                Finish
              </button>
            </div>
          </>
        )}
      </section>
    );
  }

  return (
    <section className="enquiry" aria-labelledby="trade-in-heading">
      <h2 id="trade-in-heading">Value your trade-in</h2>
      {car && (
        <p className="enquiry__about">
          Trading in towards the <a href={`/cars/${car.slug}/`}>{car.name}</a>.
        </p>
      )}
      <LeadForm
        formId="trade-in"
        settings={config}
        fields={fields}
        steps={TRADE_IN_STEPS}
        category="trade_in"
        subcategory={SUBCATEGORY_VEHICLE}
        defaults={defaults}
        initialValues={{
          regoState: config.defaultState,
          preferred_contact_method: 'Phone',
          ...(buying.length > 1 && preferredBuyingLocation(buying) ? { location_id: preferredBuyingLocation(buying)! } : {}),
        }}
        submitLabel="Value my car"
        onContinue={onContinue}
        prepare={prepare}
        onSent={(id, payload) => void onSent(id, payload)}
        fetchImpl={fetchImpl}
        navigate={navigate}
      />
    </section>
  );
}
