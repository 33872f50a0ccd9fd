import { describe, expect, it } from 'vitest';
import { hasPage, pagePathOf } from '../src/lib/pages';
import { companyRoutes } from '../src/lib/company-routes';
import siteJson from './fixtures/site/src/data/site.json';
import type { SiteData } from '../src/types/site';

describe('which pages a site has', () => {
  const site = { pages: ['/', '/fleet/', '/search/used-cars/'] };

  it('reads an href as the page path it points at', () => {
    expect(pagePathOf('/fleet')).toBe('/fleet/');
    expect(pagePathOf('/search/used-cars?x=1#top')).toBe('/search/used-cars/');
    expect(pagePathOf('/brochure.pdf')).toBeNull();
    expect(pagePathOf('https://other.example/fleet')).toBeNull();
    expect(pagePathOf('//other.example/fleet')).toBeNull();
  });

  it('links to a site page only when the site has it', () => {
    expect(hasPage(site, '/fleet')).toBe(true);
    expect(hasPage(site, '/fleet/#form')).toBe(true);
    expect(hasPage(site, '/special-offers/')).toBe(false);
    // Other sites and files are not pages of this site: the build's link check judges files.
    expect(hasPage(site, 'https://book.example.com.au/')).toBe(true);
    expect(hasPage(site, '/images/brochure.pdf')).toBe(true);
  });
});

describe('company routes', () => {
  it('lists the pages a dealer has on, each with its kind, and only those', () => {
    const s = siteJson as unknown as SiteData;
    const routes = companyRoutes(s);
    const paths = routes.map((r) => r.page.path);
    expect(paths).toContain('/terms-and-conditions/');
    expect(paths).toContain('/privacy-policy/');
    for (const r of routes) expect(s.pages).toContain(r.page.path);
    const off = { ...s, company: { ...s.company, fleet: null, markdown: [] } };
    expect(companyRoutes(off).some((r) => r.kind === 'fleet')).toBe(false);
  });
});
