/**
 * Vehicle enquiry form on the car page (client:visible). Rules and the
 * network call live in lib/enquiry.ts; this file is the UI. Links ask for a
 * kind of enquiry with `?enquiry=test-drive|finance|offer|trade-in|photos|
 * similar` (the result cards' buttons): it sets the lead's category and
 * subcategory, the heading and the fields (test drive: a preferred date and
 * time; photos: the hidden request text). A sold car always asks for
 * something similar. After a lead is stored, the enquiry event (14/15/17)
 * goes to the analytics sink when the dealer has one.
 *
 * Keyboard and screen readers: required fields are marked (a visible * and
 * `required`); a failed submit (the form's checks or the server's answer)
 * shows an error summary at the top, linking to each field, and focus moves
 * to it; the button is never disabled while sending (focus would fall to
 * the page) but ignores clicks; on success focus moves to the thank-you.
 */
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent, type MouseEvent } from 'react';
import { track } from '../lib/analytics';
import {
  buildEnquiryPayload,
  enquiryEventId,
  enquiryTypeOf,
  requestedEnquiry,
  submitLead,
  validateEnquiry,
  type EnquiryErrors,
  type EnquiryField,
  type EnquiryValues,
} from '../lib/enquiry';

export interface EnquiryFormProps {
  /** Origin of the edge worker, "" for the same origin. */
  apiBase: string;
  carId: string;
  locationId: string;
  /** Shown in the heading, e.g. "2023 Toyota Corolla Ascent Sport". */
  carName: string;
  /** Pre-filled message (sold cars ask for something similar). */
  defaultMessage?: string;
  /** Heading of the plain enquiry; "Enquire about this car" by default (other kinds have their own). */
  title?: string;
  /** The kind of enquiry asked for; the page's `?enquiry=` parameter wins once hydrated. */
  enquiry?: string;
  /** Not in stock: the form asks for something similar whatever was requested. */
  sold?: boolean;
  /** The dealer's own tag (Car.tag) and the car type, for the event id. */
  tag?: string | null;
  carType?: string;
  /** `site.features.analytics`: send the enquiry event to `${apiBase}/api/events`. */
  analytics?: boolean;
  /** Injected by tests; the browser's fetch otherwise. */
  fetchImpl?: typeof fetch;
}

type Status = { kind: 'idle' } | { kind: 'submitting' } | { kind: 'success' } | { kind: 'error'; message: string };

/** Fields in the order the form shows them (the summary lists errors in that order). */
const FIELD_ORDER: EnquiryField[] = ['name', 'email', 'phone', 'message', 'terms'];

function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** The summary lists messages as sentences; the terms message's leading "*" belongs under the box only. */
const plainMessage = (message: string) => message.replace(/^\*/, '');

export default function EnquiryForm(props: EnquiryFormProps) {
  const { apiBase, carId, locationId, carName, defaultMessage = '', sold = false } = props;
  const id = useId();
  const idempotencyKey = useRef<string | null>(null);
  const [type, setType] = useState(() => enquiryTypeOf(props.enquiry, sold));
  const [values, setValues] = useState<EnquiryValues>({
    name: '',
    email: '',
    phone: '',
    message: defaultMessage || type.defaultMessage,
    terms: false,
  });
  const [when, setWhen] = useState({ date: '', time: '' });
  const [errors, setErrors] = useState<EnquiryErrors>({});
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  // Bumped by every failed submit: the summary takes focus (again) after it renders.
  const [failures, setFailures] = useState(0);
  const summary = useRef<HTMLDivElement>(null);
  const thanks = useRef<HTMLHeadingElement>(null);
  // The server-rendered form stays disabled until React takes over: a native
  // submit would put the shopper's details into a GET query string.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => {
    setHydrated(true);
    // Read after hydration, not during render: the server-rendered HTML has
    // no query string, and a different first render would not hydrate.
    const requested = requestedEnquiry(window.location.search);
    if (requested === null) return;
    const next = enquiryTypeOf(requested, sold);
    setType(next);
    // Swap the pre-filled message only while the shopper has not typed.
    setValues((v) => (v.message === (defaultMessage || type.defaultMessage) ? { ...v, message: defaultMessage || next.defaultMessage } : v));
  }, []);
  const fieldId = (field: EnquiryField) => `${id}-${field}`;
  const errorId = (field: EnquiryField) => `${id}-${field}-error`;

  useEffect(() => {
    if (failures > 0) summary.current?.focus();
  }, [failures]);
  useEffect(() => {
    // The form is replaced by the thank-you: focus would otherwise fall to the page.
    if (status.kind === 'success') thanks.current?.focus();
  }, [status.kind]);

  function update(field: EnquiryField) {
    return (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const target = event.currentTarget;
      const value = target instanceof HTMLInputElement && target.type === 'checkbox' ? target.checked : target.value;
      setValues((v) => ({ ...v, [field]: value }));
      // Clear a field's message as soon as the shopper edits it.
      if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
    };
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status.kind === 'submitting') return;
    const found = validateEnquiry(values, type);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setStatus({ kind: 'idle' });
      setFailures((n) => n + 1);
      return;
    }
    // One key per form instance, so a retried submission is not a second lead.
    idempotencyKey.current ??= newIdempotencyKey();
    setStatus({ kind: 'submitting' });
    const payload = buildEnquiryPayload(
      values,
      { carId, locationId, url: window.location.href, idempotencyKey: idempotencyKey.current },
      type,
      when,
    );
    const fetchImpl = props.fetchImpl ?? fetch.bind(globalThis);
    const result = await submitLead(apiBase, payload, fetchImpl);
    if (result.ok) {
      // Spec 001 §4: the event is recorded once the lead is stored; fire-and-forget.
      track({ apiBase, enabled: props.analytics === true, fetchImpl }, enquiryEventId({ tag: props.tag, carType: props.carType }), carId);
      setStatus({ kind: 'success' });
    } else {
      setErrors(result.fields);
      setStatus({ kind: 'error', message: result.error });
      setFailures((n) => n + 1);
    }
  }

  const headingId = `${id}-heading`;
  const title = type.kind === 'enquiry' ? (props.title ?? type.title) : type.title;
  if (status.kind === 'success') {
    return (
      <section className="enquiry" aria-labelledby={headingId}>
        <h2 id={headingId} tabIndex={-1} ref={thanks}>
          Thank you
        </h2>
        <p role="status" className="enquiry__success">
          Your enquiry about the {carName} has been sent. We&apos;ll be in touch with you shortly.
        </p>
      </section>
    );
  }

  const describedBy = (field: EnquiryField) => (errors[field] ? errorId(field) : undefined);
  const fieldError = (field: EnquiryField) =>
    errors[field] ? (
      <p className="field__error" id={errorId(field)}>
        {errors[field]}
      </p>
    ) : null;
  /** A required one-line contact field with its label, error and ARIA wiring. */
  const textField = (
    field: 'name' | 'email' | 'phone',
    label: string,
    input: { type: string; autoComplete: string; inputMode?: 'tel' },
  ) => (
    <div className="field">
      <label htmlFor={fieldId(field)} className="field__label--required">
        {label}
      </label>
      <input
        id={fieldId(field)}
        name={field}
        {...input}
        required
        value={values[field]}
        onChange={update(field)}
        aria-invalid={!!errors[field]}
        aria-describedby={describedBy(field)}
      />
      {fieldError(field)}
    </div>
  );
  const submitting = status.kind === 'submitting';
  const summaryMessage = status.kind === 'error' ? status.message : '';
  const summaryFields = FIELD_ORDER.filter((field) => errors[field]);
  /** A summary link puts the caret in its field (a plain #id link would only scroll). */
  const focusField = (field: EnquiryField) => (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    const input = document.getElementById(fieldId(field));
    input?.scrollIntoView?.({ block: 'center' }); // (jsdom has none)
    input?.focus({ preventScroll: true });
  };

  return (
    <section className="enquiry" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <form noValidate onSubmit={onSubmit} className="enquiry__form" aria-busy={submitting} data-enquiry={type.kind}>
        {/* Screen readers hear "required" from each field; this line is for the eye. */}
        <p className="enquiry__required-note" aria-hidden="true">
          Fields marked <span className="field__mark">*</span> are required.
        </p>
        {(summaryMessage || summaryFields.length > 0) && (
          <div className="error-summary" role="alert" tabIndex={-1} ref={summary} aria-labelledby={`${id}-summary`}>
            <h3 id={`${id}-summary`} className="error-summary__title">
              {summaryFields.length > 0 ? 'Please check the form' : 'Your enquiry was not sent'}
            </h3>
            {summaryMessage && <p className="enquiry__error">{summaryMessage}</p>}
            {summaryFields.length > 0 && (
              <ul className="error-summary__list">
                {summaryFields.map((field) => (
                  <li key={field}>
                    <a href={`#${fieldId(field)}`} onClick={focusField(field)}>
                      {plainMessage(errors[field] ?? '')}
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
        {type.hiddenText && <input type="hidden" name="text" value={type.hiddenText} />}
        {textField('name', 'Name', { type: 'text', autoComplete: 'name' })}
        {textField('email', 'Email', { type: 'email', autoComplete: 'email' })}
        {textField('phone', 'Phone', { type: 'tel', autoComplete: 'tel', inputMode: 'tel' })}
        <div className="field">
          <label htmlFor={fieldId('message')} className={type.messageRequired ? 'field__label--required' : undefined}>
            Message{type.messageRequired ? '' : ' (optional)'}
          </label>
          <textarea
            id={fieldId('message')}
            name="message"
            rows={4}
            required={type.messageRequired}
            value={values.message}
            onChange={update('message')}
            aria-invalid={!!errors.message}
            aria-describedby={describedBy('message')}
          />
          {fieldError('message')}
        </div>
        {type.dateTime && (
          <div className="field-row">
            <div className="field">
              <label htmlFor={`${id}-date`}>Preferred date (optional)</label>
              <input id={`${id}-date`} name="preferred_date" type="date" value={when.date} onChange={(e) => setWhen({ ...when, date: e.currentTarget.value })} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-time`}>Preferred time (optional)</label>
              <input id={`${id}-time`} name="preferred_time" type="time" value={when.time} onChange={(e) => setWhen({ ...when, time: e.currentTarget.value })} />
            </div>
          </div>
        )}
        <div className="field field--checkbox">
          <input
            id={fieldId('terms')}
            name="terms_conditions"
            type="checkbox"
            checked={values.terms}
            required
            onChange={update('terms')}
            aria-invalid={!!errors.terms}
            aria-describedby={describedBy('terms')}
          />
          <label htmlFor={fieldId('terms')} className="field__label--required">
            I agree to the <a href="/terms-and-conditions/">terms of use</a> and{' '}
            <a href="/privacy-policy/">privacy policy</a>.
          </label>
          {fieldError('terms')}
        </div>
        <button type="submit" className="button button--primary" disabled={!hydrated} aria-disabled={submitting || undefined}>
          {submitting ? 'Sending…' : type.kind === 'test-drive' ? 'Request test drive' : 'Send enquiry'}
        </button>
      </form>
    </section>
  );
}
