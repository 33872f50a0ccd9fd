/**
 * The filter panel's facet widgets (docs/behaviour/search.md §2, §9; content.md §2.7): checkbox
 * lists, make cards with logos and a per-make model picker, dropdown
 * selects with separators. Counts are disjunctive (from the engine); a
 * built page leaves out those outside its own results (Count).
 */
import { useState } from 'react';
import { facetEntries, modelsOfMake, splitPopular, withSeparators, type FacetEntry } from '../../lib/search/facet-lists';
import { valueLabel as label } from '../../lib/search/labels';

type Toggle = (attr: string, value: string) => void;

/**
 * "(12)"; for a value a built page lists without its count, the count's
 * room, empty, so the label does not move when the island fills it in.
 */
function Count({ count }: { count: number | null }) {
  return count === null ? <span className="facet__count facet__count--pending" /> : <span className="facet__count">({count})</span>;
}

export function CheckboxList({ attr, title, entries, onToggle, folded = false }: { attr: string; title: string; entries: FacetEntry[]; onToggle: Toggle; folded?: boolean }) {
  if (entries.length === 0) return null;
  return (
    <fieldset className={folded ? 'facet__folded-list' : 'facet'} data-attr={folded ? undefined : attr}>
      {/* Inside a folded list the summary shows the title; the legend still names the group for screen readers. */}
      <legend className={folded ? 'visually-hidden' : undefined}>{title}</legend>
      <ul className="facet__list">
        {entries.map((e) => (
          <li key={e.value}>
            <label className="facet__option">
              <input type="checkbox" checked={e.refined} onChange={() => onToggle(attr, e.value)} />
              <span>{label(attr, e.value)}</span> <Count count={e.count} />
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

interface MakeProps {
  makes: FacetEntry[];
  makeModel: Record<string, number> | undefined;
  refinedModels: string[];
  popular: number;
  logos: Set<string>;
  onToggle: Toggle;
  /** The dealer's model picker switch (search.model_picker). */
  picker?: boolean;
}

export const makeSlug = (make: string) =>
  make
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Make cards: logo, name, count; the first `popular` shown, the rest behind "Show all makes". */
export function MakeCards({ makes, makeModel, refinedModels, popular, logos, onToggle, picker = true }: MakeProps) {
  const [all, setAll] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  if (makes.length === 0) return null;
  const { shown, extra } = splitPopular(makes, popular);
  const list = all ? makes : shown;
  return (
    <fieldset className="facet facet--makes" data-attr="make">
      <legend>Make</legend>
      <ul className="make-cards">
        {list.map((m) => {
          const slug = makeSlug(m.value);
          const models = open === m.value ? modelsOfMake(makeModel, m.value) : [];
          return (
            <li key={m.value} className={`make-card${m.refined ? ' make-card--on' : ''}`}>
              <label className="make-card__label">
                <input type="checkbox" checked={m.refined} onChange={() => onToggle('make', m.value)} />
                {logos.has(slug) && <img src={`/images/makes/${slug}.svg`} alt="" width={32} height={32} loading="lazy" />}
                <span>{m.value}</span> <Count count={m.count} />
              </label>
              {picker && (
                <button type="button" className="link-button" aria-expanded={open === m.value} onClick={() => setOpen(open === m.value ? null : m.value)}>
                  {/* One name open or closed ("Models of Ford"): aria-expanded says which, never a second name ("Hide of Ford"). */}
                  Models
                  <span className="visually-hidden">{` of ${m.value}`}</span>
                </button>
              )}
              {models.length > 0 && (
                <ul className="facet__list make-card__models">
                  {models.map((model) => (
                    <li key={model.value}>
                      <label className="facet__option">
                        <input type="checkbox" checked={refinedModels.includes(model.value)} onChange={() => onToggle('model', model.value)} />
                        <span>{model.value}</span> <span className="facet__count">({model.count})</span>
                      </label>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
      {extra.length > 0 && (
        <button type="button" className="link-button" aria-expanded={all} onClick={() => setAll(!all)}>
          {all ? 'Hide extra makes' : 'Show all makes'}
        </button>
      )}
    </fieldset>
  );
}

/**
 * A checkbox list folded under its title (the facets a shopper reaches for
 * less: badge, drive, seats, features...); open while one of its values is
 * ticked. A native <details>, so it opens with Enter or Space.
 */
export function FoldedList({ attr, title, entries, onToggle }: { attr: string; title: string; entries: FacetEntry[]; onToggle: Toggle }) {
  const refined = entries.filter((e) => e.refined).length;
  return (
    <details className="facet facet--folded" data-attr={attr} open={refined > 0 || undefined}>
      <summary>
        {title}
        {refined > 0 && <span className="facet__count"> ({refined} selected)</span>}
      </summary>
      <CheckboxList attr={attr} title={title} entries={entries} onToggle={onToggle} folded />
    </details>
  );
}

/** A single-choice dropdown; a separator after every 20 options. */
export function Dropdown({ attr, title, entries, onSelect }: { attr: string; title: string; entries: FacetEntry[]; onSelect: (attr: string, value: string) => void }) {
  if (entries.length === 0) return null;
  const selected = entries.find((e) => e.refined)?.value ?? '';
  const id = `select-${attr}`;
  return (
    <div className="facet facet--select" data-attr={attr}>
      <label htmlFor={id}>{title}</label>
      <select id={id} value={selected} onChange={(e) => onSelect(attr, e.currentTarget.value)}>
        <option value="">Any</option>
        {withSeparators(entries).map((item, i) =>
          item.kind === 'separator' ? (
            <option key={`sep-${i}`} disabled>
              ──────────
            </option>
          ) : (
            <option key={item.option.value} value={item.option.value}>
              {`${label(attr, item.option.value)}${item.option.count === null ? '' : ` (${item.option.count})`}`}
            </option>
          ),
        )}
      </select>
    </div>
  );
}

export { facetEntries };
