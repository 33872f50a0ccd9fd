/**
 * /compare/: up to four cars side by side (prices, the card facts and
 * every specification row, differing rows marked). The cars come from the
 * address (/compare/?cars=slug1,slug2: shareable) or, without one, from the
 * shopper's compare list, whose address then replaces the plain one. Each
 * car's summary is /cars/{slug}.json; a car gone since says so.
 */
import { useEffect, useRef, useState } from 'react';
import { carTypeLabel, formatKm } from '../../lib/format';
import { compareRows, type CarSummary } from '../../lib/search/car-summary';
import { compareHref, COMPARE_LIMIT, loadCompared, setCompared, slugsOf } from '../../lib/search/saved';

type Column = { slug: string; car?: CarSummary; missing?: boolean };

export default function CompareView() {
  const [columns, setColumns] = useState<Column[] | undefined>(undefined);
  const [copied, setCopied] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    let slugs = slugsOf(location.search);
    if (!slugs.length) {
      slugs = loadCompared(localStorage).map((c) => c.slug);
      if (slugs.length) history.replaceState(null, '', compareHref(slugs.map((slug) => ({ id: '', slug }))));
    }
    setColumns(slugs.map((slug) => ({ slug })));
    for (const slug of slugs) {
      fetch(`/cars/${encodeURIComponent(slug)}.json`)
        .then((r) => (r.ok ? (r.json() as Promise<CarSummary>) : Promise.reject(new Error(String(r.status)))))
        .then((car) => setColumns((cols) => cols?.map((c) => (c.slug === slug ? { slug, car } : c))))
        .catch(() => setColumns((cols) => cols?.map((c) => (c.slug === slug ? { slug, missing: true } : c))));
    }
  }, []);

  const remove = (slug: string) => {
    const next = (columns ?? []).filter((c) => c.slug !== slug);
    setColumns(next);
    history.replaceState(null, '', next.length ? compareHref(next.map((c) => ({ id: '', slug: c.slug }))) : '/compare/');
    // The car leaves the shopper's own list too, when it is there.
    setCompared(
      localStorage,
      loadCompared(localStorage).filter((c) => c.slug !== slug),
    );
    // The removed column's button is gone: focus the heading, which the count follows.
    heading.current?.focus();
  };
  const copy = () => {
    navigator.clipboard
      ?.writeText(location.href)
      .then(() => setCopied('Link copied.'))
      .catch(() => setCopied('Copy the address in your browser to share this comparison.'));
  };

  if (columns === undefined) return <p>Loading the cars to compare…</p>;
  const cars = columns.filter((c) => c.car).map((c) => c.car!);
  const rows = compareRows(cars, carTypeLabel, formatKm);
  const loading = columns.some((c) => !c.car && !c.missing);
  return (
    <div className="compare">
      <h2 ref={heading} tabIndex={-1} className="compare__count">
        {columns.length === 0 ? 'No cars to compare yet' : `Comparing ${columns.length} ${columns.length === 1 ? 'car' : 'cars'}`}
      </h2>
      {columns.length === 0 ? (
        <p>
          Tick <strong>Compare</strong> on up to {COMPARE_LIMIT} cars in <a href="/search/">our stock</a>, then come back here.
        </p>
      ) : (
        <>
          <div className="saved-actions">
            <button type="button" className="button button--outline" onClick={copy}>
              Copy link to this comparison
            </button>
            <a className="button button--outline" href="/search/">
              Add more cars
            </a>
          </div>
          <p role="status" className="compare__status">
            {copied || (loading ? 'Loading…' : '')}
          </p>
          <div className="compare-table-wrap" tabIndex={0} role="region" aria-label="Comparison (scrolls sideways)">
            <table className="compare-table">
              <caption className="visually-hidden">The cars side by side; rows where they differ are marked “differs”.</caption>
              <thead>
                <tr>
                  <td />
                  {columns.map((c) => (
                    <th key={c.slug} scope="col">
                      {c.car ? (
                        <>
                          {c.car.image && <img src={c.car.image} alt="" width={240} height={180} loading="lazy" />}
                          <a href={`/cars/${c.car.slug}/`}>{c.car.name}</a>
                          {!c.car.in_stock && <span className="tag-banner tag-banner--inline"> {c.car.tag_banner || 'SOLD'}</span>}
                        </>
                      ) : c.missing ? (
                        <span>This car is no longer listed</span>
                      ) : (
                        <span>Loading…</span>
                      )}
                      <br />
                      <button type="button" className="link-button" onClick={() => remove(c.slug)}>
                        Remove<span className="visually-hidden"> {c.car?.name ?? 'this car'} from the comparison</span>
                      </button>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.label} className={r.differs ? 'differs' : undefined}>
                    <th scope="row">
                      {r.label}
                      {r.differs && <span className="visually-hidden"> (differs)</span>}
                    </th>
                    {columns.map((c) => {
                      const at = cars.findIndex((car) => car.slug === c.slug);
                      return <td key={c.slug}>{at >= 0 ? r.values[at] || '–' : ''}</td>;
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}
