/**
 * Sending a lead and the flow calls (valuation, checkout hold, car status)
 * to the edge. Never throws: each resolves with the data or the server's
 * error message and per-field messages (keyed by the same wire names as
 * the form's inputs, so they land under the right field).
 */
import { api, type ApiResult } from '../api';

export type LeadResult = { ok: true; leadId: string } | { ok: false; status: number; error: string; fields: Record<string, string> };

/** Posts a lead; a success needs a `lead_id` (docs/behaviour/car-page.md §4: "If the response returns a lead_id"). */
export async function postLead(apiBase: string, body: Record<string, unknown>, fetchImpl?: typeof fetch): Promise<LeadResult> {
  const result = await api<{ lead_id?: unknown }>(apiBase, '/api/leads', { body, fetchImpl });
  if (result.ok) {
    const id = result.data.lead_id;
    if (typeof id === 'string' || typeof id === 'number') return { ok: true, leadId: String(id) };
    return { ok: false, status: result.status, error: 'An unexpected error occurred.', fields: {} };
  }
  return { ok: false, status: result.status, error: result.error, fields: result.fields };
}

export type { ApiResult };
