/**
 * What the pictures are shown in: the contact sheet (an HTML page Chromium
 * turns into one PNG: each page shot, before | after at each width, cropped
 * around the first change) and the pull request comment's section.
 */

/** Pages a comment names before it says "and N more". */
export const LISTED = 30;

const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Markdown text for a table cell or a code span: no pipes, backticks or line breaks can break out. */
const cell = (s) => String(s).replace(/[|`\r\n]/g, ' ');

/** Shown width of a picture on the sheet: two side by side fit 1,400 px. */
const shownWidth = (width) => Math.min(width, width <= 500 ? 320 : 620);

/** The contact sheet of `record` (run.mjs's pictures.json) as a page. */
export function sheetHtml(record) {
  const sections = record.shot.map((entry) => {
    const rows = record.widths.map((width) => {
      const w = entry.widths[width];
      const side = (label, file) =>
        file
          ? `<figure><figcaption>${label}</figcaption><img src="${escapeHtml(file)}" width="${shownWidth(width)}" alt="${label} at ${width} px"></figure>`
          : `<figure><figcaption>${label}</figcaption><div class="none" style="width:${shownWidth(width)}px">no page</div></figure>`;
      return `<div class="row"><div class="width">${width} px<br>${w.regions.length} region(s)</div>${side('before', w.files.beforeCrop)}${side('after', w.files.afterCrop)}</div>`;
    });
    return `<section><h2>${escapeHtml(entry.address)} <small>${escapeHtml(entry.kind)} · ${escapeHtml(entry.status)}</small></h2>${rows.join('')}</section>`;
  });
  const title = `${record.dealer}: ${record.changed.length} changed, ${record.added.length} added, ${record.removed.length} removed`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>
body{font:14px/1.4 system-ui,sans-serif;margin:16px;background:#f4f4f6;color:#111;width:1368px}
h1{font-size:20px;margin:0 0 4px}p.meta{margin:0 0 16px;color:#444}
section{background:#fff;border:1px solid #ccd;border-radius:6px;padding:8px 12px;margin:0 0 16px}
h2{font-size:16px;margin:0 0 8px;word-break:break-all}h2 small{font-weight:normal;color:#555}
.row{display:flex;gap:12px;align-items:flex-start;margin:0 0 8px}.width{width:80px;color:#444}
figure{margin:0}figcaption{font-weight:600;margin:0 0 2px}img{display:block;border:1px solid #bbc;height:auto}
.none{height:120px;border:1px dashed #bbc;display:flex;align-items:center;justify-content:center;color:#666}
</style></head><body><h1>${escapeHtml(title)}</h1><p class="meta">${record.instant ? `As at ${escapeHtml(record.instant)}. ` : ''}${record.shot.length} of ${record.changed.length + record.added.length + record.removed.length} page(s) shown; changes outlined in magenta.</p>${sections.join('')}</body></html>`;
}

/**
 * The comment's section for `record`: what changed, the pages shot and
 * where their pictures are (`link`: the page holding them, e.g. the
 * workflow run; `artifact`: the name of the artifact there).
 */
export function markdown(record, { link, artifact } = {}) {
  const total = record.changed.length + record.added.length + record.removed.length;
  const lines = [`#### Pages ${cell(record.dealer)}'s change alters${record.instant ? ` (as at ${record.instant})` : ''}`, ''];
  if (total === 0) {
    lines.push(`No page changes: every one of the ${record.unchanged} pages is the same as published, so there are no pictures.`);
    return `${lines.join('\n')}\n`;
  }
  lines.push(
    `**${record.changed.length} changed, ${record.added.length} added, ${record.removed.length} removed** (${record.unchanged} unchanged). ` +
      `Pictures of ${record.shot.length} at ${record.widths.join(' and ')} px, before and after, the changes outlined${link ? `: [contact sheet](${link})${artifact ? ` in the \`${cell(artifact)}\` artifact` : ''}` : ' (contact-sheet.png)'}.`,
    '',
    `| page | kind | change | regions (${record.widths.map((w) => `${w} px`).join(' / ')}) |`,
    '|---|---|---|---|',
  );
  for (const entry of record.shot) {
    lines.push(`| \`${cell(entry.address)}\` | ${cell(entry.kind)} | ${entry.status} | ${record.widths.map((w) => entry.widths[w].regions.length).join(' / ')} |`);
  }
  if (record.shot.some((e) => record.widths.some((w) => e.widths[w].regions.length === 0))) {
    lines.push('', '0 regions: the page\'s HTML changed but nothing on show at that width did (e.g. text in a closed menu, or the page\'s data for search engines).');
  }
  const shot = new Set(record.shot.map((e) => e.address));
  const rest = [
    ...record.changed.map((a) => [a, 'changed']),
    ...record.added.map((a) => [a, 'added']),
    ...record.removed.map((a) => [a, 'removed']),
  ].filter(([a]) => !shot.has(a));
  if (rest.length) {
    lines.push('', `<details><summary>${rest.length} more page(s) without pictures</summary>`, '');
    for (const [a, status] of rest.slice(0, LISTED)) lines.push(`- \`${cell(a)}\` (${status})`);
    if (rest.length > LISTED) lines.push(`- … and ${rest.length - LISTED} more`);
    lines.push('', '</details>');
  }
  return `${lines.join('\n')}\n`;
}
