/**
 * Reserve a car online (/cars/{slug}/checkout or /buy-online; docs/behaviour/search.md §9,
 * car-page.md §5 "Reserve, Buy Online", content.md §9): the shopper's details hold the car
 * (`POST /api/checkout/hold`), then the payment provider's page takes the
 * deposit (100% refundable; default $200); once paid the car is reserved
 * for the dealer's hold hours (default 48) and shows Reserved everywhere.
 * The provider sends the shopper back here with `?payment=success` or
 * `?payment=cancelled` and the hold id: success waits for the payment's
 * confirmation (the car's status), cancelled offers the form again.
 *
 * Without a deposit nothing paid holds the car, so the shopper first
 * confirms the mobile with the sign-in code (/sign-in/?type=reserve, back
 * here): the edge holds such a car only for a session of the form's
 * mobile (edge/core/src/checkout.rs `verified_for_unpaid_hold`).
 *
 * Without JavaScript the form posts a lead instead ("Reserve Request"):
 * the dealer calls the shopper back; no car is held.
 */
import '../../styles/forms.css';
import { useEffect, useRef, useState } from 'react';
import { api } from '../../lib/api';
import { dollars } from '../../lib/format';
import { carStatus, type CarStatus } from '../../lib/forms/reserved';
import { HONEYPOT_FIELD, TURNSTILE_FIELD, carDefaults, type CarFacts } from '../../lib/forms/payload';
import { saveLastLead } from '../../lib/forms/storage';
import { getSession, herePath, signInHref, type Session } from '../../lib/session';
import type { LeadResult } from '../../lib/forms/submit';
import type { FieldSpec } from './Fields';
import LeadForm from './LeadForm';
import { contactFields, postcodeField, termsFields, type FormConfig } from './specs';

export interface CheckoutProps {
  config: FormConfig;
  car: CarFacts;
  /** Deposit in dollars; 0: reserved without payment. */
  deposit: number;
  holdHours: number;
  fetchImpl?: typeof fetch;
  navigate?: (url: string) => void;
  /** Polls of the car's status after payment, and the wait between them (tests shorten them). */
  polls?: number;
  pollMs?: number;
}

export function checkoutFields(config: FormConfig): FieldSpec[] {
  return [...contactFields(), postcodeField(false), ...termsFields(config)];
}

/** The hold request (HoldRequest in edge/openapi.yaml) from the form's payload. */
export function holdRequest(carSlug: string, payload: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { car_slug: carSlug };
  for (const k of ['name', 'email', 'phone', 'postcode', 'terms_conditions', TURNSTILE_FIELD, HONEYPOT_FIELD]) {
    if (payload[k] !== undefined) body[k] = payload[k];
  }
  return body;
}

/** "Saturday 21 November, 2:30 pm" in the shopper's time zone. */
function until(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString('en-AU', { weekday: 'long', day: 'numeric', month: 'long', hour: 'numeric', minute: '2-digit' });
}

type Return = { kind: 'none' } | { kind: 'cancelled' } | { kind: 'paid'; status: 'waiting' | 'reserved' | 'unconfirmed'; heldUntil?: string };

export default function Checkout({ config, car, deposit, holdHours, fetchImpl, navigate, polls = 10, pollMs = 2000 }: CheckoutProps) {
  const [back, setBack] = useState<Return>({ kind: 'none' });
  const [status, setStatus] = useState<CarStatus | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const paymentUrl = useRef('');
  const go = navigate ?? ((url: string) => window.location.assign(url));
  // Without a deposit: who is signed in (null until the worker answers).
  const [who, setWho] = useState<Session | null>(null);

  useEffect(() => {
    const q = new URLSearchParams(window.location.search);
    const payment = q.get('payment');
    if (payment === 'cancelled') setBack({ kind: 'cancelled' });
    else if (payment === 'success') {
      setBack({ kind: 'paid', status: 'waiting' });
      void (async () => {
        // The provider's confirmation (webhook) may reach the edge after the shopper is back.
        for (let i = 0; i < polls; i++) {
          const r = await api<{ reserved?: boolean; held_until?: string | null }>(config.apiBase, `/api/cars/${encodeURIComponent(car.slug)}/status`, { method: 'GET', fetchImpl });
          if (r.ok && r.data.reserved === true) {
            saveLastLead({ category: 'reserve', subcategory: 'Reserve', car: { name: car.name, slug: car.slug, car_type: car.car_type } });
            return setBack({ kind: 'paid', status: 'reserved', heldUntil: r.data.held_until ?? undefined });
          }
          await new Promise((r2) => setTimeout(r2, pollMs));
        }
        setBack({ kind: 'paid', status: 'unconfirmed' });
      })();
      return;
    }
    void carStatus(config.apiBase, car.slug, fetchImpl).then(setStatus);
    if (deposit === 0) void getSession(config.apiBase, fetchImpl).then(setWho);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- once, after hydration (the return from the payment page is in the URL)
  }, []);
  const backStatus = back.kind === 'paid' ? back.status : '';
  useEffect(() => {
    if (back.kind !== 'none') heading.current?.focus();
  }, [back.kind, backStatus]);

  const amount = deposit > 0 ? dollars(deposit) : '';
  // Signed out for sure (not a failed check: then the form is offered and the worker decides).
  const mustConfirm = deposit === 0 && who !== null && !who.signedIn && !who.unknown;
  const confirmHref = () => signInHref('reserve', herePath(), `/cars/${car.slug}/`);
  const send = async (payload: Record<string, unknown>): Promise<LeadResult> => {
    const r = await api<{ hold_id?: unknown; checkout_url?: unknown }>(config.apiBase, '/api/checkout/hold', { body: holdRequest(car.slug, payload), fetchImpl });
    // Signed out meanwhile (another tab, the session ended): confirm the mobile again.
    if (!r.ok && r.status === 401 && deposit === 0) {
      go(confirmHref());
      return { ok: false, status: r.status, error: r.error, fields: r.fields };
    }
    if (!r.ok) return { ok: false, status: r.status, error: r.error, fields: r.fields };
    const url = r.data.checkout_url;
    if (typeof url !== 'string' || !/^https?:\/\//.test(url)) return { ok: false, status: r.status, error: 'An unexpected error occurred.', fields: {} };
    paymentUrl.current = url;
    return { ok: true, leadId: String(r.data.hold_id ?? '') };
  };

  if (back.kind === 'paid') {
    return (
      <section className="enquiry checkout" aria-labelledby="checkout-done">
        <h2 id="checkout-done" tabIndex={-1} ref={heading}>
          {back.status === 'reserved' ? 'The car is reserved for you' : 'Thank you for your payment'}
        </h2>
        <p role="status">
          {back.status === 'waiting' && 'We are confirming your payment…'}
          {back.status === 'reserved' &&
            `We are holding the ${car.name} for you${back.heldUntil ? ` until ${until(back.heldUntil)}` : ` for ${holdHours} hours`}. We will be in touch shortly.`}
          {back.status === 'unconfirmed' && 'Your payment is being confirmed. We will be in touch shortly to arrange the rest.'}
        </p>
        <p>
          <a href={`/cars/${car.slug}/`}>Back to the {car.name}</a>
        </p>
      </section>
    );
  }

  if (status?.reserved || status?.pending) {
    return (
      <section className="enquiry checkout" aria-labelledby="checkout-taken">
        <h2 id="checkout-taken">{status.reserved ? 'This car is reserved' : 'Someone is reserving this car right now'}</h2>
        <p>
          {status.reserved
            ? 'Another shopper has reserved this car. '
            : 'Another shopper is paying the deposit for this car. If they do not finish within half an hour it will be free again. '}
          <a href={`/cars/${car.slug}/?enquiry=similar#enquire`}>Ask us to find you something similar</a>.
        </p>
      </section>
    );
  }

  return (
    <section className="enquiry checkout" aria-labelledby="checkout-heading">
      <h2 id="checkout-heading" tabIndex={-1} ref={heading}>
        {back.kind === 'cancelled' ? 'Your payment was cancelled' : 'Your details'}
      </h2>
      {back.kind === 'cancelled' && <p role="status">The car is not reserved. You can try again below.</p>}
      <p>
        {amount
          ? `Pay a ${amount} deposit, 100% refundable, and we hold the car for you for ${holdHours} hours.`
          : `No deposit needed: we hold the car for you for ${holdHours} hours, once you confirm your mobile number with a code we text you.`}
      </p>
      {mustConfirm ? (
        <p>
          <a className="button button--primary" href={confirmHref()}>
            Confirm my mobile number
          </a>
        </p>
      ) : (
        <LeadForm
          formId="checkout"
          settings={config}
          fields={checkoutFields(config)}
          // The confirmed mobile (the worker holds the car only for it).
          initialValues={who?.signedIn && who.phone ? { phone: who.phone } : undefined}
          // What a post without JavaScript sends: a lead asking the dealer to call about reserving the car.
          category="enquiry"
          subcategory="Reserve Request"
          defaults={carDefaults(car, config.dealershipSlug)}
          hiddenText="I would like to reserve this car."
          submitLabel={amount ? `Reserve and pay ${amount}` : 'Reserve this car'}
          send={send}
          // On to the payment provider's page (or, without a deposit, straight back here as reserved).
          onSent={() => go(paymentUrl.current)}
          fetchImpl={fetchImpl}
          navigate={navigate}
        />
      )}
    </section>
  );
}
