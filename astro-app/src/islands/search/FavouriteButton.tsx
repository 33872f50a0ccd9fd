/**
 * The car page's Favourite toggle (docs/behaviour/car-page.md: kept on the shopper's device,
 * with the car's name, slug, make, model and photo, so /favourites/ can
 * list it without a fetch). Named "Favourite" in both states (aria-pressed
 * says which). Starts unpressed in the server HTML and reads
 * the device's list once hydrated; follows changes made elsewhere. Adding
 * logs an analytics event (docs/behaviour/car-page.md §6: event 60, docs/behaviour/analytics.md).
 */
import { useEffect, useState } from 'react';
import { loadFavourites, onSavedChange, toggleFavourite, type Favourite } from '../../lib/search/saved';

interface Props {
  car: Favourite;
  /** Link to the list (shown once the car is a favourite). */
  listHref?: string;
}

export default function FavouriteButton({ car, listHref = '/favourites/' }: Props) {
  const [on, setOn] = useState(false);
  useEffect(() => {
    const sync = () => setOn(loadFavourites(localStorage).some((f) => f.id === car.id));
    sync();
    return onSavedChange(sync);
  }, [car.id]);
  return (
    <div className="favourite">
      <button
        type="button"
        className="toggle"
        aria-pressed={on}
        onClick={() => {
          const added = toggleFavourite(localStorage, car).some((f) => f.id === car.id);
          // Event 60 (lib/events.ts favourite_add), loaded when first needed: not up front on every car page.
          if (added) void import('../../lib/events').then((m) => m.sendPageEvent(document, m.EVENTS.favourite_add));
          setOn(added);
        }}
      >
        {/* One name whatever its state: a toggle says pressed or not by aria-pressed, never by a second name (WAI-ARIA's button pattern). */}
        Favourite
        <span className="visually-hidden">{` ${car.name}`}</span>
      </button>
      {on && (
        <a className="favourite__list" href={listHref}>
          View favourites
        </a>
      )}
    </div>
  );
}
