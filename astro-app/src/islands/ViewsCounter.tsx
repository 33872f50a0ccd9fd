/**
 * "N views" on the car page (docs/behaviour/car-page.md §2, §7). Loading the island counts
 * the view (GET …/view.json); nothing shows when the call fails.
 * client:idle: it must count every visit, not only when scrolled to.
 */
import { useEffect, useState } from 'react';
import { fetchViews, viewsPath, viewsText } from '../lib/views';

export interface ViewsCounterProps {
  apiBase: string;
  slug: string;
  photosCount: number;
  /** The dealer's slug: the spec's website_id. */
  websiteId: string;
  fetchImpl?: typeof fetch;
}

export default function ViewsCounter({ apiBase, slug, photosCount, websiteId, fetchImpl }: ViewsCounterProps) {
  const [views, setViews] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    fetchViews(apiBase, viewsPath(slug, { photosCount, websiteId }), fetchImpl).then((n) => live && setViews(n));
    return () => {
      live = false;
    };
  }, [apiBase, slug, photosCount, websiteId, fetchImpl]);
  return views === null ? null : <p className="car-views">{viewsText(views)}</p>;
}
