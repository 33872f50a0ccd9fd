/**
 * The keyword box with search-as-you-type suggestions (makes, models and
 * the body and fuel words of the stock, each with its count), as an ARIA
 * combobox with a list box: Down and Up move through the suggestions
 * (aria-activedescendant, so focus stays in the box), Enter chooses the
 * highlighted one or searches what is typed at once, Escape closes the
 * list (and clears the box when it is already closed), Tab leaves it.
 * Suggestions come from the parent (lib/search/suggest.ts); the search
 * itself waits 300 ms after the last key, as before.
 */
import { useId, useState, type KeyboardEvent } from 'react';
import { formatCount } from '../../lib/format';
import type { Suggestion } from '../../lib/search/suggest';

interface Props {
  value: string;
  placeholder: string;
  suggestions: Suggestion[];
  /** Typing (the parent debounces the search). */
  onType: (value: string) => void;
  /** A suggestion chosen or Enter pressed: search now. */
  onSubmit: (value: string) => void;
  /** The box got focus: get keyword search ready. */
  onFocus?: () => void;
}

const KIND: Record<Suggestion['kind'], string> = { make: 'make', model: 'model', word: '' };

export function KeywordBox({ value, placeholder, suggestions, onType, onSubmit, onFocus }: Props) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const id = useId();
  const listId = `${id}-list`;
  const optionId = (i: number) => `${id}-opt-${i}`;
  const shown = open && value.trim() !== '' && suggestions.length > 0;

  const choose = (s: Suggestion) => {
    setOpen(false);
    setActive(-1);
    onSubmit(s.query);
  };
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
        type="search"
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
        onFocus={onFocus}
        onBlur={() => {
          setOpen(false);
          setActive(-1);
        }}
      />
      <ul id={listId} role="listbox" aria-label="Suggestions" className="combobox__list" hidden={!shown}>
        {shown &&
          suggestions.map((s, i) => (
            <li
              key={s.query}
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
          ))}
      </ul>
    </div>
  );
}
