/**
 * Open now, in the location's own time zone (spec 002 §4: Call Now only
 * within opening hours). The input is site.json's shape for a location,
 * as the generator writes it (generator/src/site_data/locations.rs).
 */
import { describe, expect, it } from 'vitest';
import { dayIndexes, isOpenNow, localMoment, parseRange, type LocationHours } from '../src/lib/hours/open-now';

const week = (weekdays: string, sat = 'Closed', sun = 'Closed') => [
  { days: 'Mon-Fri', text: weekdays },
  { days: 'Sat', text: sat },
  { days: 'Sun', text: sun },
];

const sydney: LocationHours = {
  timezone: 'Australia/Sydney',
  hours: [
    { department: 'sales', lines: week('8:30am - 5:30pm', '9am - 1pm') },
    { department: 'service', lines: week('7am - 5pm') },
  ],
  special_hours: [
    { date: '2026-12-25', department: 'all', text: 'Closed', label: 'Christmas Day' },
    { date: '2026-12-24', department: 'sales', text: '8:30am - 12pm', label: 'Christmas Eve' },
    { date: '2026-12-24', department: 'all', text: 'Closed', label: 'Christmas Eve' },
  ],
};

const at = (iso: string) => new Date(iso);

describe('the wall clock in a time zone', () => {
  it('reads date, weekday and minutes in the zone, not the machine', () => {
    // 2026-10-04 21:45Z is Monday 5 October 08:45 in Sydney (daylight time, +11).
    expect(localMoment(at('2026-10-04T21:45:00Z'), 'Australia/Sydney')).toEqual({ date: '2026-10-05', weekday: 0, minutes: 8 * 60 + 45 });
    // The same instant in Perth (+8, no daylight saving) is still Monday 05:45.
    expect(localMoment(at('2026-10-04T21:45:00Z'), 'Australia/Perth')).toEqual({ date: '2026-10-05', weekday: 0, minutes: 5 * 60 + 45 });
    // Midnight is minute 0, not 24:00.
    expect(localMoment(at('2026-11-22T14:00:00Z'), 'Australia/Brisbane').minutes).toBe(0);
  });
});

describe('open now', () => {
  it('follows the daylight-saving change (first Sunday of October in Sydney)', () => {
    // Monday before the change: 08:45 AEST is 22:45Z; 21:45Z is 07:45, closed.
    expect(isOpenNow(sydney, at('2026-09-27T22:45:00Z'))).toBe(true);
    expect(isOpenNow(sydney, at('2026-09-27T21:45:00Z'))).toBe(false);
    // Monday after it: 21:45Z is already 08:45 AEDT, open (a fixed +10 would say closed).
    expect(isOpenNow(sydney, at('2026-10-04T21:45:00Z'))).toBe(true);
    expect(isOpenNow(sydney, at('2026-10-04T21:15:00Z'))).toBe(false);
    // And back in April: Monday 6 April 2026 08:45 AEST is 22:45Z on Sunday.
    expect(isOpenNow(sydney, at('2026-04-05T22:45:00Z'))).toBe(true);
    expect(isOpenNow(sydney, at('2026-04-05T21:45:00Z'))).toBe(false);
  });

  it('opens at the opening minute and is closed from the closing minute', () => {
    // Tuesday 24 November 2026, AEDT (+11): 08:30 local = 21:30Z Monday.
    expect(isOpenNow(sydney, at('2026-11-23T21:29:00Z'))).toBe(false);
    expect(isOpenNow(sydney, at('2026-11-23T21:30:00Z'))).toBe(true);
    expect(isOpenNow(sydney, at('2026-11-24T06:29:00Z'))).toBe(true);
    expect(isOpenNow(sydney, at('2026-11-24T06:30:00Z'))).toBe(false);
  });

  it('uses the day of the week in the location, and the department asked for', () => {
    // Saturday 28 November 10:00 AEDT = Friday 23:00Z.
    expect(isOpenNow(sydney, at('2026-11-27T23:00:00Z'))).toBe(true);
    expect(isOpenNow(sydney, at('2026-11-27T23:00:00Z'), 'service')).toBe(false);
    // Sunday: closed.
    expect(isOpenNow(sydney, at('2026-11-28T23:00:00Z'))).toBe(false);
    // A department the location does not have is never open.
    expect(isOpenNow(sydney, at('2026-11-23T23:00:00Z'), 'parts')).toBe(false);
  });

  it('one-off days replace the week, the department first, then "all"', () => {
    // Friday 25 December 10:00 AEDT: the week says open, Christmas says closed.
    expect(isOpenNow(sydney, at('2026-12-24T23:00:00Z'))).toBe(false);
    // Thursday 24 December: sales' own short day wins over "all: Closed".
    expect(isOpenNow(sydney, at('2026-12-23T23:00:00Z'))).toBe(true); // 10:00
    expect(isOpenNow(sydney, at('2026-12-24T02:00:00Z'))).toBe(false); // 13:00
    expect(isOpenNow(sydney, at('2026-12-23T23:00:00Z'), 'service')).toBe(false);
  });

  it('"By appointment only", unknown text and an unknown zone count as closed', () => {
    const byAppointment: LocationHours = { ...sydney, hours: [{ department: 'sales', lines: week('By appointment only') }] };
    expect(isOpenNow(byAppointment, at('2026-11-23T23:00:00Z'))).toBe(false);
    expect(isOpenNow({ ...sydney, timezone: 'Australia/Nowhere' }, at('2026-11-23T23:00:00Z'))).toBe(false);
    expect(isOpenNow({ ...sydney, hours: [] }, at('2026-11-23T23:00:00Z'))).toBe(false);
  });

  it('reads every line the generator writes', () => {
    expect(parseRange('8:30am - 5:30pm')).toEqual([510, 1050]);
    expect(parseRange('8am - 12pm')).toEqual([480, 720]);
    expect(parseRange('12pm - 12am')).toEqual([720, 1440]);
    expect(parseRange('Closed')).toBeNull();
    expect(parseRange('5pm - 9am')).toBeNull();
    expect(dayIndexes('Mon-Fri')).toEqual([0, 1, 2, 3, 4]);
    expect(dayIndexes('Thu')).toEqual([3]);
    expect(dayIndexes('Sun')).toEqual([6]);
    expect(dayIndexes('Mon, Wed')).toEqual([0, 2]);
    // Weekdays listed one by one (they differ).
    const perth: LocationHours = {
      timezone: 'Australia/Perth',
      special_hours: [],
      hours: [{ department: 'sales', lines: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'].map((d) => ({ days: d, text: d === 'Thu' ? '8:30am - 9pm' : '8:30am - 5:30pm' })) }],
    };
    // Thursday 26 November 19:00 AWST (+8) = 11:00Z: late night trading.
    expect(isOpenNow(perth, at('2026-11-26T11:00:00Z'))).toBe(true);
    expect(isOpenNow(perth, at('2026-11-25T11:00:00Z'))).toBe(false);
  });
});
