#!/usr/bin/env node
/**
 * The pull request's one comment, from what the workflow's jobs left
 * (templates/ci/github/pull-request.yml, the comment job):
 *
 *   node scripts/pr-pictures/comment.mjs --diff <dir> --pictures <dir> --dealers "a b" > comment.md
 *
 * For each dealer: its `dealergen diff` (<diff>/<dealer>.md), its preview's
 * address (<pictures>/<dealer>/preview-url.txt, from `dealergen deploy
 * --preview`) and its pages and pictures (<pictures>/<dealer>/pictures.md,
 * from run.mjs), each part saying so when it is missing. The comment starts
 * with the marker the workflow finds it by, once, and is cut to what GitHub
 * takes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

/** Found by the workflow to update the comment in place (generator/src/diff MARKER). */
export const MARKER = '<!-- dealergen-diff -->';
/** GitHub refuses comments over 65,536 characters. */
export const LIMIT = 60_000;

const read = (file) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null);

/** The comment for `dealers`, from the folders the jobs wrote. */
export function comment({ diffDir, picturesDir, dealers }) {
  let body = '';
  for (const dealer of dealers) {
    const diff = read(path.join(diffDir, `${dealer}.md`));
    body += diff ? `${diff.replaceAll(MARKER, '').trim()}\n\n` : `## ${dealer}: no diff (the diff job failed: see its log)\n\n`;
    const preview = read(path.join(picturesDir, dealer, 'preview-url.txt'));
    body += preview
      ? `**Preview of ${dealer}**: ${preview.trim()} (its enquiries are kept in the previews' database and reach nobody)\n\n`
      : `No preview of ${dealer} (no Cloudflare token for this pull request, or its build or upload failed: see the build jobs).\n\n`;
    const pictures = read(path.join(picturesDir, dealer, 'pictures.md'));
    body += pictures ? `${pictures.trim()}\n\n` : `#### ${dealer}: no pictures (its build failed: see the build jobs)\n\n`;
  }
  if (body.length > LIMIT) body = `${body.slice(0, LIMIT)}\n\n… cut here; the whole diff is in the diff job's summary.\n`;
  return `${MARKER}\n${body}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { diff: { type: 'string' }, pictures: { type: 'string' }, dealers: { type: 'string' } } });
  if (!values.diff || !values.pictures || values.dealers === undefined) {
    console.error('usage: comment.mjs --diff <dir> --pictures <dir> --dealers "a b"');
    process.exit(2);
  }
  process.stdout.write(comment({ diffDir: values.diff, picturesDir: values.pictures, dealers: values.dealers.split(/\s+/).filter(Boolean) }));
}
