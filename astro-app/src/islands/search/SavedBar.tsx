/**
 * Under the results while the shopper has picked cars: how many are in
 * the compare list (of 4) with a link to compare them (from two) and a
 * Clear button, and a link to the favourites. Each part only where the
 * dealer offers it. The refusal of a fifth car is shown here and said by
 * the search's live region (SearchApp).
 */
import { compareHref, COMPARE_LIMIT, type Compared } from '../../lib/search/saved';

interface Props {
  compare: boolean;
  favourites: boolean;
  compared: Compared[];
  favouriteCount: number;
  /** "Compare holds 4 cars…": shown and announced after a refused pick. */
  notice: string;
  onClear: () => void;
}

export function SavedBar({ compare, favourites, compared, favouriteCount, notice, onClear }: Props) {
  const showCompare = compare && compared.length > 0;
  const showFavourites = favourites && favouriteCount > 0;
  return (
    <>
      {(showCompare || showFavourites) && (
        <div className="compare-bar" data-testid="saved-bar">
          {showCompare && (
            <p>
              {compared.length} of {COMPARE_LIMIT} cars to compare.{' '}
              {compared.length >= 2 ? (
                <a className="button" href={compareHref(compared)}>
                  Compare now
                </a>
              ) : (
                <span>Pick one more to compare.</span>
              )}{' '}
              <button type="button" className="link-button" onClick={onClear}>
                Clear<span className="visually-hidden"> the compare list</span>
              </button>
            </p>
          )}
          {notice && <p>{notice}</p>}
          {showFavourites && (
            <p>
              <a href="/favourites/">
                Favourites ({favouriteCount})
              </a>
            </p>
          )}
        </div>
      )}
    </>
  );
}
