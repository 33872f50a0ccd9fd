/**
 * The one table of analytics event ids every island sends (spec 000 §7,
 * 001 §7, 002 §7). The worker accepts exactly these (rules/vectors/events.json,
 * read by its tests and by astro-app/test/vectors-events.test.ts, which
 * checks this table against it name by name).
 *
 * An event goes to two places: `window.dataLayer` (the dealer's tag manager
 * reads it, always) and the edge's sink `POST /api/events` (only for dealers
 * with the sink on: the edge answers 404 for the others, so they never call
 * it). Fire-and-forget: nothing is awaited, a lost event never gets in the
 * shopper's way.
 */
import { track } from './analytics';

/** Event ids by the name rules/vectors/events.json gives them. */
export const EVENTS = {
  car_page_4: 4,
  vehicle_enquiry: 14,
  vehicle_enquiry_used: 15,
  vehicle_enquiry_test_drive_only: 17,
  car_page_18: 18,
  fleet_enquiry: 19,
  form_enquiry: 22,
  phone_click: 25,
  finance_calculator_first_use: 26,
  save_car: 39,
  car_page_48: 48,
  car_page_49: 49,
  careers_enquiry: 51,
  car_page_60: 60,
  car_page_61: 61,
} as const;

export type EventName = keyof typeof EVENTS;
export type EventId = (typeof EVENTS)[EventName];

const NAMES = new Map<number, EventName>(Object.entries(EVENTS).map(([name, id]) => [id, name as EventName]));

/** The event's name for an id of the table. */
export function eventName(id: EventId): EventName {
  return NAMES.get(id) as EventName;
}

/**
 * The vehicle an event is about, in the tracking names of spec 002 §7
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
 * event_id, ...data}` and, for dealers with the sink, the edge's copy. The
 * shopper's name, e-mail and phone never go in: `data` carries the form's
 * category and the vehicle only.
 */
export function sendEvent(target: EventTarget, id: EventId, data: Record<string, unknown> = {}, carId?: string): void {
  if (typeof window !== 'undefined') {
    const w = window as unknown as { dataLayer?: DataLayer };
    w.dataLayer = w.dataLayer ?? ([] as unknown as DataLayer);
    try {
      w.dataLayer.push({ event: `dealergen_${eventName(id)}`, event_id: id, ...data });
    } catch {
      // A tag manager's broken push must not stop the form.
    }
  }
  track({ apiBase: target.apiBase, enabled: target.sink, fetchImpl: target.fetchImpl }, id, carId, data);
}

/**
 * The event a sent car enquiry records: 17 when the car's own tag is
 * "Test Drive Only", 15 for a used car, otherwise 14 (spec 001 §7). The tag
 * is the dealer's (Car.tag), not the banner, which Reserved may replace.
 */
export function vehicleEnquiryEvent(car: { tag?: string | null; carType?: string | null }): EventId {
  if (car.tag?.trim().toLowerCase() === 'test drive only') return EVENTS.vehicle_enquiry_test_drive_only;
  return car.carType === 'used' ? EVENTS.vehicle_enquiry_used : EVENTS.vehicle_enquiry;
}

/** A general form's event: 51 for a careers enquiry, 19 for fleet, otherwise 22 (spec 002 §7, 000 §5). */
export function formEnquiryEvent(choice: 'careers' | 'fleet' | string): EventId {
  if (choice === 'careers') return EVENTS.careers_enquiry;
  if (choice === 'fleet') return EVENTS.fleet_enquiry;
  return EVENTS.form_enquiry;
}
