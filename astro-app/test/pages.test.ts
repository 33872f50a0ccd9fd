import { describe, expect, it } from 'vitest';
import { hasPage, pagePathOf } from '../src/lib/pages';
import { companyPage } from '../src/lib/company-routes';
import siteJson from './fixtures/site/src/data/site.json';
import type { PageEntry, SiteData } from '../src/types/site';

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

describe('company pages of the page table', () => {
  const s = siteJson as unknown as SiteData;
  const entry = (path: string, kind: PageEntry['kind'], key: string): PageEntry => ({ path, kind, key, n: null });

  it('finds a built-in page by its kind and a Markdown page by its path', () => {
    const privacy = companyPage(s, entry('/privacy-policy/', 'company', 'privacy_policy'));
    expect(privacy.kind).toBe('privacy_policy');
    expect(privacy.page).toBe(s.company.privacy_policy);
    const own = s.company.markdown[0];
    expect(own, 'the fixture has a Markdown page').toBeDefined();
    expect(companyPage(s, entry(own!.path, 'content_page', 'markdown')).page).toBe(own);
  });

  it('fails on an entry whose page the dealer has off or that names another path', () => {
    const off = { ...s, company: { ...s.company, fleet: null } };
    expect(() => companyPage(off, entry('/fleet/', 'company', 'fleet'))).toThrow(/\/fleet\/ \(company fleet\) is no page/);
    expect(() => companyPage(s, entry('/terms/', 'company', 'privacy_policy'))).toThrow(/is no page/);
    expect(() => companyPage(s, entry('/pages/nope/', 'content_page', 'markdown'))).toThrow(/is no page/);
  });
});
