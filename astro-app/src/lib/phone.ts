/** Phone reveal (docs/behaviour/search.md §4, §7, §8): the call (the build masks the number: docs/behaviour/phone-reveal.md). */
import { api } from './api';

/** "tel:" link of a shown number (digits and a leading +). */
export function telLink(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

export interface RevealRequest {
  apiBase: string;
  carId: string;
  locationId: string;
  dealershipId?: number | null;
  websiteId?: string;
  fetchImpl?: typeof fetch;
}

/**
 * The location's phone from POST /api/phone-reveal (which also records the
 * reveal and event 25), or null; failures are only logged (docs/behaviour/search.md §8).
 */
export async function revealPhone(req: RevealRequest): Promise<string | null> {
  const body: Record<string, unknown> = { car_id: req.carId, location_id: req.locationId };
  if (req.dealershipId != null) body['dealership_id'] = req.dealershipId;
  if (req.websiteId) body['website_id'] = req.websiteId;
  const result = await api<{ phone?: unknown }>(req.apiBase, '/api/phone-reveal', { body, fetchImpl: req.fetchImpl });
  if (result.ok && typeof result.data.phone === 'string' && result.data.phone !== '') return result.data.phone;
  console.error('phone reveal failed:', result.ok ? 'no phone in the answer' : result.error);
  return null;
}
