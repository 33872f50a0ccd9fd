// The worker's wasm ships without its "name" custom section: the function
// names are 170 KB raw, 47 KB of the 355 KB gzip (every edge location
// loads what ships), and a crash trace only needs them after the fact.
// So the build keeps them beside the wasm instead (edge/build/
// wasm-function-names.tsv, never uploaded: wrangler uploads what
// edge/build/worker/shim.mjs imports) and this script turns a trace's
// `wasm-function[1234]` back into a name.
//
// Usage: node scripts/edge/wasm-names.mjs strip <in.wasm> <out.wasm> <names.tsv>
//        node scripts/edge/wasm-names.mjs lookup <names.tsv> <index>... (or a trace on stdin)
import { readFileSync, writeFileSync } from "node:fs";

/** Reads an unsigned LEB128 at `at`: [value, next offset]. */
function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    if (byte === undefined) throw new Error("wasm: truncated LEB128");
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

/** The module's sections: id, custom name (id 0), payload start and end, section start. */
export function sections(bytes) {
  if (bytes.readUInt32LE(0) !== 0x6d736100) throw new Error("wasm: not a WebAssembly module");
  const out = [];
  let at = 8;
  while (at < bytes.length) {
    const start = at;
    const id = bytes[at++];
    let size;
    [size, at] = leb(bytes, at);
    let name = "";
    if (id === 0) {
      const [len, from] = leb(bytes, at);
      name = bytes.subarray(from, from + len).toString("utf8");
    }
    out.push({ id, name, start, from: at, to: at + size });
    at += size;
  }
  return out;
}

/** Function index → name, from a "name" section's function-names subsection (id 1). */
export function functionNames(bytes, section) {
  const names = new Map();
  let [len, at] = leb(bytes, section.from);
  at += len; // the section's own name, "name"
  while (at < section.to) {
    const sub = bytes[at++];
    let size;
    [size, at] = leb(bytes, at);
    const end = at + size;
    if (sub === 1) {
      let count;
      [count, at] = leb(bytes, at);
      for (let i = 0; i < count; i++) {
        let index, n;
        [index, at] = leb(bytes, at);
        [n, at] = leb(bytes, at);
        names.set(index, bytes.subarray(at, at + n).toString("utf8"));
        at += n;
      }
    }
    at = end;
  }
  return names;
}

/** The module without its custom sections (names, producers, target features): code and data are byte for byte the same. */
export function strip(bytes) {
  const all = sections(bytes);
  const kept = all.filter((s) => s.id !== 0).map((s) => bytes.subarray(s.start, s.to));
  const nameSection = all.find((s) => s.id === 0 && s.name === "name");
  return { wasm: Buffer.concat([bytes.subarray(0, 8), ...kept]), names: nameSection ? functionNames(bytes, nameSection) : new Map() };
}

function main([mode, ...args]) {
  if (mode === "strip" && args.length === 3) {
    const [input, output, tsv] = args;
    const { wasm, names } = strip(readFileSync(input));
    if (names.size === 0) throw new Error(`${input}: no function names to keep (was it stripped already?)`);
    writeFileSync(tsv, [...names].map(([i, n]) => `${i}\t${n}`).join("\n") + "\n");
    writeFileSync(output, wasm);
    console.log(`wasm names: ${names.size} function names kept in ${tsv}, not shipped`);
    return;
  }
  if (mode === "lookup" && args.length >= 1) {
    const [tsv, ...indexes] = args;
    const names = new Map(readFileSync(tsv, "utf8").trim().split("\n").map((l) => l.split("\t")));
    // Indexes as arguments, or the `wasm-function[N]` frames of a trace on stdin.
    const found = indexes.length > 0 ? indexes : [...readFileSync(0, "utf8").matchAll(/wasm-function\[(\d+)\]/g)].map((m) => m[1]);
    for (const i of found) console.log(`${i}\t${names.get(i) ?? "(no such function)"}`);
    return;
  }
  console.error("usage: wasm-names.mjs strip <in.wasm> <out.wasm> <names.tsv> | lookup <names.tsv> [index...]");
  process.exit(2);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    console.error(`wasm-names: ${e.message}`);
    process.exit(1);
  }
}
