/**
 * The one table of analytics event ids every island and page sends
 * (docs/behaviour/search.md §7, car-page.md §7, content.md §7), and the
 * one function that sends them. The worker accepts exactly these ids
 * (rules/vectors/events.json, read by its tests and by
 * astro-app/test/vectors-events.test.ts, which checks this
 * table against it name by name). docs/behaviour/analytics.md lists the
 * action behind each id; test/events-actions.test.ts checks each action.
 *
 * An event goes to two places: `window.dataLayer` (the dealer's tag manager
 * reads it, always) and the edge's sink `POST /api/events` (only for dealers
 * with the sink on: the edge answers 404 for the others, so they never call
 * it). Fire-and-forget: nothing is awaited, a lost event never gets in the
 * shopper's way.
 */
import { api } from './api';

/** Event ids by the name rules/vectors/events.json gives them. */
export const EVENTS = {
  car_page_view: 4,
  vehicle_enquiry: 14,
  vehicle_enquiry_used: 15,
  vehicle_enquiry_test_drive_only: 17,
  history_report_open: 18,
  fleet_enquiry: 19,
  form_enquiry: 22,
  phone_click: 25,
  finance_calculator_first_use: 26,
  save_car: 39,
  car_print: 48,
  car_share: 49,
  careers_enquiry: 51,
  favourite_add: 60,
  photo_viewer_open: 61,
} as const;

export type EventName = keyof typeof EVENTS;
export type EventId = (typeof EVENTS)[EventName];

const NAMES = new Map<number, EventName>(Object.entries(EVENTS).map(([name, id]) => [id, name as EventName]));

/** The event's name for an id of the table. */
export function eventName(id: EventId): EventName {
  return NAMES.get(id) as EventName;
}

/**
 * The vehicle an event is about, in the tracking names of docs/behaviour/content.md §7
 * (vehicleStatus, vehicleMake, vehicleModel, vehicleYear, vehicleKilometers,
 * vehicleGrade).
 */
export interface VehicleDetails {
  vehicleStatus?: string;
  vehicleMake?: string;
  vehicleModel?: string;
  vehicleYear?: number;
  vehicleKilometers?: number;
  vehicleGrade?: string;
}

export interface EventTarget {
  apiBase: string;
  /** `site.features.analytics`: the edge sink records this dealer's events. */
  sink: boolean;
  fetchImpl?: typeof fetch;
}

type DataLayer = { push: (entry: Record<string, unknown>) => unknown };

/**
 * Records an event: a `dataLayer` entry `{event: "dealergen_<name>",
 * event_id, ...data}` and, for dealers with the sink, the edge's copy (with
 * the page's address; `keepalive`, as a phone click or a sent form leaves
 * the page before the answer). The shopper's name, e-mail and phone never
 * go in: `data` carries the form's category and the vehicle only.
 */
export function sendEvent(target: EventTarget, id: EventId, data: Record<string, unknown> = {}, carId?: string): void {
  const url = typeof window === 'undefined' ? undefined : window.location.href;
  if (typeof window !== 'undefined') {
    const w = window as unknown as { dataLayer?: DataLayer };
    w.dataLayer = w.dataLayer ?? ([] as unknown as DataLayer);
    try {
      w.dataLayer.push({ event: `dealergen_${eventName(id)}`, event_id: id, ...(carId ? { car_id: carId } : {}), ...data });
    } catch {
      // A tag manager's broken push must not stop the form.
    }
  }
  if (!target.sink) return;
  void api(target.apiBase, '/api/events', {
    body: { event_id: id, ...(carId ? { car_id: carId } : {}), ...(url ? { url } : {}), ...(Object.keys(data).length > 0 ? { data } : {}) },
    keepalive: true,
    fetchImpl: target.fetchImpl,
  });
}

/**
 * Sends event `id` for the page `doc` shows: the dealer's API and sink from
 * the page's `<meta name="dealergen:events">` (BaseLayout), the car of a
 * car page from its `data-car`. For what a page declares rather than an
 * island sends (lib/event-clicks.ts). An id not in the table sends nothing.
 */
export function sendPageEvent(doc: Document, id: number): void {
  if (!NAMES.has(id)) return;
  const meta = doc.querySelector<HTMLMetaElement>('meta[name="dealergen:events"]');
  const target = { apiBase: meta?.dataset['apiBase'] ?? '', sink: meta?.dataset['sink'] === 'true' };
  sendEvent(target, id as EventId, {}, meta?.dataset['car'] || undefined);
}

/**
 * The event a sent car enquiry records: 17 when the car's own tag is
 * "Test Drive Only", 15 for a used car, otherwise 14 (docs/behaviour/car-page.md §7). The tag
 * is the dealer's (Car.tag), not the banner, which Reserved may replace.
 */
export function vehicleEnquiryEvent(car: { tag?: string | null; carType?: string | null }): EventId {
  if (car.tag?.trim().toLowerCase() === 'test drive only') return EVENTS.vehicle_enquiry_test_drive_only;
  return car.carType === 'used' ? EVENTS.vehicle_enquiry_used : EVENTS.vehicle_enquiry;
}

/** A general form's event: 51 for a careers enquiry, 19 for fleet, otherwise 22 (docs/behaviour/content.md §7, search.md §5). */
export function formEnquiryEvent(choice: 'careers' | 'fleet' | string): EventId {
  if (choice === 'careers') return EVENTS.careers_enquiry;
  if (choice === 'fleet') return EVENTS.fleet_enquiry;
  return EVENTS.form_enquiry;
}
