/**
 * Analytics events to the edge's sink, `POST /api/events` (spec 000 §7:
 * 19 fleet enquiry, 25 phone click, 39 save car). Only for dealers whose
 * sink is on (`features.analytics`); the edge answers 404 for the others,
 * so those never call it. Fire-and-forget: a lost event must never get in
 * the shopper's way, so nothing is awaited and failures are ignored.
 */
import { api } from './api';

export const EVENT_PHONE_CLICK = 25;
export const EVENT_SAVE_CAR = 39;

export interface AnalyticsTarget {
  apiBase: string;
  /** `site.features.analytics`. */
  enabled: boolean;
  fetchImpl?: typeof fetch;
}

export function track(target: AnalyticsTarget, eventId: number, carId?: string, data?: Record<string, unknown>): void {
  if (!target.enabled) return;
  const url = typeof window === 'undefined' ? undefined : window.location.href;
  // keepalive: a phone click (tel:) or a sent form (to the success page) navigates away before the answer.
  void api(target.apiBase, '/api/events', {
    body: { event_id: eventId, ...(carId ? { car_id: carId } : {}), ...(url ? { url } : {}), ...(data && Object.keys(data).length > 0 ? { data } : {}) },
    keepalive: true,
    fetchImpl: target.fetchImpl,
  });
}
