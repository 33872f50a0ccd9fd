/**
 * A location's hours as the shopper sees them at view time (docs/behaviour/content.md §3,
 * §4): special hours by date and department override the week (a
 * department's own entry beats an "all departments" one), on alternating
 * Saturdays counted from a configured Saturday a department is by
 * appointment only, and the coming week's table collapses Mon-Fri when the
 * five weekdays agree. The table's wording is the generator's (shared
 * vectors: rules/vectors/hours.json).
 */
import type { DepartmentHours, Location, SpecialHours } from '../../types/site';

/** What the hours rules need of a location (the data the hours table hands the browser). */
export type HoursData = Pick<Location, 'timezone' | 'closed_text' | 'special_hours' | 'hours'>;
import { hoursOn, isOpenNow, localNow, type Span, type SpecialDay, type Week } from './open-now';

export const APPOINTMENT_TEXT = 'By appointment only';
const DAY_LABELS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const DAY_MS = 86_400_000;

/** "8:30am", "12pm", "5:30pm" (the generator's format_time). */
export function formatMinutes(m: number): string {
  const h = Math.floor(m / 60);
  const min = m % 60;
  const suffix = h >= 12 && h < 24 ? 'pm' : 'am';
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return min === 0 ? `${h12}${suffix}` : `${h12}:${String(min).padStart(2, '0')}${suffix}`;
}

/** "08:30", "17:30": minutes after midnight as a 24-hour clock time (schema.org's opening hours). */
export function clockTime(m: number): string {
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** "8:30am - 5:30pm", or the closed wording. */
export function formatSpan(span: Span | null, closedText: string): string {
  return span ? `${formatMinutes(span[0])} - ${formatMinutes(span[1])}` : closedText;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Sat 21 Nov" for "2026-11-21" (fixed words: the same on every browser and at build time). */
export function dayLabel(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  return `${DAY_LABELS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/** Days between two ISO dates (b - a). */
function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS);
}

/** ISO date `n` days after `date`. */
export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Whether `date` is one of the alternating Saturdays counted from `from`
 * (itself a Saturday): `from`, two weeks later, and so on. Saturdays before
 * `from` are not.
 */
export function isAlternateSaturday(from: string, date: string): boolean {
  const d = daysBetween(from, date);
  return d >= 0 && d % 14 === 0;
}

/** The one-off days of a department: its own entries win over "all" ones on the same date. */
export function specialsFor(special: readonly SpecialHours[], department: string): SpecialDay[] {
  const mine = special.filter((s) => s.department === department);
  const all = special.filter((s) => s.department === 'all' && !mine.some((m) => m.date === s.date));
  return [...mine, ...all].map((s) => ({ date: s.date, minutes: s.minutes }));
}

/** What a department does on a local date: its hours, the wording and why it differs from the week. */
export interface DayPlan {
  date: string;
  weekday: number;
  /** Open span, or null when closed or by appointment. */
  span: Span | null;
  text: string;
  /** The special day's label, "Alternate Saturday", or "" when the usual hours apply. */
  note: string;
}

export function dayPlan(dept: DepartmentHours, special: readonly SpecialHours[], closedText: string, date: string, weekday: number): DayPlan {
  const own = special.find((s) => s.date === date && s.department === dept.department);
  const any = own ?? special.find((s) => s.date === date && s.department === 'all');
  if (any) return { date, weekday, span: any.minutes, text: formatSpan(any.minutes, closedText), note: any.label || 'Special hours' };
  if (weekday === 6 && dept.appointment_saturdays_from && isAlternateSaturday(dept.appointment_saturdays_from, date)) {
    return { date, weekday, span: null, text: APPOINTMENT_TEXT, note: 'Alternate Saturday' };
  }
  const span = (dept.week[weekday] as Span | null | undefined) ?? null;
  return { date, weekday, span, text: formatSpan(span, closedText), note: '' };
}

/** The next seven days from the local `today` (weekday given), each with its plan. */
export function comingWeek(dept: DepartmentHours, special: readonly SpecialHours[], closedText: string, today: string, weekday: number): DayPlan[] {
  return Array.from({ length: 7 }, (_, i) => dayPlan(dept, special, closedText, addDays(today, i), (weekday + i) % 7));
}

export interface TableLine {
  days: string;
  text: string;
  /** ISO date when the line is one day whose hours differ from the usual. */
  date: string | null;
  note: string;
}

/**
 * Table lines Monday to Sunday; the five weekdays as one "Mon-Fri" line when
 * their wording agrees and none is a special day (the generator's rule for
 * the usual week, see rules/vectors/hours.json).
 */
export function groupWeek(plans: readonly Pick<DayPlan, 'weekday' | 'text' | 'note' | 'date'>[]): TableLine[] {
  const byDay = [1, 2, 3, 4, 5, 6, 0].map((d) => plans.find((p) => p.weekday === d)!);
  const weekdays = byDay.slice(0, 5);
  const lines: TableLine[] = [];
  let start = 0;
  if (weekdays.every((p) => p.text === weekdays[0]!.text && !p.note)) {
    lines.push({ days: 'Mon-Fri', text: weekdays[0]!.text, date: null, note: '' });
    start = 5;
  }
  for (const p of byDay.slice(start)) lines.push({ days: DAY_LABELS[p.weekday]!, text: p.text, date: p.note ? p.date : null, note: p.note });
  return lines;
}

/** The table of the coming week at `now`, in the location's time zone. */
export function weekTable(location: HoursData, dept: DepartmentHours, now: Date | number): TableLine[] {
  const local = localNow(location.timezone, now);
  return groupWeek(comingWeek(dept, location.special_hours, location.closed_text, local.date, local.weekday));
}

/** The one-off days (and today's alternate Saturday) that decide whether the department is open today. */
function todaysSpecials(location: HoursData, dept: DepartmentHours, now: Date | number): SpecialDay[] {
  const specials = specialsFor(location.special_hours, dept.department);
  const local = localNow(location.timezone, now);
  if (local.weekday === 6 && dept.appointment_saturdays_from && isAlternateSaturday(dept.appointment_saturdays_from, local.date) && !specials.some((s) => s.date === local.date)) {
    specials.push({ date: local.date, minutes: null });
  }
  return specials;
}

export interface OpenStatus {
  open: boolean;
  /** "Open now until 5:30pm", "Closed now · opens Mon 8:30am", "Closed now". */
  text: string;
}

/** Whether the department is open at `now`, and until when, or when it opens next (within a week). */
export function openStatus(location: HoursData, dept: DepartmentHours, now: Date | number): OpenStatus {
  const specials = todaysSpecials(location, dept, now);
  const week = dept.week as Week;
  const local = localNow(location.timezone, now);
  if (isOpenNow(week, specials, location.timezone, now)) {
    const span = hoursOn(week, specials, local.date, local.weekday)!;
    return { open: true, text: `Open now until ${formatMinutes(span[1])}` };
  }
  const plans = comingWeek(dept, location.special_hours, location.closed_text, local.date, local.weekday);
  for (let i = 0; i < plans.length; i++) {
    const p = plans[i]!;
    if (!p.span || (i === 0 && p.span[0] <= local.minutes)) continue;
    const when = i === 0 ? 'today' : i === 1 ? 'tomorrow' : DAY_LABELS[p.weekday];
    return { open: false, text: `Closed now · opens ${when} ${formatMinutes(p.span[0])}` };
  }
  return { open: false, text: 'Closed now' };
}
