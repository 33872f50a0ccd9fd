#!/usr/bin/env node
/**
 * Fails when a crate has a loop between its modules (a uses b, b uses a,
 * directly or through others), at two levels: its top-level modules (the
 * generator's layers, listed in generator/src/lib.rs, point one way), and
 * its files at any depth (`pipeline/stock/detail.rs` and `present.rs` must
 * not import each other either: a loop inside a module hides which file is
 * the base of the others). Reads the non-test code of every crate's src/:
 * `crate::a::b` paths, `use crate::{a, ...}` groups and `super::x` paths;
 * comments, strings' contents and `#[cfg(test)]` modules are left out. At
 * file level a path names the deepest file it reaches, and a parent and
 * its own child naming each other is not a loop (`mod x;` and `pub use`
 * in the parent, `super::Item` in the child are normal Rust).
 *
 *   node scripts/module-cycles.mjs [crate dir...]   (default: every crate of the workspace)
 *   node scripts/module-cycles.mjs --self-test       (a crate with a loop must fail)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const CRATES = ['rules', 'config', 'generator', 'edge/core', 'edge'];

/** The code without comments, string contents and #[cfg(test)] items. */
export function codeOnly(text) {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const two = text.slice(i, i + 2);
    if (two === '//') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (two === '/*') {
      let depth = 0;
      do {
        if (text.startsWith('/*', i)) {
          depth++;
          i += 2;
        } else if (text.startsWith('*/', i)) {
          depth--;
          i += 2;
        } else {
          i++;
        }
      } while (depth > 0 && i < text.length);
    } else if (text[i] === "'" && /^'(\\.|[^\\'\n])'/.test(text.slice(i, i + 4))) {
      // A char literal ('"' must not open a string); a lifetime ('a) is not one.
      const m = text.slice(i).match(/^'(\\.|[^\\'\n])'/);
      out += "' '";
      i += m[0].length;
    } else if (text[i] === '"') {
      out += '""';
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
    } else if (/^r#*"/.test(text.slice(i, i + 8)) && !/\w/.test(text[i - 1] ?? '')) {
      const hashes = text.slice(i + 1).match(/^#*/)[0];
      const end = text.indexOf(`"${hashes}`, i + 2 + hashes.length);
      out += '""';
      i = end < 0 ? text.length : end + 1 + hashes.length;
    } else {
      out += text[i++];
    }
  }
  // A #[cfg(test)] item: the attribute and the braced block after it.
  let cut = out;
  for (;;) {
    const at = cut.search(/#\[cfg\(test\)\]/);
    if (at < 0) break;
    const open = cut.indexOf('{', at);
    const semi = cut.indexOf(';', at);
    if (open < 0 || (semi >= 0 && semi < open)) {
      cut = cut.slice(0, at) + cut.slice(semi + 1);
      continue;
    }
    let depth = 0;
    let j = open;
    for (; j < cut.length; j++) {
      if (cut[j] === '{') depth++;
      else if (cut[j] === '}' && --depth === 0) break;
    }
    cut = cut.slice(0, at) + cut.slice(j + 1);
  }
  return cut;
}

function rustFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.rs'))
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
}

/** Tarjan's strongly connected components of `edges`; a component of two or more is a loop. */
function stronglyConnected(edges) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const loops = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), idx.get(w)));
      }
    }
    if (low.get(v) === idx.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) loops.push(component.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!idx.has(v)) visit(v);
  return loops;
}

/**
 * The loops between a crate's top-level modules: each a list of modules.
 * The paths every file names (`namedPaths`, as for the file level) counted
 * by the top-level module they start in.
 */
export function cyclesOf(src) {
  const files = fileModules(src);
  const names = new Set([...files.keys()].map((m) => m.split('/')[0]).filter(Boolean));
  const edges = new Map([...names].map((n) => [n, new Set()]));
  for (const [mod, file] of files) {
    const top = mod.split('/')[0];
    if (!top) continue; // lib.rs or main.rs: the crate's root declares the modules
    for (const [first] of namedPaths(codeOnly(fs.readFileSync(file, 'utf8')), mod)) {
      if (names.has(first) && first !== top) edges.get(top).add(first);
    }
  }
  return { modules: names.size, loops: stronglyConnected(edges), edges };
}

/** The module path of each .rs file of `src`: "a/b" for a/b.rs or a/b/mod.rs, "" for lib.rs. */
function fileModules(src) {
  const out = new Map();
  for (const file of rustFiles(src)) {
    const parts = path.relative(src, file).slice(0, -3).split(path.sep);
    if (['mod', 'lib', 'main'].includes(parts.at(-1))) parts.pop();
    out.set(parts.join('/'), file);
  }
  return out;
}

/** The paths `code` names from the crate root: `crate::a::b` and, relative to `here`, `super::x`. */
export function namedPaths(code, here) {
  // use crate::{a::X, b} / super::{x, y}: one path per item of the group (nested groups by their head).
  const paths = [];
  const groups = /\b(crate|super(?:\s*::\s*super)*)\s*::\s*\{/g;
  for (const m of code.matchAll(groups)) {
    let depth = 0;
    let item = '';
    const head = m[1].replace(/\s+/g, '');
    for (let i = m.index + m[0].length - 1; i < code.length; i++) {
      const c = code[i];
      if (c === '{' && ++depth === 1) continue;
      if (c === '}' && --depth === 0) {
        paths.push(`${head}::${item.trim()}`);
        break;
      }
      if (depth === 1 && c === ',') {
        paths.push(`${head}::${item.trim()}`);
        item = '';
      } else if (depth >= 1) item += c;
    }
  }
  for (const m of code.matchAll(/\b(?:crate|(?:super\s*::\s*)+)(?:\s*::\s*)?\w+(?:\s*::\s*\w+)*/g)) paths.push(m[0]);
  const out = [];
  for (const raw of paths) {
    const segs = raw.split(/\s+as\s+/)[0].replace(/\s+/g, '').split('::').filter((x) => x && x !== '{');
    if (segs[0] === 'crate') out.push(segs.slice(1));
    else if (segs[0] === 'super') {
      let base = here.split('/').filter(Boolean);
      let k = 0;
      while (segs[k] === 'super') {
        base = base.slice(0, -1);
        k++;
      }
      out.push([...base, ...segs.slice(k)]);
    }
  }
  return out;
}

/** The loops between a crate's files at any depth: each a list of module paths. */
export function fileCyclesOf(src) {
  const files = fileModules(src);
  const deepest = (segs) => {
    for (let n = segs.length; n > 0; n--) {
      const key = segs.slice(0, n).join('/');
      if (files.has(key)) return key;
    }
    return undefined;
  };
  const within = (inner, outer) => outer === '' || inner === outer || inner.startsWith(`${outer}/`);
  const edges = new Map();
  for (const [mod, file] of files) {
    const to = new Set();
    for (const segs of namedPaths(codeOnly(fs.readFileSync(file, 'utf8')), mod)) {
      const target = deepest(segs);
      if (target !== undefined && !within(target, mod) && !within(mod, target)) to.add(target);
    }
    edges.set(mod, to);
  }
  return { modules: files.size, loops: stronglyConnected(edges), edges };
}

function selfTest() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dealergen-cycles-'));
  try {
    fs.mkdirSync(path.join(dir, 'c'));
    fs.writeFileSync(path.join(dir, 'lib.rs'), 'pub mod a;\npub mod b;\npub mod c;\npub mod d;\n');
    // The char literal comes first: read as a string's opening quote, it would hide the import after it.
    fs.writeFileSync(path.join(dir, 'a.rs'), "fn q(c: char) -> bool { c == '\"' }\nuse crate::{b::Thing, d};\n// crate::c is only in a comment\n");
    fs.writeFileSync(path.join(dir, 'b.rs'), 'pub struct Thing;\nfn f() { let _ = "crate::a"; }\n#[cfg(test)]\nmod tests { use crate::a; }\n');
    fs.writeFileSync(path.join(dir, 'c', 'mod.rs'), 'mod inner;\n');
    fs.writeFileSync(path.join(dir, 'c', 'inner.rs'), 'use super::super::a;\npub fn g() { crate::a::h(); }\n');
    fs.writeFileSync(path.join(dir, 'd.rs'), "fn y<'a>(s: &'a str) -> bool { s == \"'\" }\npub fn x() { super::c::inner::g(); }\n");
    const { loops, edges } = cyclesOf(dir);
    const want = JSON.stringify([['a', 'c', 'd']]);
    if (JSON.stringify(loops) !== want) throw new Error(`self-test: expected the loop ${want}, found ${JSON.stringify(loops)}`);
    if (edges.get('b').size !== 0) throw new Error(`self-test: b's comment, string and test module counted: ${[...edges.get('b')]}`);
    console.log('self-test: the loop a -> d -> c -> a is found; comments, strings and test modules are not counted');
    // Inside one module: x and y name each other (one through a use group,
    // one through a path); z is x's child and names its parent's items,
    // which is not a loop.
    fs.mkdirSync(path.join(dir, 'e', 'x'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'lib.rs'), 'pub mod a;\npub mod b;\npub mod c;\npub mod d;\npub mod e;\n');
    fs.writeFileSync(path.join(dir, 'e', 'mod.rs'), 'pub mod x;\npub mod y;\npub use x::X;\n');
    fs.writeFileSync(path.join(dir, 'e', 'x.rs'), 'pub mod z;\nuse super::{y::Y as Why, X};\npub struct X;\n');
    fs.writeFileSync(path.join(dir, 'e', 'x', 'z.rs'), 'use super::X;\n');
    fs.writeFileSync(path.join(dir, 'e', 'y.rs'), 'pub struct Y;\nfn f() -> crate::e::x::X { crate::e::x::X }\n');
    const files = fileCyclesOf(dir);
    const wantFiles = JSON.stringify([['a', 'c/inner', 'd'], ['e/x', 'e/y']]);
    if (JSON.stringify(files.loops) !== wantFiles) throw new Error(`self-test: expected the file loops ${wantFiles}, found ${JSON.stringify(files.loops)}`);
    if (files.edges.get('e/x/z').size !== 0) throw new Error(`self-test: a child naming its parent counted: ${[...files.edges.get('e/x/z')]}`);
    console.log('self-test: the file loop e/x -> e/y -> e/x is found; a child naming its parent is not a loop');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--self-test')) {
  selfTest();
} else {
  const crates = process.argv.slice(2).length ? process.argv.slice(2) : CRATES;
  let failed = false;
  const report = (crate, level, { modules, loops, edges }) => {
    if (loops.length === 0) {
      console.log(`${crate}: ${modules} ${level}, no loop`);
      return;
    }
    failed = true;
    for (const loop of loops) {
      const inLoop = new Set(loop);
      const links = loop.flatMap((m) => [...edges.get(m)].filter((n) => inLoop.has(n)).map((n) => `${m} -> ${n}`));
      console.log(`${crate}: a loop between ${level} ${loop.join(', ')} (${links.join('; ')})`);
    }
  };
  for (const crate of crates) {
    const src = path.resolve(ROOT, crate, 'src');
    report(crate, 'top-level modules', cyclesOf(src));
    report(crate, 'files', fileCyclesOf(src));
  }
  if (failed) process.exit(1);
}
