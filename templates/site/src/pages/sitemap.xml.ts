// /sitemap.xml: the home, search (pages and landing pages), car, contact,
// offer and model pages, from the generated data; search landing pages are
// entries of their own.
import siteJson from '../data/site.json';
import carsJson from '../data/cars.json';
import { pageCount } from '@app/lib/pagination';

export function GET() {
  const base = siteJson.base_url.replace(/\/$/, '');
  const paths = ['/', '/search/', '/contact-us/'];
  const pages = pageCount(carsJson.length, siteJson.search.page_size);
  for (let n = 2; n <= pages; n++) paths.push(`/search/page/${n}/`);
  for (const l of siteJson.search.landing_pages) paths.push(`/search/${l.path}/`);
  for (const c of carsJson) paths.push(`/cars/${c.slug}/`);
  for (const l of siteJson.locations) paths.push(`/contact-us/${l.slug}/`);
  // Content pages: offers, models (locations/ pages name /contact-us/ as canonical: not listed).
  paths.push('/special-offers/');
  for (const o of siteJson.content.offers.items) paths.push(o.path);
  if (siteJson.content.models.length > 0) paths.push('/models/');
  for (const m of siteJson.content.models) if (m.page) paths.push(m.page);
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const body = [...new Set(paths)].map((p) => `  <url><loc>${esc(base + p)}</loc></url>`).join('\n');
  return new Response(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`, {
    headers: { 'Content-Type': 'application/xml' },
  });
}
