/** Small formatting helpers shared by the page components (pure, no DOM). */

import type { Car } from '../types/site';

const wholeNumber = /* @__PURE__ */ new Intl.NumberFormat('en-AU', { maximumFractionDigits: 0 });

/** 12345 -> "12,345 km". */
export function formatKm(km: number): string {
  return `${wholeNumber.format(Math.max(0, Math.round(km)))} km`;
}

/** 1234 -> "1,234". */
export function formatCount(n: number): string {
  return wholeNumber.format(n);
}

/** "$34,990": whole dollars (halves away from zero, as Rust's f64::round), thousands grouped. */
export function dollars(value: number): string {
  const whole = Math.sign(value) * Math.round(Math.abs(value));
  const digits = String(Math.abs(whole)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${whole < 0 ? '-' : ''}$${digits}`;
}

/** "1 car" / "12 cars". */
export function pluralise(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : plural}`;
}

/** "(07) 3000 1234" -> "tel:0730001234"; keeps a leading "+". */
export function telHref(phone: string): string {
  const trimmed = phone.trim();
  const digits = trimmed.replace(/[^\d]/g, '');
  return `tel:${trimmed.startsWith('+') ? '+' : ''}${digits}`;
}

const CAR_TYPE_LABELS: Record<Car['car_type'], string> = {
  new: 'New',
  used: 'Used',
  demo: 'Demo',
};

/** "used" -> "Used". */
export function carTypeLabel(type: Car['car_type']): string {
  return CAR_TYPE_LABELS[type];
}

/** The line under a car's name: badge and series, skipping the empty ones. */
export function badgeLine(car: Pick<Car, 'badge' | 'series'>): string {
  return [car.badge, car.series].filter((part): part is string => !!part && part.trim() !== '').join(' ');
}

/** "Brisbane Motor Group Newstead" + "Newstead" + "QLD" -> "Newstead QLD". */
export function suburbState(suburb: string, state: string): string {
  return [suburb, state].filter(Boolean).join(' ');
}

/** Ensures an internal path ends with "/" (the sites are built with directory URLs). */
export function withTrailingSlash(href: string): string {
  if (!href.startsWith('/') || href.startsWith('//')) return href;
  const match = /^([^?#]*)(.*)$/.exec(href);
  const path = match?.[1] ?? href;
  const rest = match?.[2] ?? '';
  if (path.endsWith('/') || /\.[a-z0-9]+$/i.test(path)) return href;
  return `${path}/${rest}`;
}
