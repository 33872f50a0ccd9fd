/**
 * The data contract between the Rust generator and the Astro app.
 *
 * `dealergen build` writes `sites/<slug>/src/data/site.json` (a `SiteData`)
 * and `sites/<slug>/src/data/cars.json` (a `Car[]`, only the visible stock).
 * Everything a page shows is computed on the Rust side (visibility, tag
 * priority, price text, opening-hour lines); pages only lay it out.
 *
 * The types are generated, never written by hand: the Rust structs derive a
 * JSON Schema (site-data.schema.json, `dealergen schema --site-data --write`)
 * and scripts/gen-types.mjs turns it into site-data.generated.ts. Tests fail
 * when either file is stale, so the two sides cannot drift apart.
 */
export type {
  Address,
  BaseFilters,
  CardButton,
  Cards,
  CompanyPages,
  ContentPage,
  DictColumn,
  FacetStats,
  HitRules,
  HostedSearch,
  IndexLocation,
  LandingPage,
  PromoTile,
  SearchIndex,
  Car,
  CarLocation,
  CarStatus,
  CarType,
  Contact,
  Copy,
  DepartmentHours,
  DepartmentName,
  Features,
  Footer,
  FooterGroup,
  Home,
  HoursLine,
  Link,
  Location,
  LocationKind,
  NavItem,
  Search,
  SiteData,
  SortOption,
  SortOrder,
  SpecialDepartment,
  SpecialHours,
  SpecRow,
  StockSummary,
  Theme,
} from './site-data.generated';
