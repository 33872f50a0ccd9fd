// @vitest-environment jsdom
/**
 * The hours block at view time (lib/hours/enhance.ts): the table redrawn
 * for the coming week (a special day in place, today marked), "Open now"
 * in the location's time zone, past special days hidden, and the
 * department selector showing one table (and its status) at a time.
 */
import { describe, expect, it } from 'vitest';
import { enhanceHours } from '../src/lib/hours/enhance';

const WEEK = [null, [510, 1050], [510, 1050], [510, 1050], [510, 1050], [510, 1050], [480, 720]];
const data = {
  timezone: 'Australia/Brisbane',
  closed_text: 'Closed',
  special_hours: [
    { date: '2026-11-01', department: 'all', text: 'Closed', label: 'Old', minutes: null },
    { date: '2026-11-21', department: 'service', text: '8am - 11am', label: 'Staff training', minutes: [480, 660] },
    { date: '2026-12-25', department: 'all', text: 'Closed', label: 'Christmas Day', minutes: null },
  ],
  hours: [
    { department: 'sales', week: WEEK, appointment_saturdays_from: null, lines: [] },
    { department: 'service', week: [null, [420, 1020], [420, 1020], [420, 1020], [420, 1020], [420, 1020], [450, 720]], appointment_saturdays_from: '2025-06-14', lines: [] },
  ],
};

function render() {
  document.body.innerHTML = `
    <div class="hours" data-hours='${JSON.stringify(data)}'>
      <p data-open-status hidden></p>
      <p data-hours-select-wrap hidden><select data-hours-select><option value="sales">Sales</option><option value="service">Service</option></select></p>
      <table data-hours-dept="sales"><caption>Sales hours</caption><tbody><tr><th>Mon-Fri</th><td>8:30am - 5:30pm</td></tr></tbody></table>
      <table data-hours-dept="service"><caption>Service hours</caption><tbody><tr><th>Mon-Fri</th><td>7am - 5pm</td></tr></tbody></table>
      <p data-hours-note>Every second Saturday service is by appointment only.</p>
      <div data-special-list><ul>
        <li data-special-date="2026-11-01">Old</li><li data-special-date="2026-11-21">Training</li><li data-special-date="2026-12-25">Christmas</li>
      </ul></div>
    </div>`;
}
const rows = (dept: string) =>
  [...document.querySelectorAll(`table[data-hours-dept="${dept}"] tbody tr`)].map((tr) => [tr.querySelector('th')!.textContent, tr.querySelector('td')!.textContent]);

describe('hours at view time', () => {
  // Friday 2026-11-20 10:00 in Brisbane (00:00 UTC).
  const NOW = Date.parse('2026-11-20T00:00:00Z');

  it('redraws the coming week with special days in place and marks today', () => {
    render();
    enhanceHours(document, NOW);
    expect(rows('sales')).toEqual([
      ['Mon-Fri (today)', '8:30am - 5:30pm'],
      ['Sat', '8am - 12pm'],
      ['Sun', 'Closed'],
    ]);
    // Saturday the 21st: the service department's training day, dated, with its reason.
    expect(rows('service')).toEqual([
      ['Mon-Fri (today)', '7am - 5pm'],
      ['Sat 21 Nov', '8am - 11am Staff training'],
      ['Sun', 'Closed'],
    ]);
    expect(document.querySelector('table[data-hours-dept="sales"] tr.hours__today')).not.toBeNull();
  });

  it('says whether the first department is open, and the selector switches tables and status', () => {
    render();
    enhanceHours(document, NOW);
    const status = document.querySelector<HTMLElement>('[data-open-status]')!;
    expect(status.hidden).toBe(false);
    expect(status.textContent).toBe('Open now until 5:30pm');
    expect(document.querySelector<HTMLElement>('[data-hours-select-wrap]')!.hidden).toBe(false);
    const tables = () => [...document.querySelectorAll<HTMLTableElement>('table')].map((t) => t.hidden);
    expect(tables()).toEqual([false, true]);
    expect(document.querySelector<HTMLElement>('[data-hours-note]')!.hidden).toBe(true);
    const select = document.querySelector('select')!;
    select.value = 'service';
    select.dispatchEvent(new Event('change'));
    expect(tables()).toEqual([true, false]);
    expect(document.querySelector<HTMLElement>('[data-hours-note]')!.hidden).toBe(false);
    expect(status.textContent).toBe('Open now until 5pm');
  });

  it('hides special days already past and those shown in this week’s table', () => {
    render();
    enhanceHours(document, NOW);
    const shown = [...document.querySelectorAll<HTMLElement>('[data-special-date]')].filter((li) => !li.hidden).map((li) => li.dataset.specialDate);
    expect(shown).toEqual(['2026-12-25']);
    // On Boxing Day nothing is left to announce: the list goes.
    enhanceHours(document, Date.parse('2026-12-26T00:00:00Z'));
    expect(document.querySelector<HTMLElement>('[data-special-list]')!.hidden).toBe(true);
  });

  it('in the evening it says when it opens next', () => {
    render();
    // Friday 2026-11-20 19:00 Brisbane.
    enhanceHours(document, Date.parse('2026-11-20T09:00:00Z'));
    expect(document.querySelector('[data-open-status]')!.textContent).toBe('Closed now · opens tomorrow 8am');
  });
});
