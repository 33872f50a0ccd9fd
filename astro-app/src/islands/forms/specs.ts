/**
 * Builders of the fields the forms share, so every form asks for a name,
 * an e-mail or a postcode with the same label, autocomplete and rule.
 */
import type { Car, Location, SiteData } from '../../types/site';
import type { CarFacts } from '../../lib/forms/payload';
import { AU_STATES, messageRequired } from '../../lib/forms/rules';
import type { FieldSpec, Option } from './Fields';
import type { FormSettings } from './LeadForm';

/** What a form island receives from the page (serialisable: islands' props are JSON). */
export interface FormConfig extends FormSettings {
  /** The dealer (stored by the worker from the Origin; sent for the CRM's eyes). */
  dealershipSlug: string;
  /** `forms.message_required`. */
  messageRequired: boolean;
  /** `forms.terms_required`: the terms checkbox is shown and must be ticked. */
  termsRequired: boolean;
  /** `forms.opt_in_text`: the words beside the marketing opt-in's box (the edge records the same words with a ticked box). */
  optInText: string;
  /** `forms.default_state`, e.g. "QLD". */
  defaultState: string;
  /** `forms.budget_presets`: the finance form's quick amounts, in dollars. */
  budgetPresets: number[];
  /** `service.additional_services`: extras a service booking can tick. */
  additionalServices?: string[];
  /** The dealer has a parts counter (`forms.parts_location_ids`): the contact form offers a Parts Enquiry. */
  partsEnquiry?: boolean;
}

/** The forms' settings of a dealer's site (pages pass this to every form island). */
export function formConfig(site: SiteData): FormConfig {
  return {
    apiBase: site.api_base,
    successPath: site.forms.success_path,
    captchaSiteKey: site.forms.captcha_site_key,
    analyticsSink: site.features.analytics,
    dealershipSlug: site.slug,
    messageRequired: site.forms.message_required,
    termsRequired: site.forms.terms_required,
    optInText: site.forms.opt_in_text,
    defaultState: site.forms.default_state,
    budgetPresets: site.forms.budget_presets,
    additionalServices: site.forms.additional_services,
    partsEnquiry: site.forms.parts_location_ids.length > 0,
    phone: site.contact.phone,
  };
}

export function contactFields(step?: number, opts: { lastName?: boolean; firstNameLabel?: string; phoneLabel?: string } = {}): FieldSpec[] {
  const at = step === undefined ? {} : { step };
  const out: FieldSpec[] = [
    { name: 'name', rule: 'name', required: true, label: opts.firstNameLabel ?? 'Name', input: 'text', autoComplete: opts.lastName ? 'given-name' : 'name', ...at },
  ];
  if (opts.lastName) out.push({ name: 'last_name', rule: 'last_name', required: true, label: 'Last Name', input: 'text', autoComplete: 'family-name', ...at });
  out.push(
    { name: 'email', rule: 'email', required: true, label: 'Email', input: 'email', autoComplete: 'email', ...at },
    { name: 'phone', rule: 'phone', required: true, label: opts.phoneLabel ?? 'Phone', input: 'tel', autoComplete: 'tel', ...at },
  );
  return out;
}

/** The message box: required for open questions unless the dealer switched messages off. */
export function messageField(category: string, config: Pick<FormConfig, 'messageRequired'>, step?: number, label = 'Message'): FieldSpec {
  return {
    name: 'message',
    rule: 'message',
    required: messageRequired(category, config.messageRequired),
    label,
    input: 'textarea',
    ...(step === undefined ? {} : { step }),
  };
}

/** The terms checkbox, only when the dealer asks for it (`forms.terms_required`). */
export function termsFields(config: Pick<FormConfig, 'termsRequired'>, step?: number): FieldSpec[] {
  if (!config.termsRequired) return [];
  return [{ name: 'terms_conditions', rule: 'terms', required: true, label: 'I agree to the terms of use and privacy policy.', input: 'terms', ...(step === undefined ? {} : { step }) }];
}

/**
 * The marketing opt-in in the dealer's words (`forms.opt_in_text`): a box
 * the shopper ticks, never ticked for them. The Spam Act regulator (ACMA)
 * does not take a pre-ticked box as consent: a deliberate difference from
 * spec 002 §5's "defaults to true" (docs/behaviour/forms.md "Consent").
 */
export function optInField(config: Pick<FormConfig, 'optInText'>, step?: number): FieldSpec {
  return { name: 'opt_in', rule: 'checkbox', required: false, label: config.optInText, input: 'checkbox', ...(step === undefined ? {} : { step }) };
}

/** The closing boxes of a lead form: the opt-in, then the terms where the dealer asks for them. */
export function consentFields(config: Pick<FormConfig, 'termsRequired' | 'optInText'>, step?: number): FieldSpec[] {
  return [optInField(config, step), ...termsFields(config, step)];
}

export function postcodeField(required: boolean, step?: number): FieldSpec {
  return { name: 'postcode', rule: 'postcode', required, label: 'Postcode', input: 'postcode', ...(step === undefined ? {} : { step }) };
}

export function stateField(name: string, label: string, required: boolean, step?: number): FieldSpec {
  return {
    name,
    rule: 'choice',
    required,
    label,
    input: 'select',
    options: AU_STATES.map((s) => ({ value: s, label: s })),
    choices: AU_STATES,
    missing: 'rego_state_invalid',
    ...(step === undefined ? {} : { step }),
  };
}

/** Where a location-less form goes: a select of the dealer's locations when it has more than one (docs/behaviour/content.md §5: required when shown). */
export function locationField(locations: Pick<Location, 'id' | 'name'>[], step?: number, label = 'Location'): FieldSpec | null {
  if (locations.length < 2) return null;
  const options: Option[] = locations.map((l) => ({ value: l.id, label: l.name }));
  return {
    name: 'location_id',
    rule: 'choice',
    required: true,
    label,
    input: 'select',
    emptyOption: 'Choose a location',
    options,
    choices: options.map((o) => o.value),
    missing: 'location_missing',
    ...(step === undefined ? {} : { step }),
  };
}

/** The defaults of a form naming no car: the dealer, and its one location when it has only one. */
export function dealerDefaults(config: Pick<FormConfig, 'dealershipSlug'>, locations: Pick<Location, 'id'>[]): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = { dealership_slug: config.dealershipSlug };
  if (locations.length === 1 && locations[0]) out['location_id'] = locations[0].id;
  return out;
}

/** What a car form needs of a car (cars.json's Car), as plain JSON for an island. */
export function carFacts(car: Car): CarFacts {
  return {
    id: car.id,
    slug: car.slug,
    name: car.name,
    year: car.year,
    make: car.make,
    model: car.model,
    badge: car.badge,
    km: car.km,
    car_type: car.car_type,
    status: car.status,
    stocknum: car.stocknum,
    tag: car.tag,
    location_id: car.location.id,
  };
}
