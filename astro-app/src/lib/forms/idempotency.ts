/**
 * Idempotency keys of a form (the worker's `idempotency_key`): a resend of
 * the same details reuses the key, so a retry after a lost answer is not a
 * second lead; any change to the details takes a new key (with the old key
 * the worker would refuse the changed lead with 422).
 */

export function newKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

/** Fields that change on every attempt without changing the lead. */
const VOLATILE = new Set(['idempotency_key', 'cf-turnstile-response']);

/** A stable text of the payload: keys sorted at every level, volatile fields left out. */
export function fingerprint(payload: Record<string, unknown>): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v as object)
              .sort()
              .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
          )
        : v;
  const rest = Object.fromEntries(Object.entries(payload).filter(([k]) => !VOLATILE.has(k)));
  return JSON.stringify(sort(rest));
}

/** One per form instance. */
export class IdempotencyKeys {
  private last: { print: string; key: string } | null = null;
  constructor(private readonly make: () => string = newKey) {}

  /** The key for this payload: the previous one when nothing changed, a new one otherwise. */
  keyFor(payload: Record<string, unknown>): string {
    const print = fingerprint(payload);
    if (this.last?.print !== print) this.last = { print, key: this.make() };
    return this.last.key;
  }
}
