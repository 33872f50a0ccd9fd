/**
 * Model ordering (docs/behaviour/content.md §2.2, §2.8, §9): /models groups models by body
 * in the spec's order (Cars, Hatch & sedans, SUVs & 4WDs, Utes & Vans,
 * GR & performance, Electrified, Upcoming, Discontinued); the mega-menu
 * sorts by the dealer's preferred name keywords, then alphabetically, has an
 * "All Vehicles" category of at most 10, and scrolls above 6 cards.
 */
import type { ModelCard } from '../../types/site';

/** Cards an "All Vehicles" list shows at most. */
export const ALL_VEHICLES_LIMIT = 10;
/** A menu list with more cards than this scrolls. */
export const SCROLL_ABOVE = 6;

export interface ModelGroup {
  /** Group key, e.g. "suvs-4wds" (the anchor on /models/). */
  key: string;
  label: string;
  models: ModelCard[];
}

/** Rank of a name by the first preferred keyword it contains (case-insensitive); unmatched names rank last. */
function rank(name: string, preferred: readonly string[]): number {
  const n = name.toLowerCase();
  const i = preferred.findIndex((k) => k.trim() !== '' && n.includes(k.trim().toLowerCase()));
  return i === -1 ? preferred.length : i;
}

const byName = new Intl.Collator('en-AU', { sensitivity: 'base', numeric: true });

/** Preferred keywords first (in their order), then alphabetically by name. */
export function menuOrder(models: readonly ModelCard[], preferred: readonly string[]): ModelCard[] {
  return [...models].sort((a, b) => rank(a.name, preferred) - rank(b.name, preferred) || byName.compare(a.name, b.name));
}

/** Groups in the spec's order, each sorted as the menu sorts; empty groups left out. */
export function groupModels(models: readonly ModelCard[], preferred: readonly string[] = []): ModelGroup[] {
  const groups = new Map<number, ModelGroup>();
  for (const m of menuOrder(models, preferred)) {
    const g = groups.get(m.body_rank) ?? { key: m.body, label: m.body_label, models: [] };
    g.models.push(m);
    groups.set(m.body_rank, g);
  }
  return [...groups.entries()].sort((a, b) => a[0] - b[0]).map(([, g]) => g);
}

/** The mega-menu's categories: All Vehicles (at most 10, leaving out discontinued models) then each group. */
export function menuCategories(models: readonly ModelCard[], preferred: readonly string[]): ModelGroup[] {
  const current = menuOrder(models, preferred).filter((m) => m.body !== 'discontinued');
  const all: ModelGroup = { key: 'all', label: 'All Vehicles', models: current.slice(0, ALL_VEHICLES_LIMIT) };
  return [all, ...groupModels(models, preferred)];
}
