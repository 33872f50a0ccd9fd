/**
 * Vehicle enquiry form: the only island on the car page (client:visible).
 * Rules and the network call live in lib/enquiry.ts; this file is the UI.
 */
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import {
  buildEnquiryPayload,
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
  /** Heading text; "Enquire about this car" by default. */
  title?: string;
  /** Injected by tests; the browser's fetch otherwise. */
  fetchImpl?: typeof fetch;
}

type Status = { kind: 'idle' } | { kind: 'submitting' } | { kind: 'success' } | { kind: 'error'; message: string };

function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export default function EnquiryForm(props: EnquiryFormProps) {
  const { apiBase, carId, locationId, carName, defaultMessage = '', title = 'Enquire about this car' } = props;
  const id = useId();
  const idempotencyKey = useRef<string | null>(null);
  const [values, setValues] = useState<EnquiryValues>({
    name: '',
    email: '',
    phone: '',
    message: defaultMessage,
    terms: false,
  });
  const [errors, setErrors] = useState<EnquiryErrors>({});
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  // The server-rendered form stays disabled until React takes over: a native
  // submit would put the shopper's details into a GET query string.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const fieldId = (field: EnquiryField) => `${id}-${field}`;
  const errorId = (field: EnquiryField) => `${id}-${field}-error`;

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
    const found = validateEnquiry(values);
    setErrors(found);
    const firstInvalid = (Object.keys(found) as EnquiryField[])[0];
    if (firstInvalid) {
      document.getElementById(fieldId(firstInvalid))?.focus();
      return;
    }
    // One key per form instance, so a retried submission is not a second lead.
    idempotencyKey.current ??= newIdempotencyKey();
    setStatus({ kind: 'submitting' });
    const payload = buildEnquiryPayload(values, {
      carId,
      locationId,
      url: window.location.href,
      idempotencyKey: idempotencyKey.current,
    });
    const result = await submitLead(apiBase, payload, props.fetchImpl ?? fetch.bind(globalThis));
    if (result.ok) {
      setStatus({ kind: 'success' });
    } else {
      setErrors(result.fields);
      setStatus({ kind: 'error', message: result.error });
    }
  }

  const headingId = `${id}-heading`;
  if (status.kind === 'success') {
    return (
      <section className="enquiry" aria-labelledby={headingId}>
        <h2 id={headingId}>Thank you</h2>
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
  const submitting = status.kind === 'submitting';

  return (
    <section className="enquiry" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <form noValidate onSubmit={onSubmit} className="enquiry__form" aria-busy={submitting}>
        <div className="field">
          <label htmlFor={fieldId('name')}>Name</label>
          <input
            id={fieldId('name')}
            name="name"
            type="text"
            autoComplete="name"
            required
            value={values.name}
            onChange={update('name')}
            aria-invalid={!!errors.name}
            aria-describedby={describedBy('name')}
          />
          {fieldError('name')}
        </div>
        <div className="field">
          <label htmlFor={fieldId('email')}>Email</label>
          <input
            id={fieldId('email')}
            name="email"
            type="email"
            autoComplete="email"
            required
            value={values.email}
            onChange={update('email')}
            aria-invalid={!!errors.email}
            aria-describedby={describedBy('email')}
          />
          {fieldError('email')}
        </div>
        <div className="field">
          <label htmlFor={fieldId('phone')}>Phone</label>
          <input
            id={fieldId('phone')}
            name="phone"
            type="tel"
            autoComplete="tel"
            inputMode="tel"
            required
            value={values.phone}
            onChange={update('phone')}
            aria-invalid={!!errors.phone}
            aria-describedby={describedBy('phone')}
          />
          {fieldError('phone')}
        </div>
        <div className="field">
          <label htmlFor={fieldId('message')}>Message</label>
          <textarea
            id={fieldId('message')}
            name="message"
            rows={4}
            required
            value={values.message}
            onChange={update('message')}
            aria-invalid={!!errors.message}
            aria-describedby={describedBy('message')}
          />
          {fieldError('message')}
        </div>
        <div className="field field--checkbox">
          <input
            id={fieldId('terms')}
            name="terms_conditions"
            type="checkbox"
            checked={values.terms}
            onChange={update('terms')}
            aria-invalid={!!errors.terms}
            aria-describedby={describedBy('terms')}
          />
          <label htmlFor={fieldId('terms')}>
            I agree to the <a href="/terms-and-conditions/">terms of use</a> and{' '}
            <a href="/privacy-policy/">privacy policy</a>.
          </label>
          {fieldError('terms')}
        </div>
        {status.kind === 'error' ? (
          <p role="alert" className="enquiry__error">
            {status.message}
          </p>
        ) : null}
        <button type="submit" className="button button--primary" disabled={submitting || !hydrated}>
          {submitting ? 'Sending…' : 'Send enquiry'}
        </button>
      </form>
    </section>
  );
}
