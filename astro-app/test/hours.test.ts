/**
 * Opening hours at view time (docs/behaviour/content.md §3, §4): the table's wording and
 * Mon-Fri grouping (shared with the generator: rules/vectors/hours.json),
 * "open now" in the location's own time zone across daylight-saving
 * changes, special hours by date and department, alternate Saturdays.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hoursOn, isOpenNow, localNow, type Span, type Week } from '../src/lib/hours/open-now';
import {
  APPOINTMENT_TEXT,
  comingWeek,
  dayLabel,
  dayPlan,
  formatSpan,
  groupWeek,
  isAlternateSaturday,
  openStatus,
  specialsFor,
  weekTable,
  type HoursData,
} from '../src/lib/hours/schedule';
import type { DepartmentHours, SpecialHours } from '../src/types/site';

const vectors = JSON.parse(fs.readFileSync(`${__dirname}/../../rules/vectors/hours.json`, 'utf8')) as {
  cases: { name: string; week: (string | null)[]; closed_text: string; lines: [string, string][] }[];
};

/** "08:30-17:30" → [510, 1050]; "closed" or null → null (the generator's parse_day). */
function span(day: string | null): Span | null {
  if (day === null || day.trim().toLowerCase() === 'closed') return null;
  const [a, b] = day.split('-').map((t) => {
    const [h, m] = t.split(':').map(Number);
    return h! * 60 + m!;
  });
  return [a!, b!];
}

const WEEKDAY_9_TO_5: Week = [null, [540, 1020], [540, 1020], [540, 1020], [540, 1020], [540, 1020], [540, 720]];
const at = (iso: string) => Date.parse(iso);

describe('hours tables (shared vectors)', () => {
  it('has cases', () => expect(vectors.cases.length).toBeGreaterThanOrEqual(5));

  for (const c of vectors.cases) {
    it(c.name, () => {
      const closed = c.closed_text === 'by_appointment' ? APPOINTMENT_TEXT : 'Closed';
      // The vectors are Monday first; weekday numbers are Sunday = 0.
      const plans = c.week.map((day, i) => ({ weekday: (i + 1) % 7, text: formatSpan(span(day), closed), note: '', date: '' }));
      expect(groupWeek(plans).map((l) => [l.days, l.text])).toEqual(c.lines);
    });
  }

  it('a special day in the week keeps Mon-Fri apart and names its date', () => {
    const plans = [1, 2, 3, 4, 5, 6, 0].map((weekday) => ({ weekday, text: '9am - 5pm', note: weekday === 3 ? 'Show day' : '', date: weekday === 3 ? '2026-08-12' : '' }));
    const lines = groupWeek(plans);
    expect(lines).toHaveLength(7);
    expect(lines[2]).toEqual({ days: 'Wed', text: '9am - 5pm', date: '2026-08-12', note: 'Show day' });
  });
});

describe('dates in the tables', () => {
  it('read "Sat 21 Nov" on every browser', () => {
    expect(dayLabel('2026-11-21')).toBe('Sat 21 Nov');
    expect(dayLabel('2027-01-03')).toBe('Sun 3 Jan');
  });
});

describe('local time of a location', () => {
  it('follows each state’s own clock and daylight saving', () => {
    // 2026-01-15 00:30 UTC: Sydney (AEDT +11) 11:30, Brisbane (+10) 10:30, Adelaide (ACDT +10:30) 11:00, Perth (+8) 08:30.
    const t = at('2026-01-15T00:30:00Z');
    expect(localNow('Australia/Sydney', t)).toEqual({ date: '2026-01-15', weekday: 4, minutes: 11 * 60 + 30 });
    expect(localNow('Australia/Brisbane', t).minutes).toBe(10 * 60 + 30);
    expect(localNow('Australia/Adelaide', t).minutes).toBe(11 * 60);
    expect(localNow('Australia/Perth', t).minutes).toBe(8 * 60 + 30);
    // Late on the 14th in UTC is already the 15th in Perth.
    expect(localNow('Australia/Perth', at('2026-01-14T20:00:00Z'))).toEqual({ date: '2026-01-15', weekday: 4, minutes: 4 * 60 });
  });
});

describe('open now', () => {
  it('opening time is open, closing time is closed', () => {
    // Monday 2026-06-15, Brisbane (+10): 09:00 and 17:00 local.
    expect(isOpenNow(WEEKDAY_9_TO_5, [], 'Australia/Brisbane', at('2026-06-14T23:00:00Z'))).toBe(true);
    expect(isOpenNow(WEEKDAY_9_TO_5, [], 'Australia/Brisbane', at('2026-06-14T22:59:00Z'))).toBe(false);
    expect(isOpenNow(WEEKDAY_9_TO_5, [], 'Australia/Brisbane', at('2026-06-15T07:00:00Z'))).toBe(false);
    expect(isOpenNow(WEEKDAY_9_TO_5, [], 'Australia/Brisbane', at('2026-06-15T06:59:00Z'))).toBe(true);
  });

  it('when daylight saving starts in Sydney, the same instant is an hour later there but not in Brisbane', () => {
    // Sunday 2026-10-04: Sydney goes from 02:00 AEST to 03:00 AEDT. Monday 2026-10-05 22:30 UTC is 09:30 Tuesday in Sydney (+11) and 08:30 in Brisbane (+10).
    const t = at('2026-10-05T22:30:00Z');
    expect(isOpenNow(WEEKDAY_9_TO_5, [], 'Australia/Sydney', t)).toBe(true);
    expect(isOpenNow(WEEKDAY_9_TO_5, [], 'Australia/Brisbane', t)).toBe(false);
    // The week before (AEST, +10), the same clock time in UTC is 08:30 in Sydney: closed.
    expect(isOpenNow(WEEKDAY_9_TO_5, [], 'Australia/Sydney', at('2026-09-28T22:30:00Z'))).toBe(false);
  });

  it('when daylight saving ends, the hour after the change is judged on the new clock', () => {
    // Sunday 2026-04-05 03:00 AEDT becomes 02:00 AEST. Monday 2026-04-05 23:30 UTC is 09:30 Monday AEST (+10), not 10:30.
    const mon10to5: Week = [null, [600, 1020], null, null, null, null, null];
    expect(isOpenNow(mon10to5, [], 'Australia/Sydney', at('2026-04-05T23:30:00Z'))).toBe(false);
    expect(isOpenNow(mon10to5, [], 'Australia/Sydney', at('2026-04-06T00:30:00Z'))).toBe(true);
    // Adelaide changes on the same night, half an hour apart from Sydney: 09:00 ACST, closed.
    expect(isOpenNow(mon10to5, [], 'Australia/Adelaide', at('2026-04-05T23:30:00Z'))).toBe(false);
  });

  it('Perth has no daylight saving: the same offset all year', () => {
    const summer = localNow('Australia/Perth', at('2026-01-05T01:00:00Z'));
    const winter = localNow('Australia/Perth', at('2026-07-06T01:00:00Z'));
    expect([summer.minutes, winter.minutes]).toEqual([9 * 60, 9 * 60]);
  });

  it('a special day overrides the week, closed or with other hours', () => {
    const christmas = [{ date: '2026-12-25', minutes: null }];
    // Friday 2026-12-25 10:00 Brisbane.
    expect(isOpenNow(WEEKDAY_9_TO_5, christmas, 'Australia/Brisbane', at('2026-12-25T00:00:00Z'))).toBe(false);
    expect(isOpenNow(WEEKDAY_9_TO_5, [], 'Australia/Brisbane', at('2026-12-25T00:00:00Z'))).toBe(true);
    // A Sunday opening (the week has Sunday closed).
    const sale = [{ date: '2026-12-27', minutes: [600, 840] as const }];
    expect(hoursOn(WEEKDAY_9_TO_5, sale, '2026-12-27', 0)).toEqual([600, 840]);
    expect(isOpenNow(WEEKDAY_9_TO_5, sale, 'Australia/Brisbane', at('2026-12-27T01:00:00Z'))).toBe(true);
  });
});

describe('special hours and alternate Saturdays', () => {
  const special: SpecialHours[] = [
    { date: '2026-12-24', department: 'all', text: '9am - 12pm', label: 'Christmas Eve', minutes: [540, 720] },
    { date: '2026-12-24', department: 'service', text: 'Closed', label: 'Workshop closed', minutes: null },
    { date: '2026-12-25', department: 'all', text: 'Closed', label: 'Christmas Day', minutes: null },
    { date: '2026-12-26', department: 'parts', text: 'Closed', label: 'Stocktake', minutes: null },
  ];
  const dept = (department: DepartmentHours['department'], from: string | null = null): DepartmentHours => ({
    department,
    lines: [],
    week: WEEKDAY_9_TO_5 as DepartmentHours['week'],
    appointment_saturdays_from: from,
  });

  it('a department’s own entry beats an all-departments one on the same date', () => {
    expect(specialsFor(special, 'service')).toEqual([
      { date: '2026-12-24', minutes: null },
      { date: '2026-12-25', minutes: null },
    ]);
    expect(specialsFor(special, 'sales').map((s) => s.minutes)).toEqual([[540, 720], null]);
    expect(dayPlan(dept('sales'), special, 'Closed', '2026-12-24', 4)).toMatchObject({ text: '9am - 12pm', note: 'Christmas Eve' });
    expect(dayPlan(dept('service'), special, 'Closed', '2026-12-24', 4)).toMatchObject({ text: 'Closed', note: 'Workshop closed' });
    // Another department's entry does not touch sales.
    expect(dayPlan(dept('sales'), special, 'Closed', '2026-12-26', 6)).toMatchObject({ text: '9am - 12pm', note: '' });
  });

  it('every second Saturday from the configured one is by appointment only', () => {
    expect(isAlternateSaturday('2025-06-14', '2025-06-14')).toBe(true);
    expect(isAlternateSaturday('2025-06-14', '2025-06-21')).toBe(false);
    expect(isAlternateSaturday('2025-06-14', '2025-06-28')).toBe(true);
    expect(isAlternateSaturday('2025-06-14', '2025-05-31')).toBe(false);
    // Across a year end and daylight-saving changes (date arithmetic, not clock time).
    expect(isAlternateSaturday('2025-06-14', '2026-11-28')).toBe(true);
    expect(isAlternateSaturday('2025-06-14', '2026-11-21')).toBe(false);
    const d = dept('service', '2025-06-14');
    expect(dayPlan(d, [], 'Closed', '2026-11-28', 6)).toMatchObject({ span: null, text: APPOINTMENT_TEXT, note: 'Alternate Saturday' });
    expect(dayPlan(d, [], 'Closed', '2026-11-21', 6)).toMatchObject({ span: [540, 720], text: '9am - 12pm' });
    // A special day on an alternate Saturday wins.
    expect(dayPlan(d, [{ date: '2026-11-28', department: 'service', text: '8am - 11am', label: 'Training', minutes: [480, 660] }], 'Closed', '2026-11-28', 6).text).toBe('8am - 11am');
  });

  it('the coming week’s table puts special days in place, with their date', () => {
    const location: HoursData = { timezone: 'Australia/Brisbane', closed_text: 'Closed', special_hours: special, hours: [dept('sales')] };
    // Tuesday 2026-12-22 10:00 Brisbane: the coming week holds the 24th (Thu), 25th (Fri) and 26th (Sat).
    const lines = weekTable(location, location.hours[0]!, at('2026-12-22T00:00:00Z'));
    expect(lines.map((l) => [l.days, l.text, l.date])).toEqual([
      ['Mon', '9am - 5pm', null],
      ['Tue', '9am - 5pm', null],
      ['Wed', '9am - 5pm', null],
      ['Thu', '9am - 12pm', '2026-12-24'],
      ['Fri', 'Closed', '2026-12-25'],
      ['Sat', '9am - 12pm', null],
      ['Sun', 'Closed', null],
    ]);
    // A week without special days is the usual grouped table.
    const usual = weekTable(location, location.hours[0]!, at('2026-11-02T00:00:00Z'));
    expect(usual.map((l) => l.days)).toEqual(['Mon-Fri', 'Sat', 'Sun']);
    expect(comingWeek(location.hours[0]!, special, 'Closed', '2026-12-22', 2)).toHaveLength(7);
  });

  it('open status says until when, or when it opens next', () => {
    const location: HoursData = { timezone: 'Australia/Perth', closed_text: 'Closed', special_hours: special, hours: [dept('sales'), dept('service', '2026-11-28')] };
    const [sales, service] = location.hours as [DepartmentHours, DepartmentHours];
    // Monday 2026-11-23 10:00 Perth (+8).
    expect(openStatus(location, sales, at('2026-11-23T02:00:00Z'))).toEqual({ open: true, text: 'Open now until 5pm' });
    // 07:00 Perth: opens today at 9.
    expect(openStatus(location, sales, at('2026-11-22T23:00:00Z')).text).toBe('Closed now · opens today 9am');
    // Saturday 2026-11-28 10:00 Perth: sales open, service by appointment (alternate Saturday).
    const sat = at('2026-11-28T02:00:00Z');
    expect(openStatus(location, sales, sat).open).toBe(true);
    expect(openStatus(location, service, sat)).toEqual({ open: false, text: 'Closed now · opens Mon 9am' });
    // Thursday 2026-12-24 13:00 Perth: sales closed at 12 (Christmas Eve), Christmas closed, Saturday the 26th opens.
    expect(openStatus(location, sales, at('2026-12-24T05:00:00Z')).text).toBe('Closed now · opens Sat 9am');
  });
});
