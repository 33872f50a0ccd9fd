/**
 * "Open now", judged at view time in the location's own time zone (docs/behaviour/content.md
 * §4): Australian states differ, and some have daylight saving, so the
 * local clock comes from the browser's time zone database (Intl), never
 * from a fixed offset, and never from the build.
 *
 * Pure: `now` is passed in, so the rule is tested across daylight-saving
 * changes without touching the clock.
 */

/** [open, close) in minutes after local midnight. */
export type Span = readonly [number, number];
/** Seven days, index 0 = Sunday (the spec's weekday numbering); null = closed. */
export type Week = ReadonlyArray<Span | null>;
/** One-off hours on a local date ("2026-12-25"); null = closed all day. */
export interface SpecialDay {
  date: string;
  minutes: Span | null;
}

export interface LocalTime {
  /** Local date, "2026-04-05". */
  date: string;
  /** 0 = Sunday ... 6 = Saturday. */
  weekday: number;
  /** Minutes after local midnight. */
  minutes: number;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The local date, weekday and time at `now` in the IANA time zone `tz`. */
export function localNow(tz: string, now: Date | number): LocalTime {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-AU', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(tz, f);
  }
  const parts = f.formatToParts(now);
  const get = (t: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === t)?.value ?? '';
  return {
    date: `${get('year')}-${get('month')}-${get('day')}`,
    weekday: WEEKDAYS.indexOf(get('weekday')),
    minutes: Number(get('hour')) * 60 + Number(get('minute')),
  };
}

/** The hours that apply on a local date: its special day if any, else the week's. */
export function hoursOn(week: Week, specials: readonly SpecialDay[], date: string, weekday: number): Span | null {
  const special = specials.find((s) => s.date === date);
  return special ? special.minutes : (week[weekday] ?? null);
}

/**
 * Whether a department with these weekly hours and one-off days is open at
 * `now` in `tz`. Opening time included, closing time excluded: at 17:30 a
 * place that closes at 17:30 is closed.
 */
export function isOpenNow(week: Week, specials: readonly SpecialDay[], tz: string, now: Date | number): boolean {
  const local = localNow(tz, now);
  const span = hoursOn(week, specials, local.date, local.weekday);
  return span !== null && local.minutes >= span[0] && local.minutes < span[1];
}
