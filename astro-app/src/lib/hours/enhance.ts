/**
 * The hours tables at view time (the page's only script besides the header
 * menus): each `[data-hours]` block gets its location's "Open now" line,
 * its tables redrawn for the coming seven days (special hours and
 * alternate Saturdays in place, today marked), past special days hidden,
 * and the department selector that shows one department's table at a time.
 * Without JavaScript the usual week and every special day stay as built.
 */
import { addDays, dayLabel, openStatus, weekTable, type HoursData } from './schedule';
import { localNow } from './open-now';

function redraw(table: HTMLTableElement, data: HoursData, department: string, now: number, today: string, weekday: number): void {
  const dept = data.hours.find((d) => d.department === department);
  const body = table.tBodies[0];
  if (!dept || !body) return;
  const doc = table.ownerDocument;
  const todayLabel = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][weekday];
  const rows = weekTable(data, dept, now).map((line) => {
    const tr = doc.createElement('tr');
    const isToday = line.date === today || line.days === todayLabel || (line.days === 'Mon-Fri' && weekday >= 1 && weekday <= 5);
    if (isToday) tr.className = 'hours__today';
    const th = doc.createElement('th');
    th.scope = 'row';
    th.textContent = line.date ? dayLabel(line.date) : line.days;
    if (isToday) {
      const mark = doc.createElement('span');
      mark.className = 'hours__today-mark';
      mark.textContent = ' (today)';
      th.append(mark);
    }
    const td = doc.createElement('td');
    td.textContent = line.text;
    if (line.note) {
      const note = doc.createElement('span');
      note.className = 'hours__note';
      note.textContent = ` ${line.note}`;
      td.append(note);
    }
    tr.append(th, td);
    return tr;
  });
  body.replaceChildren(...rows);
}

/** Enhances every hours block of `root` at `now` (ms; the browser's clock by default). */
export function enhanceHours(root: ParentNode, now: number = Date.now()): void {
  for (const block of root.querySelectorAll<HTMLElement>('[data-hours]')) {
    let data: HoursData;
    try {
      data = JSON.parse(block.dataset.hours ?? '') as HoursData;
    } catch {
      continue;
    }
    const local = localNow(data.timezone, now);
    const tables = [...block.querySelectorAll<HTMLTableElement>('table[data-hours-dept]')];
    for (const t of tables) redraw(t, data, t.dataset.hoursDept ?? '', now, local.date, local.weekday);
    // Special days already past are no longer news; days within the week are in the tables.
    const inTable = addDays(local.date, 6);
    for (const li of block.querySelectorAll<HTMLElement>('[data-special-date]')) {
      const date = li.dataset.specialDate ?? '';
      li.hidden = date < local.date || date <= inTable;
    }
    const specials = block.querySelector<HTMLElement>('[data-special-list]');
    if (specials) specials.hidden = ![...specials.querySelectorAll<HTMLElement>('[data-special-date]')].some((li) => !li.hidden);

    const status = block.querySelector<HTMLElement>('[data-open-status]');
    const show = (department: string) => {
      for (const t of tables) {
        const mine = t.dataset.hoursDept === department;
        t.hidden = !mine;
        const note = t.nextElementSibling;
        if (note instanceof HTMLElement && note.matches('[data-hours-note]')) note.hidden = !mine;
      }
      const dept = data.hours.find((d) => d.department === department);
      if (status && dept) {
        const s = openStatus(data, dept, now);
        status.textContent = s.text;
        status.classList.toggle('hours__status--open', s.open);
        status.hidden = false;
      }
    };
    const select = block.querySelector<HTMLSelectElement>('select[data-hours-select]');
    if (select && tables.length > 1) {
      select.closest<HTMLElement>('[data-hours-select-wrap]')!.hidden = false;
      select.addEventListener('change', () => show(select.value));
      show(select.value);
    } else if (status && data.hours[0]) {
      const s = openStatus(data, data.hours[0], now);
      status.textContent = s.text;
      status.classList.toggle('hours__status--open', s.open);
      status.hidden = false;
    }
  }
}
