/**
 * The body of `POST /api/leads` (edge/openapi.yaml): the spec's lead payload
 * (docs/behaviour/car-page.md §3, "Lead payload": category, subcategory,
 * url, source "Website", user_agent, car_id, lead_attributes,
 * form_completed, offer_accepted, rego, regoState, adjustmentAnswers...)
 * plus the car form defaults (dealership_slug, manufacturer_slug,
 * stock_number, make, model, car_type, car_id, vehicle_status, opt_in) and
 * the shopper's fields. The same names
 * are the HTML inputs' names, so a form posted without JavaScript carries
 * the same fields (as strings) and the worker reads both alike.
 *
 * The worker fills the vehicle from the dealer's own stock: the car fields
 * here help a person reading the raw lead, they are never trusted.
 */
import { parseAuPhone } from '../enquiry';
import type { LeadAttributes } from './attribution';
import { chosen, normaliseRego, parseAmount, parseKms, type FieldRule, type FormValues } from './rules';

/** `source` of every lead a dealer site sends. */
export const LEAD_SOURCE = 'Website';
/** The honeypot input's name: people never see it, a bot that fills it gets a fake success (edge). */
export const HONEYPOT_FIELD = 'website';
/** The Turnstile token's field name (as Cloudflare's widget names its hidden input). */
export const TURNSTILE_FIELD = 'cf-turnstile-response';

/** What the car page knows about the car a form is about. */
export interface CarFacts {
  id: string;
  slug: string;
  name: string;
  year: number;
  make: string;
  model: string;
  badge?: string | null;
  km?: number;
  car_type: string;
  status: string;
  stocknum?: string | null;
  tag?: string | null;
  location_id: string;
}

/** "Mercedes-Benz" -> "mercedes-benz": the generator's kebab rule (config/src/slug.rs, pinned by rules/vectors/slugs.json). */
export function kebab(name: string): string {
  let out = '';
  for (const c of name) {
    if (/^[A-Za-z0-9]$/.test(c)) out += c.toLowerCase();
    else if (out !== '' && !out.endsWith('-')) out += '-';
  }
  return out.replace(/-+$/, '');
}

export type Defaults = Record<string, string | boolean>;

/**
 * The car form defaults (docs/behaviour/car-page.md §3) for a car: hidden inputs of every
 * car form and the base of its payload. The marketing `opt_in` is the
 * form's own box, which only the shopper ticks (islands/forms/specs optInField).
 */
export function carDefaults(car: CarFacts, dealershipSlug: string): Defaults {
  const out: Defaults = {
    car_id: car.id,
    dealership_slug: dealershipSlug,
    manufacturer_slug: kebab(car.make),
    make: car.make,
    model: car.model,
    car_type: car.car_type,
    vehicle_status: car.status,
    location_id: car.location_id,
  };
  if (car.stocknum) out['stock_number'] = car.stocknum;
  return out;
}

/** The vehicle details analytics events carry (docs/behaviour/content.md §7). */
export function vehicleDetails(car: CarFacts): Record<string, unknown> {
  return {
    vehicleStatus: car.status,
    vehicleMake: car.make,
    vehicleModel: car.model,
    vehicleYear: car.year,
    vehicleKilometers: car.km ?? 0,
    vehicleGrade: car.badge ?? '',
  };
}

export interface LeadContext {
  category: string;
  subcategory?: string;
  /** The page the form was sent from. */
  url: string;
  userAgent: string;
  attributes: LeadAttributes;
  /** Car form defaults and other fixed fields (dealership_slug, location_id...). */
  defaults?: Defaults;
  /** Sent ahead of the shopper's message, never shown (the photo request's text, docs/behaviour/search.md §5). */
  hiddenText?: string;
  /** Flow fields: form_completed, offer_accepted, adjustmentAnswers, lead_id... */
  extra?: Record<string, unknown>;
  /** The honeypot input's value (empty for people). */
  honeypot?: string;
  /** Turnstile's token, when the dealer has the captcha on. */
  captchaToken?: string;
}

/** A field's value as the worker wants it, or undefined to leave it out. */
function wire(rule: FieldRule, value: unknown): unknown {
  if (rule.rule === 'checkbox') return value === true;
  if (rule.rule === 'terms') return value === true ? true : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  switch (rule.rule) {
    case 'phone':
      return parseAuPhone(text) ?? text;
    case 'money':
      return parseAmount(text) ?? text;
    case 'kms':
      return parseKms(text) ?? text;
    case 'year':
      return Number(text);
    case 'rego':
      return normaliseRego(text);
    case 'choices':
      return chosen(text);
    default:
      return text;
  }
}

/** The JSON body of `POST /api/leads` (without the idempotency key, which depends on it). */
export function buildLeadPayload(rules: readonly FieldRule[], values: FormValues, ctx: LeadContext): Record<string, unknown> {
  const body: Record<string, unknown> = { ...(ctx.defaults ?? {}) };
  for (const rule of rules) {
    const v = wire(rule, values[rule.name]);
    if (v === undefined) continue;
    // "adjustmentAnswers[accident]" nests as the worker reads a form post's names.
    const nested = /^([A-Za-z_][\w-]*)\[([\w-]+)\]$/.exec(rule.name);
    if (nested) {
      const [, group, key] = nested as unknown as [string, string, string];
      const into = (body[group] ??= {}) as Record<string, unknown>;
      into[key] = v;
    } else body[rule.name] = v;
  }
  const message = [ctx.hiddenText ?? '', typeof body['message'] === 'string' ? (body['message'] as string) : ''].filter(Boolean).join('\n\n');
  if (message) body['message'] = message;
  Object.assign(body, ctx.extra ?? {});
  body['category'] = ctx.category;
  if (ctx.subcategory) body['subcategory'] = ctx.subcategory;
  body['source'] = LEAD_SOURCE;
  body['url'] = ctx.url;
  body['user_agent'] = ctx.userAgent.slice(0, 512);
  body['lead_attributes'] = ctx.attributes;
  body[HONEYPOT_FIELD] = ctx.honeypot ?? '';
  if (ctx.captchaToken) body[TURNSTILE_FIELD] = ctx.captchaToken;
  return body;
}
