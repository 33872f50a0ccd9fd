/**
 * Sending a lead and the flow calls (valuation, checkout hold, car status)
 * to the edge. Never throws: each resolves with the data or the server's
 * error message and per-field messages (keyed by the same wire names as
 * the form's inputs, so they land under the right field).
 */
import { api, type ApiResult } from '../api';

export type LeadResult =
  | { ok: true; leadId: string }
  | { ok: false; status: number; error: string; fields: Record<string, string>; captchaSiteKey?: string };

/**
 * The latest flow token of each multi-step flow this page started, by the
 * flow's first lead (edge/core/src/lead_flow.rs): a later step names its
 * first lead and shows this token, or the worker judges it a first lead. In
 * memory only: a flow does not outlive the page.
 */
const flowTokens = new Map<string, string>();

/** The token a later step of the flow started by lead `firstLead` carries. */
export function flowToken(firstLead: unknown): string | undefined {
  return typeof firstLead === 'string' ? flowTokens.get(firstLead) : undefined;
}

/** `body` with the flow token of the lead its `lead_id` names, where this page has one. */
export function withFlowToken(body: Record<string, unknown>): Record<string, unknown> {
  const token = flowToken(body['lead_id']);
  return token === undefined ? body : { ...body, flow_token: token };
}

/** Posts a lead; a success needs a `lead_id` (docs/behaviour/car-page.md §4: "If the response returns a lead_id"). */
export async function postLead(apiBase: string, body: Record<string, unknown>, fetchImpl?: typeof fetch): Promise<LeadResult> {
  const result = await api<{ lead_id?: unknown; flow_token?: unknown }>(apiBase, '/api/leads', { body: withFlowToken(body), fetchImpl });
  if (result.ok) {
    const id = result.data.lead_id;
    if (typeof id === 'string' || typeof id === 'number') {
      const token = result.data.flow_token;
      // The flow's next step shows this token: a later step's under its first lead's id.
      const first = typeof body['lead_id'] === 'string' ? body['lead_id'] : String(id);
      if (typeof token === 'string') flowTokens.set(first, token);
      return { ok: true, leadId: String(id) };
    }
    return { ok: false, status: result.status, error: 'An unexpected error occurred.', fields: {} };
  }
  return { ok: false, status: result.status, error: result.error, fields: result.fields, ...(result.captchaSiteKey ? { captchaSiteKey: result.captchaSiteKey } : {}) };
}

export type { ApiResult };
