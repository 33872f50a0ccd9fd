#!/usr/bin/env node
/**
 * Fails when a crate has a loop between its top-level modules (a uses b,
 * b uses a, directly or through others): the modules of each crate point
 * one way (generator/src/lib.rs lists the generator's layers). Reads the
 * non-test code of every crate's src/: `crate::m` paths, `use crate::{m,
 * ...}` groups and `super::m` from a top-level file; comments, strings'
 * contents and `#[cfg(test)]` modules are left out.
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

/** The top-level modules of a crate's src/ and the files of each. */
function modulesOf(src) {
  const modules = new Map();
  const add = (name, files) => modules.set(name, [...new Set([...(modules.get(name) ?? []), ...files])]);
  for (const entry of fs.readdirSync(src, { withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.rs') && !['lib.rs', 'main.rs'].includes(entry.name)) {
      const name = entry.name.slice(0, -3);
      // `m.rs` with its submodules in `m/`.
      const sub = path.join(src, name);
      add(name, [path.join(src, entry.name), ...(fs.existsSync(sub) ? rustFiles(sub) : [])]);
    } else if (entry.isDirectory() && fs.existsSync(path.join(src, entry.name, 'mod.rs'))) {
      add(entry.name, rustFiles(path.join(src, entry.name)));
    }
  }
  return modules;
}

function rustFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.rs'))
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
}

/** Which top-level modules `code` (a file of module `self`) names. */
export function uses(code, names, { topLevelFile = false } = {}) {
  const found = new Set();
  const add = (n) => names.has(n) && found.add(n);
  for (const m of code.matchAll(/\bcrate\s*::\s*(\w+)/g)) add(m[1]);
  // use crate::{a, b::c, d::{e, f}}: the first segment of each top-level item.
  for (const m of code.matchAll(/\bcrate\s*::\s*\{/g)) {
    let depth = 0;
    let item = '';
    for (let i = m.index + m[0].length - 1; i < code.length; i++) {
      const c = code[i];
      if (c === '{') {
        depth++;
        if (depth === 1) continue;
      }
      if (c === '}') {
        depth--;
        if (depth === 0) {
          add(item.trim().split('::')[0].trim());
          break;
        }
      }
      if (depth === 1 && c === ',') {
        add(item.trim().split('::')[0].trim());
        item = '';
      } else if (depth >= 1) {
        item += c;
      }
    }
  }
  // In m.rs or m/mod.rs, `super` is the crate root.
  if (topLevelFile) for (const m of code.matchAll(/\bsuper\s*::\s*(\w+)/g)) add(m[1]);
  return found;
}

/** The loops between a crate's top-level modules: each a list of modules. */
export function cyclesOf(src) {
  const modules = modulesOf(src);
  const names = new Set(modules.keys());
  const edges = new Map();
  for (const [name, files] of modules) {
    const to = new Set();
    for (const file of files) {
      const rel = path.relative(src, file);
      const topLevelFile = rel === `${name}.rs` || rel === path.join(name, 'mod.rs');
      for (const n of uses(codeOnly(fs.readFileSync(file, 'utf8')), names, { topLevelFile })) if (n !== name) to.add(n);
    }
    edges.set(name, to);
  }
  // Tarjan's strongly connected components; a component of two or more is a loop.
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
  for (const v of [...names].sort()) if (!idx.has(v)) visit(v);
  return { modules: names.size, loops, edges };
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
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--self-test')) {
  selfTest();
} else {
  const crates = process.argv.slice(2).length ? process.argv.slice(2) : CRATES;
  let failed = false;
  for (const crate of crates) {
    const src = path.resolve(ROOT, crate, 'src');
    const { modules, loops, edges } = cyclesOf(src);
    if (loops.length === 0) {
      console.log(`${crate}: ${modules} top-level modules, no loop`);
      continue;
    }
    failed = true;
    for (const loop of loops) {
      const inLoop = new Set(loop);
      const links = loop.flatMap((m) => [...edges.get(m)].filter((n) => inLoop.has(n)).map((n) => `${m} -> ${n}`));
      console.log(`${crate}: a loop between ${loop.join(', ')} (${links.join('; ')})`);
    }
  }
  if (failed) process.exit(1);
}
