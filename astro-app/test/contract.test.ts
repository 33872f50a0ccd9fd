/**
 * The data contract with the Rust generator: the TypeScript types must be
 * generated from the current schema, and the hand-made fixture the e2e and
 * component tests use must be data the generator could have written.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs script without type declarations
import { generate } from '../../scripts/gen-types.mjs';

const typesDir = new URL('../src/types/', import.meta.url);
const schema = JSON.parse(fs.readFileSync(new URL('site-data.schema.json', typesDir), 'utf8'));
const fixture = new URL('./fixtures/site/src/data/', import.meta.url);

type Schema = Record<string, any>;

/** A small validator for the schema subset schemars emits (draft-07). */
function problems(value: unknown, s: Schema, at: string): string[] {
  if (s.$ref) return problems(value, schema.definitions[s.$ref.replace('#/definitions/', '')], at);
  if (s.allOf) return s.allOf.flatMap((sub: Schema) => problems(value, sub, at));
  if (s.anyOf || s.oneOf) {
    const alts: Schema[] = s.anyOf ?? s.oneOf;
    return alts.some((a) => problems(value, a, at).length === 0) ? [] : [`${at}: matches no alternative`];
  }
  if (s.enum && !s.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} not in ${s.enum.join(', ')}`];
  if (s.const !== undefined && s.const !== value) return [`${at}: expected ${s.const}`];
  const types: string[] = s.type === undefined ? [] : [].concat(s.type);
  const kind =
    value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
  if (types.length && !types.includes(kind) && !(kind === 'integer' && types.includes('number'))) {
    return [`${at}: expected ${types.join('|')}, got ${kind}`];
  }
  if (kind === 'array' && s.items) return (value as unknown[]).flatMap((v, i) => problems(v, s.items, `${at}[${i}]`));
  if (kind === 'object' && s.properties) {
    const obj = value as Record<string, unknown>;
    const out: string[] = [];
    for (const key of s.required ?? []) if (!(key in obj)) out.push(`${at}.${key}: missing`);
    for (const [key, v] of Object.entries(obj)) {
      if (key in s.properties) out.push(...problems(v, s.properties[key], `${at}.${key}`));
      else if (s.additionalProperties === false) out.push(`${at}.${key}: not in the contract`);
    }
    return out;
  }
  return [];
}

describe('site data contract', () => {
  it('site-data.generated.ts is generated from the current schema', async () => {
    const committed = fs.readFileSync(new URL('site-data.generated.ts', typesDir), 'utf8');
    expect(committed).toBe(await generate());
  });

  it('the fixture site.json and cars.json follow the schema', () => {
    const site = JSON.parse(fs.readFileSync(new URL('site.json', fixture), 'utf8'));
    const cars = JSON.parse(fs.readFileSync(new URL('cars.json', fixture), 'utf8'));
    const search_index = JSON.parse(fs.readFileSync(new URL('search-index.json', fixture), 'utf8'));
    expect(problems({ site, cars, search_index }, schema, 'data')).toEqual([]);
  });

  it('the validator itself notices drift', () => {
    const site = JSON.parse(fs.readFileSync(new URL('site.json', fixture), 'utf8'));
    delete site.name;
    site.surprise = 1;
    site.locations[0].kind = 'warehouse';
    const search_index = JSON.parse(fs.readFileSync(new URL('search-index.json', fixture), 'utf8'));
    expect(problems({ site, cars: [], search_index }, schema, 'data').sort()).toEqual([
      'data.site.name: missing',
      'data.site.surprise: not in the contract',
      'data.site.locations[0].kind: "warehouse" not in sales, service, parts, car-buying',
    ].sort());
  });
});
