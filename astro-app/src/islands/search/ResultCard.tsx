/**
 * A result card (docs/behaviour/search.md §2, §4; content.md §2.7), the same markup the static
 * page renders: one tag banner (computed by the generator), the photo or the
 * new-arrival / coming-soon placeholder, the location overlay, year make
 * model, badge and series, price and price type; condition, transmission,
 * odometer and fuel for cars in stock; the dealer's buttons; save,
 * favourite and compare toggles where the rules allow them.
 *
 * Keyboard: the photo is not a second stop (the title is the card's link);
 * the dealer's buttons form one toolbar (one Tab stop, arrow keys inside
 * it: roving.ts); the toggles (Favourite, Compare, Save) are Tab stops of
 * their own: a shopper who tabs along the cards finds them without
 * knowing the arrow keys (issue 39: they were reachable only with the
 * arrows, at the end of the toolbar). A card costs two stops and one per toggle.
 */
import { useRef } from 'react';
import { cardActions, cardNotes, inStock, reservable, showToggle, type CardSettings } from '../../lib/search/cards';
import { certifiedImage } from '../../lib/search/present';
import type { Hit } from '../../lib/search/types';
import { badgeLine, carTypeLabel, formatKm, suburbState } from '../../lib/format';
import { NO_PHOTO, photoProps, SIZES } from '../../lib/images';
import type { HitRules, ImagesConfig } from '../../types/site';
import SaveCarButton from '../SaveCarButton';
import { useRovingFocus } from './roving';

/** What the card's toolbar moves between: the dealer's buttons, not the toggles. */
const TOOLBAR_ITEMS = '.car-card__cta';

export interface Toggles {
  favourites: boolean;
  compare: boolean;
  watchlist: boolean;
  strict: boolean;
  /** For the Save button's calls: `site.api_base` and `site.features.analytics`. */
  apiBase: string;
  analytics: boolean;
  favourite: Set<string>;
  compared: Set<string>;
  onToggle: (list: 'favourite' | 'compared', hit: Hit) => void;
}

interface Props {
  hit: Hit;
  eager: boolean;
  settings: CardSettings;
  toggles: Toggles;
  /** `site.images`: photo sizes from the image host (srcset); the photo as it is without it. */
  images?: ImagesConfig | undefined;
  /** The dealer's card rules (`site.search.hit_rules`): a tag that is the certified badge shows its image where the dealer has one. */
  rules?: Pick<HitRules, 'certified_badge_make' | 'certified_badge_image'> | undefined;
}

/** A card's tag: the certified programme's badge image where the dealer has one, else the words. */
function TagBanner({ tag, image }: { tag: string; image: string | null }) {
  return image ? <img className="tag-banner tag-banner--image" src={image} alt={tag} height={28} /> : <span className="tag-banner">{tag}</span>;
}

export function ResultCard({ hit, eager, settings, rules, toggles, images }: Props) {
  const href = `/cars/${hit.slug}/`;
  const stocked = inStock(hit);
  const badge = badgeLine(hit);
  const name = hit.name || `${hit.year} ${hit.make} ${hit.model}`;
  const placeholder = hit.status === 'coming_soon' ? 'Coming soon' : 'New arrival – photos coming soon';
  const toggle = showToggle(hit, true, toggles.strict);
  // SaveCarButton itself hides the button of a sold car that is not saved
  // (docs/behaviour/search.md §4) once it knows the shopper's list.
  const canSave = toggles.watchlist;
  const toolbar = useRef<HTMLDivElement>(null);
  useRovingFocus(toolbar, TOOLBAR_ITEMS);
  return (
    <article className={`car-card${hit.status === 'sold' ? ' car-card--sold' : ''}`}>
      <div className="car-card__media">
        <a href={href} tabIndex={-1} aria-hidden="true">
          {hit.image ? (
            <img
              {...(images ? photoProps(hit.image, images, SIZES.card) : { src: hit.image })}
              alt=""
              width={640}
              height={480}
              loading={eager ? 'eager' : 'lazy'}
              decoding="async"
              fetchPriority={eager ? 'high' : undefined}
              className="car-image"
              data-photo=""
              // A photo the host cannot serve shows the not-found placeholder (docs/behaviour/content.md §4).
              onError={(e) => {
                const img = e.currentTarget;
                if (img.getAttribute('src') === NO_PHOTO) return;
                img.removeAttribute('srcset');
                img.src = NO_PHOTO;
              }}
            />
          ) : (
            <div className="car-image car-image--placeholder">
              <span>{placeholder}</span>
            </div>
          )}
        </a>
        {hit.tag_banner && <TagBanner tag={hit.tag_banner} image={certifiedImage(hit.tag_banner, rules)} />}
        {/* Reserved online since the build: the page's status watcher (lib/forms/reserved.ts) shows it. */}
        {reservable(hit, settings) && (
          <span className="tag-banner reserved-badge" data-reserved-slug={hit.slug} data-api-base={toggles.apiBase} hidden>
            Reserved
          </span>
        )}
        <span className="car-card__location">
          <span className="visually-hidden">Located at {hit.location_name}, </span>
          {suburbState(hit.city, hit.state)}
        </span>
      </div>
      <div className="car-card__body">
        <h2 className="car-card__title">
          <a href={href}>
            {hit.year} {hit.make} {hit.model}
          </a>
        </h2>
        {badge && <p className="car-card__badge">{badge}</p>}
        <div className="price price--card">
          {hit.was_price_text && (
            <s className="price__was">
              <span className="visually-hidden">Was </span>
              {hit.was_price_text}
            </s>
          )}
          <span className="price__amount">
            {hit.was_price_text && <span className="visually-hidden">Now </span>}
            {hit.price_text}
          </span>
          {hit.price_type && <span className="price__type">{hit.price_type}</span>}
        </div>
        {stocked && (
          <ul className="car-card__facts" aria-label="Key facts">
            <li>{carTypeLabel(hit.car_type)}</li>
            {hit.transmission && <li>{hit.transmission}</li>}
            <li>{formatKm(hit.km)}</li>
            {hit.fuel && <li>{hit.fuel}</li>}
          </ul>
        )}
        {cardNotes(hit, settings).map((note) => (
          <p key={note} className="car-card__note">
            {note}
          </p>
        ))}
        <div className="car-card__controls">
          <div className="car-card__actions" role="toolbar" aria-label={`${name}: actions`} ref={toolbar}>
            {cardActions(hit, settings).map((a) => (
              <a key={a.kind} href={a.href} className={`button ${a.kind === 'view_details' || a.kind === 'similar' ? '' : 'button--outline '}car-card__cta`}>
                {a.label}
                <span className="visually-hidden"> – {name}</span>
              </a>
            ))}
          </div>
          {(toggle || canSave) && (
            <div className="car-card__toggles">
              {toggle && toggles.favourites && (
                <button type="button" className="toggle" aria-pressed={toggles.favourite.has(hit.objectID)} onClick={() => toggles.onToggle('favourite', hit)}>
                  Favourite<span className="visually-hidden"> {name}</span>
                </button>
              )}
              {toggle && toggles.compare && (
                <button type="button" className="toggle" aria-pressed={toggles.compared.has(hit.objectID)} onClick={() => toggles.onToggle('compared', hit)}>
                  Compare<span className="visually-hidden"> {name}</span>
                </button>
              )}
              {canSave && (
                // Signed out, it goes to sign-in and back to this search (docs/behaviour/search.md §2, §4).
                <SaveCarButton
                  apiBase={toggles.apiBase}
                  carId={hit.objectID}
                  carName={name}
                  sold={!stocked}
                  analytics={toggles.analytics}
                  className="toggle"
                />
              )}
            </div>
          )}
        </div>
      </div>
    </article>
  );
}
