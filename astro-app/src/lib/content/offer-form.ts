/**
 * The offer page's enquiry form (components/offers/OfferEnquirySlot.astro):
 * a plain HTML form that this module sends as JSON to the lead API, with the
 * enquiry form's checks and messages (lib/enquiry.ts), an error summary
 * that takes focus, and the dealer's thank-you text in place of the form
 * after it is sent (spec 002 §4 "Offer submission success").
 */
import { leadsUrl, parseAuPhone, UNEXPECTED_ERROR, validateEnquiry, type EnquiryErrors, type EnquiryField } from '../enquiry';

/** The form's fields as sent, by name. */
export type OfferFields = Record<string, string>;

/** The lead's JSON body (lead field names shared by every form). */
export function offerLead(fields: OfferFields, idempotencyKey: string): Record<string, unknown> {
  const note = fields.offer_name ? `Offer: ${fields.offer_name}` : '';
  const message = [note, (fields.message ?? '').trim()].filter(Boolean).join('\n\n');
  const lead: Record<string, unknown> = {
    category: 'offer',
    subcategory: fields.subcategory || 'Offer Enquiry',
    name: (fields.name ?? '').trim(),
    email: (fields.email ?? '').trim(),
    phone: parseAuPhone(fields.phone ?? '') ?? (fields.phone ?? '').trim(),
    message,
    terms_conditions: fields.terms_conditions === 'true',
    opt_in: fields.opt_in === 'true',
    url: fields.url ?? '',
    source: fields.source || 'Website',
    dealership_slug: fields.dealership_slug ?? '',
    offer_id: fields.offer_id ?? '',
    idempotency_key: idempotencyKey,
  };
  for (const k of ['make', 'model', 'website'] as const) if (fields[k]) lead[k] = fields[k];
  return lead;
}

/** The shopper's mistakes, in the form's order, with the enquiry form's messages. */
export function offerErrors(fields: OfferFields): EnquiryErrors {
  return validateEnquiry(
    { name: fields.name ?? '', email: fields.email ?? '', phone: fields.phone ?? '', message: fields.message ?? '', terms: fields.terms_conditions === 'true' },
    { messageRequired: false },
  );
}

const FIELD_NAMES: Record<EnquiryField, string> = { name: 'name', email: 'email', phone: 'phone', message: 'message', terms: 'terms_conditions' };

function fieldsOf(form: HTMLFormElement): OfferFields {
  const out: OfferFields = {};
  for (const el of form.elements) {
    if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) || !el.name) continue;
    if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
      if (el.checked) out[el.name] = el.value;
    } else out[el.name] = el.value;
  }
  return out;
}

function newKey(): string {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** Shows `messages` in the summary (linking each to its field) and moves focus there. */
function showErrors(form: HTMLFormElement, summary: HTMLElement, errors: EnquiryErrors, general?: string): void {
  const doc = form.ownerDocument;
  for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
  const title = doc.createElement('p');
  title.className = 'error-summary__title';
  title.textContent = 'Please fix the following errors:';
  const list = doc.createElement('ul');
  list.className = 'error-summary__list';
  if (general) {
    const li = doc.createElement('li');
    li.textContent = general;
    list.append(li);
  }
  for (const [field, message] of Object.entries(errors) as [EnquiryField, string][]) {
    const input = form.querySelector<HTMLInputElement>(`[name="${FIELD_NAMES[field]}"]`);
    input?.setAttribute('aria-invalid', 'true');
    const li = doc.createElement('li');
    const a = doc.createElement('a');
    a.textContent = message.replace(/^\*\s*/, '');
    if (input) {
      if (!input.id) input.id = `offer-${FIELD_NAMES[field]}`;
      a.href = `#${input.id}`;
    }
    li.append(a);
    list.append(li);
  }
  summary.replaceChildren(title, list);
  summary.hidden = false;
  summary.focus();
}

/** Wires every offer form of `doc`; `fetchImpl` is injected by tests. */
export function enhanceOfferForm(doc: Document, fetchImpl: typeof fetch = (...a) => fetch(...a)): void {
  for (const form of doc.querySelectorAll<HTMLFormElement>('form[data-offer-form]')) {
    const section = form.closest('section') ?? form.parentElement!;
    const summary = form.querySelector<HTMLElement>('[data-form-errors]')!;
    const thanks = section.querySelector<HTMLElement>('[data-offer-thanks]');
    // "Book A Test Drive" links ask for the test drive choice.
    if (new URLSearchParams(doc.location?.search ?? '').get('enquiry') === 'test-drive') {
      const radio = form.querySelector<HTMLInputElement>('input[name="subcategory"][value="Book a Test Drive"]');
      if (radio) radio.checked = true;
    }
    let key: string | null = null;
    let sending = false;
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (sending) return;
      const fields = fieldsOf(form);
      const errors = offerErrors(fields);
      if (Object.keys(errors).length > 0) return showErrors(form, summary, errors);
      sending = true;
      key ??= newKey();
      const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
      button?.setAttribute('aria-disabled', 'true');
      try {
        const response = await fetchImpl(leadsUrl(form.dataset.apiBase ?? ''), {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(offerLead(fields, key)),
        });
        const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
        if (!response.ok) {
          const message = typeof body?.error === 'string' && body.error.trim() ? body.error : UNEXPECTED_ERROR;
          return showErrors(form, summary, {}, message);
        }
        form.hidden = true;
        if (thanks) {
          thanks.hidden = false;
          thanks.querySelector<HTMLElement>('[data-offer-thanks-title]')?.focus();
        }
      } catch {
        showErrors(form, summary, {}, 'An error occurred when submitting this form');
      } finally {
        sending = false;
        button?.removeAttribute('aria-disabled');
      }
    });
  }
}
