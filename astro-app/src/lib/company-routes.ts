/**
 * The company, service, legal and Markdown pages of the page table
 * (kinds `company` and `content_page`): the entry's key is the page's kind,
 * which decides the built-in wording and the blocks shown; the page itself
 * is in site.company.
 */
import type { ContentPage, PageEntry, SiteData } from '../types/site';

/** What a company page is: its key in the page table (a field of site.company, or markdown). */
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

/** The page and kind of a company or content page of the table, or an error naming the entry. */
export function companyPage(site: Pick<SiteData, 'company'>, entry: PageEntry): CompanyRoute {
  const kind = entry.key as CompanyPageKind;
  const page = kind === 'markdown' ? site.company.markdown.find((p) => p.path === entry.path) : kind in site.company ? site.company[kind] : null;
  if (!page || page.path !== entry.path) throw new Error(`the page table's ${entry.path} (${entry.kind} ${entry.key}) is no page of site.company`);
  return { page, kind };
}
