/**
 * /favourites/: the cars the shopper marked Favourite on this device, each
 * with its current price and availability (/cars/{slug}.json; a car gone
 * since says so), a Remove button, and, where the dealer offers compare, a
 * link comparing the first four.
 */
import { useEffect, useRef, useState } from 'react';
import type { CarSummary } from '../../lib/search/car-summary';
import { compareHref, COMPARE_LIMIT, loadFavourites, onSavedChange, removeFavourite, type Favourite } from '../../lib/search/saved';

interface Props {
  /** The dealer offers compare (features.compare): link the favourites to /compare/. */
  compare: boolean;
}

type Info = CarSummary | 'missing';

export default function FavouritesList({ compare }: Props) {
  const [list, setList] = useState<Favourite[] | undefined>(undefined);
  const [info, setInfo] = useState<Record<string, Info>>({});
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    const sync = () => setList(loadFavourites(localStorage));
    sync();
    return onSavedChange(sync);
  }, []);
  useEffect(() => {
    for (const f of list ?? []) {
      if (info[f.slug]) continue;
      fetch(`/cars/${encodeURIComponent(f.slug)}.json`)
        .then((r) => (r.ok ? (r.json() as Promise<CarSummary>) : Promise.reject(new Error(String(r.status)))))
        .then((car) => setInfo((m) => ({ ...m, [f.slug]: car })))
        .catch(() => setInfo((m) => ({ ...m, [f.slug]: 'missing' })));
    }
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `info` is what this fills in: only a new list starts fetching
  }, [list]);

  if (list === undefined) return <p>Loading your favourites…</p>;
  const remove = (f: Favourite) => {
    setList(removeFavourite(localStorage, f.id));
    heading.current?.focus();
  };
  return (
    <div className="favourites">
      <h2 ref={heading} tabIndex={-1}>
        {list.length === 0 ? 'No favourites yet' : `${list.length} ${list.length === 1 ? 'favourite' : 'favourites'}`}
      </h2>
      {list.length === 0 ? (
        <p>
          Tap <strong>Favourite</strong> on a car you like, in <a href="/search/">our stock</a> or on its page, and it waits for you here.
        </p>
      ) : (
        <>
          {compare && list.length >= 2 && (
            <p className="saved-actions">
              <a className="button" href={compareHref(list.slice(0, COMPARE_LIMIT))}>
                Compare {Math.min(list.length, COMPARE_LIMIT) === list.length ? 'these' : `the first ${COMPARE_LIMIT}`} side by side
              </a>
            </p>
          )}
          <ul className="saved-list card-grid card-grid--cars">
            {list.map((f) => {
              const car = info[f.slug];
              return (
                <li key={f.id}>
                  <article className="car-card">
                    <div className="car-card__media">
                      {f.primary_image_url ? (
                        <img src={f.primary_image_url} alt="" width={640} height={480} loading="lazy" className="car-image" />
                      ) : (
                        <div className="car-image car-image--placeholder">
                          <span>Photos coming soon</span>
                        </div>
                      )}
                    </div>
                    <div className="car-card__body">
                      <h3 className="car-card__title">{car === 'missing' ? f.name : <a href={`/cars/${f.slug}/`}>{f.name}</a>}</h3>
                      <p className="car-card__badge">
                        {car === 'missing'
                          ? 'No longer listed'
                          : car
                            ? `${car.price_text}${car.in_stock ? '' : ` · ${car.tag_banner || 'Sold'}`}`
                            : 'Checking the price…'}
                      </p>
                      <button type="button" className="toggle" onClick={() => remove(f)}>
                        Remove<span className="visually-hidden"> {f.name} from favourites</span>
                      </button>
                    </div>
                  </article>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </div>
  );
}
