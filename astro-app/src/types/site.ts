/**
 * The data contract between the Rust generator and the Astro app.
 *
 * `dealergen build` writes `sites/<slug>/src/data/site.json` (a `SiteData`)
 * and `sites/<slug>/src/data/cars.json` (a `Car[]`, only the visible stock).
 * Everything a page shows is computed on the Rust side (visibility, tag
 * priority, price text, opening-hour lines); pages only lay it out.
 */

export interface Link {
  label: string;
  href: string;
  /** Opens another site (rel="noopener", target="_blank"). */
  external: boolean;
}

export interface NavItem extends Link {
  /** Dropdown entries; empty for a plain link. */
  children: Link[];
}

export interface Theme {
  /** CSS colours, e.g. "#0b3d91". */
  primary: string;
  on_primary: string;
  accent: string;
  background: string;
  text: string;
  /** Path of the logo inside the site, e.g. "/brand/logo.svg". */
  logo: string;
  font_family: string;
}

export interface HoursLine {
  /** "Mon-Fri", "Sat", "Sun". */
  days: string;
  /** "8:30am - 5:30pm", "Closed" or "By appointment only". */
  text: string;
}

export interface DepartmentHours {
  department: 'sales' | 'service' | 'parts';
  lines: HoursLine[];
}

export interface SpecialHours {
  /** ISO date "2026-12-25". */
  date: string;
  department: 'all' | 'sales' | 'service' | 'parts';
  /** "Closed" or "9:00am - 1:00pm". */
  text: string;
  /** e.g. "Christmas Day". */
  label: string;
}

export interface Location {
  id: string;
  /** URL slug: /contact-us/{slug}. */
  slug: string;
  name: string;
  kind: 'sales' | 'service' | 'parts' | 'car-buying';
  primary: boolean;
  phone: string;
  email: string | null;
  address: {
    street: string;
    suburb: string;
    state: string;
    postcode: string;
    /** One line: "12 Main St, Newstead QLD 4006". */
    one_line: string;
    /** Link to a map / directions, or null when none configured. */
    map_url: string | null;
  };
  hours: DepartmentHours[];
  special_hours: SpecialHours[];
  licence_number: string | null;
  timezone: string;
}

export interface SortOption {
  /** Replica / sort key as it appears in the URL `sortBy`. */
  value: string;
  label: string;
}

export interface SiteData {
  slug: string;
  name: string;
  template: string;
  /** Set for single-manufacturer dealers, e.g. "Toyota". */
  manufacturer: string | null;
  /** Public origin of the site, e.g. "https://www.example.com.au" (no trailing slash). */
  base_url: string;
  /** Origin of the edge worker ("" = same origin). */
  api_base: string;
  theme: Theme;
  contact: { phone: string; email: string };
  social: { label: string; href: string }[];
  navigation: NavItem[];
  footer: {
    groups: { title: string; links: Link[] }[];
    /** Legal / disclaimer paragraph shown at the bottom of every page. */
    legal_text: string;
    /** "© 2026 Example Motor Group Pty Ltd". */
    copyright: string;
  };
  home: {
    hero_title: string;
    hero_subtitle: string;
    cta_label: string;
    cta_href: string;
  };
  locations: Location[];
  features: {
    watchlist: boolean;
    compare: boolean;
    favourites: boolean;
    /** true = phone is masked until clicked; false = shown straight away. */
    phone_reveal: boolean;
  };
  search: {
    page_size: number;
    keyword_placeholder: string;
    sort_options: SortOption[];
  };
  copy: {
    no_price_text: string;
    dealer_comments_pending: string;
  };
  /** Counts over the visible stock, for the home page and menus. */
  stock_summary: {
    total: number;
    by_type: { car_type: 'new' | 'demo' | 'used'; count: number }[];
    makes: { name: string; count: number }[];
  };
}

export interface SpecRow {
  label: string;
  value: string;
}

export interface Car {
  id: string;
  slug: string;
  /** "2023 Toyota Corolla Ascent Sport". */
  name: string;
  year: number;
  make: string;
  model: string;
  badge: string | null;
  series: string | null;
  car_type: 'new' | 'used' | 'demo';
  status: 'in_stock' | 'coming_soon' | 'sold';
  /** Convenience: status is in_stock or coming_soon. */
  in_stock: boolean;
  price: number;
  /** "$34,990" or the dealer's no-price text or "PREORDER". */
  price_text: string;
  /** "Drive Away", "Excl. Govt. Charges" or null. */
  price_type: string | null;
  /** "$36,990" when the earlier price exceeds the current one, else null. */
  was_price_text: string | null;
  km: number;
  transmission: string | null;
  fuel: string | null;
  body: string | null;
  colour: string | null;
  drive: string | null;
  stocknum: string | null;
  vin: string | null;
  /** Image URLs (site-relative or absolute); may be empty. */
  images: string[];
  photos_count: number;
  /** The one tag banner chosen by the spec's priority order, or null. */
  tag_banner: string | null;
  reserved: boolean;
  certified: boolean;
  /** ISO 8601. */
  created_at: string;
  location: {
    id: string;
    name: string;
    slug: string;
    suburb: string;
    state: string;
    phone: string;
  };
  /** Dealer comments split into paragraphs (on "|"); empty when none. */
  comment_paragraphs: string[];
  /** Specification rows, empty values already dropped. */
  specs: SpecRow[];
}
