/**
 * The keyword box with search-as-you-type suggestions (makes, models and
 * the body and fuel words of the stock, each with its count), as an ARIA
 * combobox with a list box: Down and Up move through the suggestions
 * (aria-activedescendant, so focus stays in the box), Enter chooses the
 * highlighted one or searches what is typed at once, Escape closes the
 * list (and clears the box when it is already closed), Tab leaves it.
 * Suggestions come from the parent (lib/search/suggest.ts); the search
 * itself waits 300 ms after the last key, as before. The site's search
 * pages that fit (`pages`) follow in a group of their own, "Search pages",
 * in the same arrow-key order; choosing one goes to that page. Then the
 * dealer's popular searches (`popular`, lib/search/popular.ts) in a group
 * "Popular searches": shown as soon as the box gets focus while it is
 * empty, and among the suggestions when they fit what is typed.
 */
import { useId, useState, type KeyboardEvent } from 'react';
import { formatCount } from '../../lib/format';
import type { Suggestion } from '../../lib/search/suggest';

interface Props {
  value: string;
  placeholder: string;
  suggestions: Suggestion[];
  /** Search pages that fit what is typed (kind 'page', with a path). */
  pages?: Suggestion[];
  /** Popular searches to offer now (already narrowed to what is typed). */
  popular?: Suggestion[];
  /** A search page chosen: go to it. */
  onPage?: (path: string) => void;
  /** Typing (the parent debounces the search). */
  onType: (value: string) => void;
  /** A suggestion chosen or Enter pressed: search now. */
  onSubmit: (value: string) => void;
  /** The box got focus: get keyword search ready. */
  onFocus?: () => void;
}

const KIND: Record<Suggestion['kind'], string> = { make: 'make', model: 'model', word: '', page: 'page', popular: '' };

export function KeywordBox({ value, placeholder, suggestions: words, pages = [], popular = [], onType, onSubmit, onFocus, onPage }: Props) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const id = useId();
  const listId = `${id}-list`;
  const optionId = (i: number) => `${id}-opt-${i}`;
  // One arrow-key order: the keyword suggestions, the search pages, the popular searches.
  const suggestions = [...words, ...pages, ...popular];
  // An empty box offers only popular searches (the other lists need a typed word).
  const shown = open && suggestions.length > 0;

  const choose = (s: Suggestion) => {
    setOpen(false);
    setActive(-1);
    if (s.path !== undefined && onPage) onPage(s.path);
    else onSubmit(s.query);
  };
  const option = (s: Suggestion, i: number) => (
    <li
      key={`${s.kind}:${s.query}`}
      id={optionId(i)}
      role="option"
      aria-selected={i === active}
      className={`combobox__option${i === active ? ' combobox__option--active' : ''}`}
      // Keeps focus in the box (a blur would close the list before the click lands).
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => choose(s)}
    >
      <span>{s.query}</span>
      {KIND[s.kind] && <span className="visually-hidden">, {KIND[s.kind]}</span>}
      <span className="facet__count">
        {' '}
        ({formatCount(s.count)}
        <span className="visually-hidden"> cars</span>)
      </span>
    </li>
  );
  const group = (label: string, items: Suggestion[], from: number) =>
    items.length > 0 && (
      <li role="none" className="combobox__group">
        {/* The group's name is its aria-label; the heading only shows it. */}
        <span className="combobox__group-label" aria-hidden="true">
          {label}
        </span>
        <ul role="group" aria-label={label}>
          {items.map((s, i) => option(s, from + i))}
        </ul>
      </li>
    );
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const n = suggestions.length;
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (!n) return;
        e.preventDefault();
        const down = e.key === 'ArrowDown';
        if (!shown) {
          setOpen(true);
          setActive(down ? 0 : n - 1);
        } else setActive(active < 0 ? (down ? 0 : n - 1) : (active + (down ? 1 : n - 1)) % n);
        break;
      }
      case 'Enter':
        e.preventDefault();
        if (shown && active >= 0 && suggestions[active]) choose(suggestions[active]!);
        else {
          setOpen(false);
          onSubmit(value);
        }
        break;
      case 'Escape':
        if (shown) {
          e.preventDefault();
          setOpen(false);
          setActive(-1);
        } else if (value) {
          e.preventDefault();
          onSubmit('');
        }
        break;
      case 'Tab':
        setOpen(false);
        break;
    }
  };

  return (
    <div className="combobox">
      <input
        id="search-keyword"
        // A text input: ARIA in HTML allows the combobox role on it (not on
        // type=search).
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={shown && active >= 0 ? optionId(active) : undefined}
        autoComplete="off"
        value={value}
        placeholder={placeholder}
        onChange={(e) => {
          onType(e.currentTarget.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => {
          // Popular searches show on focus while the box is empty.
          if (!value.trim()) setOpen(true);
          onFocus?.();
        }}
        onBlur={() => {
          setOpen(false);
          setActive(-1);
        }}
      />
      <ul id={listId} role="listbox" aria-label="Suggestions" className="combobox__list" hidden={!shown}>
        {shown && words.map(option)}
        {shown && group('Search pages', pages, words.length)}
        {shown && group('Popular searches', popular, words.length + pages.length)}
      </ul>
    </div>
  );
}
