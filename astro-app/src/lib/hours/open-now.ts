/**
 * Is a location open at an instant? (spec 002 §4: the Call Now button is
 * active only within opening hours, judged in the location's own time
 * zone; outside the open and close times it is closed.) Pure: the hours
 * as site.json carries them for a location (`hours`: per department, the
 * lines of its table such as {days: "Mon-Fri", text: "8:30am - 5:30pm"};
 * `special_hours`: one-off days; `timezone`), a department and the instant.
 * The browser calls it with its own clock at view time, so a page built
 * on a Sunday still knows that it is Monday morning in Perth.
 */
import type { DepartmentHours, DepartmentName, SpecialHours } from '../../types/site';

export interface LocationHours {
  hours: readonly DepartmentHours[];
  special_hours: readonly SpecialHours[];
  /** IANA time zone, e.g. "Australia/Sydney". */
  timezone: string;
}

/** The wall clock in a time zone: ISO date, weekday (0 = Monday) and minutes after midnight. */
export interface LocalMoment {
  date: string;
  weekday: number;
  minutes: number;
}

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall clock at `now` in `timeZone` (an unknown zone throws a RangeError). */
export function localMoment(now: Date, timeZone: string): LocalMoment {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(now).map((p) => [p.type, p.value]));
  const hour = Number(parts['hour']) % 24;
  return {
    date: `${parts['year']}-${parts['month']}-${parts['day']}`,
    weekday: DAYS.indexOf(parts['weekday'] ?? ''),
    minutes: hour * 60 + Number(parts['minute']),
  };
}

/** "8:30am" -> 510, "12pm" -> 720, "12am" -> 0; null when not a time. */
export function parseClock(text: string): number | null {
  const m = /^\s*(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\.?\s*$/i.exec(text);
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2] ?? '0');
  if (h < 1 || h > 12 || min > 59) return null;
  return (h % 12) * 60 + min + (m[3]!.toLowerCase() === 'p' ? 720 : 0);
}

/** "8:30am - 5:30pm" -> [510, 1050]; "Closed", "By appointment only" or anything else -> null (closed). A close of "12am" is midnight at the end of the day. */
export function parseRange(text: string): [number, number] | null {
  const halves = text.split(/\s*[-–]\s*/);
  if (halves.length !== 2) return null;
  const open = parseClock(halves[0]!);
  let close = parseClock(halves[1]!);
  if (open === null || close === null) return null;
  if (close === 0) close = 24 * 60;
  return close > open ? [open, close] : null;
}

/** "Mon-Fri" -> [0..4], "Sat" -> [5], "Mon, Wed" -> [0, 2]; unknown words are skipped. */
export function dayIndexes(days: string): number[] {
  const out: number[] = [];
  for (const piece of days.split(',')) {
    const [a, b] = piece.split(/\s*[-–]\s*/).map((d) => DAYS.indexOf(d.trim().slice(0, 3)));
    if (a === undefined || a < 0) continue;
    if (b === undefined) out.push(a);
    else if (b >= a) for (let d = a; d <= b; d++) out.push(d);
  }
  return out;
}

/** The hours text that applies on a local day: a one-off for the department (or for all) first, then the week's line. */
export function hoursOn(loc: LocationHours, department: DepartmentName, day: LocalMoment): string | null {
  const special = loc.special_hours.filter((s) => s.date === day.date);
  const own = special.find((s) => s.department === department) ?? special.find((s) => s.department === 'all');
  if (own) return own.text;
  const week = loc.hours.find((h) => h.department === department);
  const line = week?.lines.find((l) => dayIndexes(l.days).includes(day.weekday));
  return line?.text ?? null;
}

/** Open at `now` in the location's time zone; unknown hours count as closed. */
export function isOpenNow(loc: LocationHours, now: Date, department: DepartmentName = 'sales'): boolean {
  let day: LocalMoment;
  try {
    day = localMoment(now, loc.timezone);
  } catch {
    return false;
  }
  const text = hoursOn(loc, department, day);
  const range = text === null ? null : parseRange(text);
  return range !== null && day.minutes >= range[0] && day.minutes < range[1];
}
