#!/usr/bin/env node
/**
 * The pull request's before/after pictures (scripts/pr-pictures/run.mjs),
 * on two real builds of the tiny fixture dealer in a temporary folder,
 * served by workerd and shot in Chromium:
 *
 *   node scripts/e2e/pictures.mjs sites/brisbane-motor-group/dist
 *     (binary: $DEALERGEN_BIN, default target/debug/dealergen; the
 *     argument: the demo dealer as built from the committed files at the
 *     demo instant, `dealergen build --all --as-of "$(node
 *     scripts/demo-stock/as-of.mjs)"`, which is the base of its pull request)
 *
 * - a YAML comment changes no page: "No page changes", no pictures (the
 *   two builds in two folders, as the workflow makes them, whose islands'
 *   ids differ);
 * - a location's phone number and one car's price: the pages list is every
 *   page whose HTML changed (each page showing the new number, the car's
 *   page), `dealergen diff --format json` names exactly its car pages, the
 *   pull request's comment (comment.mjs) has the diff, the preview line and
 *   the pages in that order, the home page and the repriced car's page are shot first, each
 *   picture is as wide as its viewport, the price on the car page and the
 *   number on the home page lie inside an outlined region while most of
 *   each page is outside every region, and the contact sheet and the
 *   comment name the pages.
 * - a demo dealer's pull request (brisbane-motor-group, two revisions: a
 *   location's phone number and one car's price): the comment has its
 *   diff, the preview's line and the pictures; the pages listed are those
 *   whose HTML changed, and the diff's car pages equal the changed ones.
 *   Its base is the demo site the test command built already (as the
 *   workflow's base is the published site); the head is built here, cold,
 *   in a folder of its own.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../lib/chromium.mjs';
import { serveInWorkerd } from '../lib/workerd-site.mjs';
import { addressOf, changeSize, comparable, comparePages, htmlFiles, kindOf, pick } from '../pr-pictures/pages.mjs';
import { diffRegions } from '../pr-pictures/regions.mjs';
import { comment, MARKER } from '../pr-pictures/comment.mjs';
import { markdown } from '../pr-pictures/sheet.mjs';
import { assert, assertEqual, createRunner } from './common.mjs';
import { dealergenBin } from '../lib/dealergen.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = dealergenBin();
const FIXTURES = path.join(ROOT, 'generator/tests/fixtures/dealers');
const AS_OF = '2026-11-20T00:00:00Z';
const OLD_PHONE = '(07) 3000 0002';
const NEW_PHONE = '(07) 3000 0992';
const CAR = 'car-9';
const NEW_PRICE = 18490;

const DEMO_SITE = process.argv[2] && path.resolve(process.argv[2]);

const { test, step, run } = createRunner();
let tmp;

/** Width and height of a PNG file, from its IHDR chunk. */
function pngSize(file) {
  const b = fs.readFileSync(file);
  assertEqual(b.subarray(1, 4).toString('latin1'), 'PNG', `${file} is not a PNG`);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function edit(file, change) {
  fs.writeFileSync(file, change(fs.readFileSync(file, 'utf8')));
}

/** RGBA rows `width` wide, white, with the pixels at `[x, y]` black. */
function picture(width, height, dark = []) {
  const px = new Uint8ClampedArray(width * height * 4).fill(255);
  for (const [x, y] of dark) px.fill(0, (y * width + x) * 4, (y * width + x) * 4 + 3);
  return px;
}

async function main() {
  await test('regions, the page order and the comment, without a browser', async () => {
    const opts = { tolerance: 24, gap: 4 };
    const w = 10;
    assertEqual(JSON.stringify(diffRegions(picture(w, 20), picture(w, 20), w, 20, 20, opts)), '[]', 'same pictures');
    // Two changes 2 rows apart are one region; one 10 rows further is another.
    const regions = diffRegions(picture(w, 30), picture(w, 30, [[2, 3], [6, 5], [1, 15]]), w, 30, 30, opts);
    assertEqual(JSON.stringify(regions), JSON.stringify([{ x: 2, y: 3, width: 5, height: 3 }, { x: 1, y: 15, width: 1, height: 1 }]), 'regions');
    // A longer page: its extra rows differ whole.
    assertEqual(JSON.stringify(diffRegions(picture(w, 20), picture(w, 24), w, 20, 24, opts)), JSON.stringify([{ x: 0, y: 20, width: 10, height: 4 }]), 'longer page');
    // Antialiasing noise is no change.
    const noisy = picture(w, 5);
    noisy[0] = 240;
    assertEqual(diffRegions(picture(w, 5), noisy, w, 5, 5, opts).length, 0, 'noise under the tolerance');

    assertEqual(JSON.stringify(changeSize('<p>$19,990</p><p>a</p>', '<p>$19,990</p><p>a</p>')), JSON.stringify({ text: 0, size: 0 }), 'same page');
    assert(changeSize('<p>$19,990</p><p>(07) 1</p>', '<p>$18,490</p><p>(07) 2</p>').text > changeSize('<p>$19,990</p><p>(07) 1</p>', '<p>$19,990</p><p>(07) 2</p>').text, 'two changes score above one');
    const propsOnly = changeSize('<astro-island props="{&quot;phone&quot;:1}"></astro-island><script>a=1</script>', '<astro-island props="{&quot;phone&quot;:2}"></astro-island><script>a=2</script>');
    assert(propsOnly.text === 0 && propsOnly.size > 0, `a change in props and scripts alone is not shown text: ${JSON.stringify(propsOnly)}`);
    assertEqual(comparable('<astro-island uid="Z1x" prefix="r1">'), comparable('<astro-island uid="9aB" prefix="r1">'), 'island ids');
    assert(comparable('<div uid="1">') !== comparable('<div uid="2">'), 'only an island\'s id is taken out');
    assertEqual(kindOf('/cars/a-car/'), 'car', 'car page');
    assertEqual(kindOf('/cars/a-car/reserve/'), 'car form', 'a car form is not a car page');
    assertEqual(kindOf('/search/used-cars/'), 'search landing', 'landing page');
    const size = (text, whole = text) => ({ text, size: whole });
    const cars = Array.from({ length: 20 }, (_, i) => ({ address: `/cars/c${i}/`, status: 'changed', size: i === 7 ? size(50) : size(2) }));
    const pages = [...cars, { address: '/privacy/', status: 'changed', size: size(1) }, { address: '/', status: 'changed', size: size(0, 9) }, { address: '/search/', status: 'changed', size: size(3) }];
    const chosen = pick(pages, 5).map((p) => p.address);
    assertEqual(JSON.stringify(chosen), JSON.stringify(['/cars/c7/', '/search/', '/privacy/', '/cars/c0/', '/cars/c1/']), 'shown changes first, one of each kind in turn, the most changed car first');
    assertEqual(pick(pages, 30).at(-1).address, '/', 'a page whose change is not shown comes last');

    const none = markdown({ dealer: 'd', instant: null, changed: [], added: [], removed: [], unchanged: 9, widths: [375], shot: [] });
    assert(none.includes('No page changes') && none.includes('9 pages'), none);
    const hostile = markdown({ dealer: 'd', instant: null, changed: ['/a|b`c/'], added: [], removed: [], unchanged: 0, widths: [375], shot: [] });
    assert(hostile.includes('`/a b c/`'), `a page address escapes its code span: ${hostile}`);
  });

  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dealergen-pictures-e2e-'));
  const dealers = path.join(tmp, 'dealers');
  fs.mkdirSync(path.join(dealers, 'stock'), { recursive: true });
  for (const f of ['tiny-dealer.yaml', 'stock/tiny.json']) fs.copyFileSync(path.join(FIXTURES, f), path.join(dealers, f));
  const yaml = path.join(dealers, 'tiny-dealer.yaml');
  const feed = path.join(dealers, 'stock/tiny.json');
  const { git, build, diff: diffOf, pictures } = dealerRepo(dealers, 'tiny-dealer', AS_OF);
  const published = build('sites-base');
  const diffJson = () => JSON.parse(diffOf('json'));

  await test('a YAML comment changes no page: no pictures', async () => {
    edit(yaml, (t) => `# A marketer's note: nothing on the site changes.\n${t}`);
    const commented = build('sites-comment');
    const out = path.join(tmp, 'out-comment');
    const { record, md } = pictures(published, commented, out);
    assertEqual(record.changed.length + record.added.length + record.removed.length, 0, `pages listed: ${JSON.stringify(record)}`);
    assert(record.unchanged > 5, `only ${record.unchanged} pages compared`);
    assert(md.includes('No page changes'), md);
    assertEqual(fs.readdirSync(path.join(out, 'pages')).length, 0, 'pictures taken');
    assert(!fs.existsSync(path.join(out, 'contact-sheet.png')), 'a contact sheet without changes');
  });

  edit(yaml, (t) => {
    assert(t.includes(`phone: ${OLD_PHONE}`), `the fixture has no location phone ${OLD_PHONE}`);
    return t.replace(`phone: ${OLD_PHONE}`, `phone: ${NEW_PHONE}`);
  });
  edit(feed, (t) => {
    const cars = JSON.parse(t);
    const car = cars.find((c) => c.slug === CAR);
    assert(car && car.price !== NEW_PRICE, `the fixture has no ${CAR} to reprice`);
    car.price = NEW_PRICE;
    return JSON.stringify(cars);
  });
  const head = build('sites-head');
  const out = path.join(tmp, 'out');
  let record;
  let md;

  await step('a phone number and a price: every page whose HTML changed is listed', async () => {
    // Four pages (the workflow's default is eight): the order, the widths
    // and the regions are all judged on the first ones shot.
    ({ record, md } = pictures(published, head, out, ['--max', '4']));
    const changedHere = htmlFiles(head)
      .filter((f) => comparable(fs.readFileSync(path.join(published, f), 'utf8')) !== comparable(fs.readFileSync(path.join(head, f), 'utf8')))
      .map(addressOf);
    assertEqual(JSON.stringify(record.changed), JSON.stringify(changedHere), 'changed pages');
    assert(record.changed.includes(`/cars/${CAR}/`), `${CAR}'s page is not listed: ${record.changed}`);
    const digits = NEW_PHONE.replace(/\D/g, '');
    const showing = htmlFiles(head).filter((f) => fs.readFileSync(path.join(head, f), 'utf8').replace(/\D/g, '').includes(digits));
    assert(showing.length > 1, 'no page shows the new number');
    for (const f of showing) assert(record.changed.includes(addressOf(f)), `${addressOf(f)} shows the new number but is not listed`);
    assert(record.unchanged > 0, 'every page changed: the list tells nothing');
    assertEqual(record.added.length + record.removed.length, 0, 'pages added or removed');
  });

  await step("dealergen diff names exactly the car pages whose HTML changed", async () => {
    const said = diffJson();
    const carPages = (list) => list.filter((a) => kindOf(a) === 'car').sort();
    assert(said.car_pages.changed.includes(`/cars/${CAR}/`), `the diff misses ${CAR}: ${JSON.stringify(said)}`);
    assert(said.car_pages.changed.length > 1, `only ${CAR}'s page: the location's number shows on its other cars' pages too`);
    assertEqual(JSON.stringify([...said.car_pages.changed].sort()), JSON.stringify(carPages(record.changed)), 'car pages the diff says change, against those whose HTML changed');
    assertEqual(JSON.stringify(said.car_pages.added), JSON.stringify(carPages(record.added)), 'car pages added');
    assertEqual(JSON.stringify(said.car_pages.removed), JSON.stringify(carPages(record.removed)), 'car pages removed');
  });

  await step("the pull request's comment: the diff, the preview (none here) and the pictures", async () => {
    const diffDir = path.join(tmp, 'diff');
    const picturesDir = path.join(tmp, 'pictures');
    fs.mkdirSync(diffDir);
    fs.writeFileSync(path.join(diffDir, 'tiny-dealer.md'), diffOf());
    fs.mkdirSync(path.join(picturesDir, 'tiny-dealer'), { recursive: true });
    fs.copyFileSync(path.join(out, 'pictures.md'), path.join(picturesDir, 'tiny-dealer', 'pictures.md'));
    const text = comment({ diffDir, picturesDir, dealers: ['tiny-dealer', 'gone-dealer'] });
    assert(text.startsWith(`${MARKER}\n`) && text.split(MARKER).length === 2, 'the marker, once, first');
    let at = finder(text);
    // The diff names the price and the phone's setting; then the preview line; then the pages.
    const diff = at('## dealergen diff: `tiny-dealer`');
    at('$18,490');
    at('locations[');
    const preview = at('No preview of tiny-dealer');
    const pages = at(`**${record.changed.length} changed, 0 added, 0 removed**`);
    assert(diff < preview && preview < pages, 'diff, preview, pictures: in that order');
    at('## gone-dealer: no diff');
    at('#### gone-dealer: no pictures');
    // With a preview, its address.
    fs.writeFileSync(path.join(picturesDir, 'tiny-dealer', 'preview-url.txt'), 'https://pr-7-dealergen-site-tiny-dealer.x.workers.dev\n');
    at = finder(comment({ diffDir, picturesDir, dealers: ['tiny-dealer'] }));
    at("**Preview of tiny-dealer**: https://pr-7-dealergen-site-tiny-dealer.x.workers.dev (its enquiries are kept in the previews' database and reach nobody)");
  });

  await test('a folder of other files is never emptied for the pictures', async () => {
    const other = path.join(tmp, 'not-pictures');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'keep.txt'), 'mine');
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/pr-pictures/run.mjs'), '--before', published, '--after', head, '--out', other], { encoding: 'utf8' });
    assertEqual(r.status, 2, `exit status: ${r.stderr}`);
    assert(r.stderr.includes('holds other files'), r.stderr);
    assertEqual(fs.readFileSync(path.join(other, 'keep.txt'), 'utf8'), 'mine', 'the file kept');
  });

  await step('most-visited kinds first, each picture as wide as its viewport', async () => {
    assertEqual(record.shot.length, 4, 'pages shot (--max 4)');
    assertEqual(record.shot[0].address, '/', 'first page shot');
    assertEqual(record.shot[1].kind, 'car', 'second page shot');
    for (const entry of record.shot) {
      for (const width of [375, 1280]) {
        const w = entry.widths[width];
        assert(w, `${entry.address} not shot at ${width} px`);
        for (const key of ['before', 'after', 'beforeCrop', 'afterCrop']) {
          const file = path.join(out, w.files[key]);
          assertEqual(pngSize(file).width, width, `${file} width`);
        }
        assert(w.regions.length > 0, `${entry.address} at ${width} px: changed HTML, no region outlined`);
      }
    }
  });

  await step("the repriced car's price and the home page's phone number lie in outlined regions, most of each page in none", async () => {
    assertEqual(record.shot.find((e) => e.kind === 'car')?.address, `/cars/${CAR}/`, 'the car page shot (the most changed first)');
    const cases = [
      { address: `/cars/${CAR}/`, text: '$18,490' },
      { address: '/', text: NEW_PHONE },
    ];
    const server = await serveInWorkerd(head);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      for (const { address, text } of cases) {
        const entry = record.shot.find((e) => e.address === address);
        assert(entry, `${address} not shot`);
        for (const width of [375, 1280]) {
          const page = await browser.newPage({ viewport: { width, height: 900 }, reducedMotion: 'reduce' });
          await page.clock.setFixedTime(new Date(AS_OF));
          await page.route(/\/api\//, (r) => r.fulfill({ status: 200, contentType: 'application/json', body: '{}' }));
          await page.goto(server.origin + address, { waitUntil: 'networkidle' });
          const box = await page.evaluate((t) => {
            // The innermost element on show whose text has `t`.
            const all = [...document.body.querySelectorAll('*')].filter((el) => el.textContent.includes(t) && el.getClientRects().length > 0);
            const inner = all.filter((el) => ![...el.children].some((c) => all.includes(c)));
            const r = inner[0]?.getBoundingClientRect();
            return r && { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height };
          }, text);
          await page.close();
          assert(box, `${text} not shown on ${address} at ${width} px`);
          const { regions } = entry.widths[width];
          const inside = regions.some((r) => box.x < r.x + r.width && r.x < box.x + box.width && box.y < r.y + r.height && r.y < box.y + box.height);
          assert(inside, `${text} at ${JSON.stringify(box)} on ${address} is in no outlined region at ${width} px: ${JSON.stringify(regions)}`);
          const { height } = pngSize(path.join(out, entry.widths[width].files.after));
          const outlined = regions.reduce((sum, r) => sum + r.height, 0);
          assert(outlined < height * 0.6, `${outlined} of ${height} rows of ${address} outlined at ${width} px: the change is not located`);
        }
      }
    } finally {
      await browser.close();
      await server.close();
    }
  });

  await test("with phone reveal on, a masked number's hidden digits change no car page, and the diff names none", () => maskedNumber({ yaml, git, build, diffJson }));

  await test("a demo dealer's pull request: the comment with its diff, preview line and pictures", () => demoPullRequest());

  await step('the contact sheet and the comment name the pages shot', async () => {
    const sheet = pngSize(path.join(out, 'contact-sheet.png'));
    assert(sheet.width >= 1400 && sheet.height > 400 * record.shot.length, `contact sheet ${JSON.stringify(sheet)}`);
    const html = fs.readFileSync(path.join(out, 'sheet.html'), 'utf8');
    for (const entry of record.shot) {
      assert(html.includes(`<h2>${entry.address} `), `${entry.address} not on the sheet`);
      assert(md.includes(`| \`${entry.address}\` |`), `${entry.address} not in the comment:\n${md}`);
    }
    assert(md.includes(`**${record.changed.length} changed, 0 added, 0 removed**`), md);
    assert(md.includes(`as at ${AS_OF.replace('Z', '.000Z')}`), md);
  });
}

/**
 * A dealer repository in `dir` (git, as a dealer's own repository is:
 * `dealergen diff` compares the working tree with its HEAD, committed here
 * as the base) and what the pull request workflow runs on it for `slug`
 * at the instant `asOf`.
 */
function dealerRepo(dir, slug, asOf) {
  const git = (...args) => {
    const r = spawnSync('git', ['-C', dir, '-c', 'user.name=test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { encoding: 'utf8' });
    assertEqual(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  };
  const dealergen = (args, what) => {
    const r = spawnSync(BIN, ['--root', ROOT, '--dealers-dir', dir, ...args], { encoding: 'utf8', cwd: dir });
    assertEqual(r.status, 0, `dealergen ${what} failed:\n${r.stdout}\n${r.stderr}`);
    return r.stdout;
  };
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
  return {
    git,
    /**
     * Builds the dealer into a sites folder of its own (`tmp/<name>`), as
     * the workflow builds the base branch and the pull request in two
     * checkouts (so the page cache of one cannot make the other's pages
     * equal); returns its dist.
     */
    build: (name) => {
      const into = path.join(tmp, name);
      dealergen(['--sites-dir', into, 'build', '--dealer', slug, '--as-of', asOf], 'build');
      return fs.realpathSync(path.join(into, slug, 'dist'));
    },
    /** `dealergen diff` against HEAD (Markdown, or `format`). */
    diff: (format) => dealergen(['diff', '--dealer', slug, '--base', 'HEAD', '--as-of', asOf, ...(format ? ['--format', format] : [])], 'diff'),
    /** The pictures of `before` → `after` into `out` (scripts/pr-pictures/run.mjs): pictures.json and pictures.md. */
    pictures: (before, after, out, extra = []) => {
      const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/pr-pictures/run.mjs'), '--before', before, '--after', after, '--out', out, '--dealer', slug, '--as-of', asOf, ...extra], { encoding: 'utf8' });
      assertEqual(r.status, 0, `pr-pictures failed:\n${r.stdout}\n${r.stderr}`);
      return { record: JSON.parse(fs.readFileSync(path.join(out, 'pictures.json'), 'utf8')), md: fs.readFileSync(path.join(out, 'pictures.md'), 'utf8') };
    },
  };
}

/** Where `text` has `s` (its index), failing with the text when it has none. */
function finder(text) {
  return (s) => {
    const i = text.indexOf(s);
    assert(i >= 0, `the comment has no "${s}":\n${text}`);
    return i;
  };
}

/**
 * With `features.phone_reveal` on, car pages show a location's number
 * masked: a change to its hidden last digits changes no car page, and the
 * diff must say so (it named every car at that location before their data
 * carried the number masked).
 */
async function maskedNumber({ yaml, git, build, diffJson }) {
  edit(yaml, (t) => {
    assert(/^features:\n/m.test(t), 'the fixture has no features block');
    return t.replace(/^features:\n/m, 'features:\n  phone_reveal: true\n');
  });
  git('add', '-A');
  git('commit', '-q', '-m', 'phone reveal on');
  const before = build('sites-reveal-base');
  edit(yaml, (t) => t.replace(`phone: ${NEW_PHONE}`, `phone: ${NEW_PHONE.slice(0, -1)}3`));
  const after = build('sites-reveal-head');
  const pages = comparePages(before, after);
  assert(pages.changed.includes('/'), `the home page shows the number: ${JSON.stringify(pages)}`);
  assertEqual(JSON.stringify(pages.changed.filter((a) => kindOf(a) === 'car')), '[]', 'car pages whose HTML changed');
  assertEqual(JSON.stringify(diffJson().car_pages.changed), '[]', 'car pages the diff says change');
}

/**
 * A pull request on a demo dealer, as the workflow runs it: the dealer's
 * files in a git repository, the base and head built in two folders at one
 * instant, `dealergen diff` (Markdown and JSON), the pictures, the comment.
 */
async function demoPullRequest() {
  const DEMO = 'brisbane-motor-group';
  const asOf = spawnSync(process.execPath, [path.join(ROOT, 'scripts/demo-stock/as-of.mjs')], { encoding: 'utf8' }).stdout.trim();
  assert(asOf, 'no demo instant');
  const repo = path.join(tmp, 'demo-dealers');
  fs.mkdirSync(path.join(repo, 'stock'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'dealers', `${DEMO}.yaml`), path.join(repo, `${DEMO}.yaml`));
  fs.copyFileSync(path.join(ROOT, 'dealers/stock', `${DEMO}.json`), path.join(repo, 'stock', `${DEMO}.json`));
  fs.cpSync(path.join(ROOT, 'dealers', DEMO), path.join(repo, DEMO), { recursive: true });
  const { build, diff: diffOf, pictures } = dealerRepo(repo, DEMO, asOf);
  // The base: the demo site built from these files at this instant.
  assert(DEMO_SITE, 'usage: node scripts/e2e/pictures.mjs sites/brisbane-motor-group/dist (the built demo site)');
  const base = fs.realpathSync(DEMO_SITE);
  // The site project's data, beside its dist/ (sites/<slug>/src/data).
  const data = (file) => JSON.parse(fs.readFileSync(path.join(path.dirname(DEMO_SITE), 'src/data', file), 'utf8'));
  assertEqual(data('site.json').built_at, Date.parse(asOf) / 1000, `${DEMO_SITE} was not built at the demo instant (--as-of "$(node scripts/demo-stock/as-of.mjs)")`);

  // The pull request: the Newstead phone number and one car's price.
  edit(path.join(repo, `${DEMO}.yaml`), (t) => {
    assert(t.includes('phone: (07) 3555 0101'), 'the demo dealer has no Newstead number');
    return t.replace('phone: (07) 3555 0101', 'phone: (07) 3555 0191');
  });
  const cars = data('cars.json');
  const car = cars.find((c) => c.status === 'in_stock' && c.price > 20000);
  assert(car, 'no in-stock demo car to reprice');
  const newPrice = car.price - 1000;
  edit(path.join(repo, 'stock', `${DEMO}.json`), (t) => {
    const feed = JSON.parse(t);
    const entry = feed.find((c) => String(c.id) === String(car.id));
    assert(entry, `car ${car.id} is not in the feed`);
    entry.price = newPrice;
    return JSON.stringify(feed);
  });
  const head = build('demo-head');

  const out = path.join(tmp, 'demo-pictures', DEMO);
  const { record } = pictures(base, head, out, ['--max', '3']);
  const html = comparePages(base, head);
  assertEqual(JSON.stringify(record.changed), JSON.stringify(html.changed), 'pages listed against the pages whose HTML changed');
  assert(record.changed.includes(`/cars/${car.slug}/`), `the repriced car's page is not listed: ${record.changed}`);
  assertEqual(record.shot.length, 3, 'pages shot (--max 3)');
  assert(fs.existsSync(path.join(out, 'contact-sheet.png')), 'no contact sheet');

  const said = JSON.parse(diffOf('json'));
  const carPages = (list) => list.filter((a) => kindOf(a) === 'car').sort();
  assertEqual(JSON.stringify([...said.car_pages.changed].sort()), JSON.stringify(carPages(html.changed)), 'car pages the diff says change, against those whose HTML changed');

  const diffDir = path.join(tmp, 'demo-diff');
  fs.mkdirSync(diffDir);
  fs.writeFileSync(path.join(diffDir, `${DEMO}.md`), diffOf());
  fs.writeFileSync(path.join(out, 'preview-url.txt'), `https://pr-12-dealergen-site-${DEMO}.x.workers.dev\n`);
  const at = finder(comment({ diffDir, picturesDir: path.dirname(out), dealers: [DEMO] }));
  const diff = at(`## dealergen diff: \`${DEMO}\``);
  at(`$${newPrice.toLocaleString('en-AU')}`);
  const preview = at(`**Preview of ${DEMO}**: https://pr-12-dealergen-site-${DEMO}.x.workers.dev`);
  const pages = at(`**${record.changed.length} changed, 0 added, 0 removed**`);
  assert(diff < preview && preview < pages, 'diff, preview, pictures: in that order');
  for (const entry of record.shot) at(`| \`${entry.address}\` |`);
}

await run(main, { shutdown: () => tmp && fs.rmSync(tmp, { recursive: true, force: true }) });
