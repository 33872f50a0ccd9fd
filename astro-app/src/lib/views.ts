/** The car page's views counter (docs/behaviour/car-page.md §7): GET {api}/cars/{slug}/view.json counts a view and answers the total. */
import { api } from './api';
import { pluralise } from './format';

export function viewsPath(slug: string, query: { photosCount?: number; updatedAt?: string; websiteId?: string }): string {
  const q = new URLSearchParams();
  if (query.photosCount !== undefined) q.set('photos_count', String(query.photosCount));
  if (query.updatedAt) q.set('updated_at', query.updatedAt);
  if (query.websiteId) q.set('website_id', query.websiteId);
  const qs = q.toString();
  return `/api/cars/${encodeURIComponent(slug)}/view.json${qs ? `?${qs}` : ''}`;
}

/** The count, or null when the answer is not ok (the counter then stays hidden). */
export async function fetchViews(apiBase: string, path: string, fetchImpl?: typeof fetch): Promise<number | null> {
  const result = await api<{ views?: unknown }>(apiBase, path, { fetchImpl });
  return result.ok && typeof result.data.views === 'number' ? result.data.views : null;
}

export function viewsText(views: number): string {
  return pluralise(views, 'view');
}

/** Fills each `[data-views-slug]` line (components/car/ViewsCounter.astro) with its count, shown once known. */
export async function showViews(doc: Document, fetchImpl?: typeof fetch): Promise<void> {
  await Promise.all(
    [...doc.querySelectorAll<HTMLElement>('[data-views-slug]')].map(async (el) => {
      const { viewsSlug = '', viewsPhotos, viewsWebsite, apiBase = '' } = el.dataset;
      const photosCount = viewsPhotos === undefined || viewsPhotos === '' ? undefined : Number(viewsPhotos);
      const views = await fetchViews(apiBase, viewsPath(viewsSlug, { photosCount, websiteId: viewsWebsite }), fetchImpl);
      if (views === null) return;
      el.textContent = viewsText(views);
      el.hidden = false;
    }),
  );
}
