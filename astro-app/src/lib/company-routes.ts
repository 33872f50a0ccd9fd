/**
 * The routes of the company, service, legal and Markdown pages a site has
 * (site.company; null pages are off), for the generated project's
 * getStaticPaths. Each path is one of site.pages.
 */
import type { ContentPage, SiteData } from '../types/site';

/** What a company page is: it decides the built-in wording and the blocks shown. */
export type CompanyPageKind =
  | 'about_us'
  | 'service'
  | 'genuine_service'
  | 'roadside_assist'
  | 'fleet'
  | 'warranty'
  | 'terms_and_conditions'
  | 'privacy_policy'
  | 'complaint_handling'
  | 'markdown';

export interface CompanyRoute {
  page: ContentPage;
  kind: CompanyPageKind;
}

const BUILT_IN: Exclude<CompanyPageKind, 'markdown'>[] = [
  'about_us',
  'service',
  'genuine_service',
  'roadside_assist',
  'fleet',
  'warranty',
  'terms_and_conditions',
  'privacy_policy',
  'complaint_handling',
];

export function companyRoutes(site: Pick<SiteData, 'company'>): CompanyRoute[] {
  const routes: CompanyRoute[] = [];
  for (const kind of BUILT_IN) {
    const page = site.company[kind];
    if (page) routes.push({ page, kind });
  }
  for (const page of site.company.markdown) routes.push({ page, kind: 'markdown' });
  return routes;
}
