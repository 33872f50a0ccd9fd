/**
 * "Show me N cars" (docs/behaviour/search.md §2, §4): pick a condition and a make, see how
 * many cars match, and go to the results with those filters; the results
 * page scrolls to the top on arrival. Counts come from the same search
 * client as the search page, loaded on the first change.
 */
import { useRef, useState } from 'react';
import { createClient } from '../../lib/search/client';
import type { SearchClient, SearchState } from '../../lib/search/types';
import { EMPTY_STATE } from '../../lib/search/types';
import { SCROLL_FLAG, serialiseSearchState } from '../../lib/search/url';
import { carTypeLabel, formatCount } from '../../lib/format';
import type { CarType, Search } from '../../types/site';

interface Props {
  search: Omit<Search, 'landing_pages'>;
  total: number;
  carTypes: CarType[];
  makes: string[];
}

export default function ShowMeWidget({ search, total, carTypes, makes }: Props) {
  const [carType, setCarType] = useState('');
  const [make, setMake] = useState('');
  const [count, setCount] = useState(total);
  const client = useRef<Promise<SearchClient> | undefined>(undefined);

  const stateOf = (t: string, m: string): SearchState => {
    const refinementList: Record<string, string[]> = {};
    if (t) refinementList.car_type = [t];
    if (m) refinementList.make = [m];
    return { ...EMPTY_STATE, refinementList, range: {} };
  };
  const update = (t: string, m: string) => {
    setCarType(t);
    setMake(m);
    client.current ??= createClient(search as Search);
    client.current
      .then((c) => c.search(stateOf(t, m)))
      .then((r) => setCount(r.nbHits))
      .catch((error: unknown) => console.warn('count failed', error));
  };
  const href = `/search/${serialiseSearchState(stateOf(carType, make))}`;
  return (
    <form
      className="show-me"
      action="/search/"
      onSubmit={(e) => {
        e.preventDefault();
        sessionStorage.setItem(SCROLL_FLAG, '1');
        location.assign(href);
      }}
    >
      <div className="facet">
        <label htmlFor="show-me-type">Condition</label>
        <select id="show-me-type" name="refinementList[car_type][0]" value={carType} onChange={(e) => update(e.currentTarget.value, make)}>
          <option value="">All</option>
          {carTypes.map((t) => (
            <option key={t} value={t}>
              {carTypeLabel(t)}
            </option>
          ))}
        </select>
      </div>
      <div className="facet">
        <label htmlFor="show-me-make">Make</label>
        <select id="show-me-make" name="refinementList[make][0]" value={make} onChange={(e) => update(carType, e.currentTarget.value)}>
          <option value="">All makes</option>
          {makes.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="button button--accent">
        Show me {formatCount(count)} {count === 1 ? 'car' : 'cars'}
      </button>
    </form>
  );
}
