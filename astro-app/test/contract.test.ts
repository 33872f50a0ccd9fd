/**
 * The data contract with the Rust generator: the TypeScript types must be
 * generated from the current schema, and the hand-made fixture the e2e and
 * component tests use must be data the generator could have written.
 * Validation is ajv's (draft-07, the dialect schemars emits), strict, with
 * every error reported.
 */
import fs from 'node:fs';
import Ajv, { type ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { generate } from '../../scripts/gen-types.mjs';

const typesDir = new URL('../src/types/', import.meta.url);
const schema = JSON.parse(fs.readFileSync(new URL('site-data.schema.json', typesDir), 'utf8'));
const fixture = new URL('./fixtures/site/src/data/', import.meta.url);
const readFixture = (name: string) => JSON.parse(fs.readFileSync(new URL(name, fixture), 'utf8'));

/**
 * schemars names the Rust number type in `format`; ajv's strict mode
 * rejects unknown formats, and each one is a real range the generator
 * writes (a u16 above 65,535 in site.json is a contract break).
 */
const intIn = (min: number, max: number) => (n: number) => Number.isInteger(n) && n >= min && n <= max;
const NUMBER_FORMATS: Record<string, (n: number) => boolean> = {
  uint: intIn(0, Number.MAX_SAFE_INTEGER),
  uint8: intIn(0, 0xff),
  uint16: intIn(0, 0xffff),
  uint32: intIn(0, 0xffff_ffff),
  uint64: intIn(0, Number.MAX_SAFE_INTEGER),
  int32: intIn(-0x8000_0000, 0x7fff_ffff),
  int64: intIn(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
  double: Number.isFinite,
};

const ajv = new Ajv({ allErrors: true, strict: true, verbose: true });
for (const [name, validate] of Object.entries(NUMBER_FORMATS)) ajv.addFormat(name, { type: 'number', validate });
const validate = ajv.compile(schema);

/** One line per problem: where (JSON pointer into the document) and what. */
function problems(data: unknown): string[] {
  if (validate(data)) return [];
  return (validate.errors ?? []).map((e: ErrorObject) => {
    const extra = e.keyword === 'additionalProperties' ? ` (${e.params.additionalProperty})` : e.keyword === 'enum' ? ` (${JSON.stringify(e.data)})` : '';
    return `${e.instancePath || '/'}: ${e.message}${extra}`;
  });
}

describe('site data contract', () => {
  it('site-data.generated.ts is generated from the current schema', async () => {
    const committed = fs.readFileSync(new URL('site-data.generated.ts', typesDir), 'utf8');
    expect(committed).toBe(await generate());
  });

  it('the fixture site.json, cars.json, pages.json and search-index.json follow the schema', () => {
    const data = { site: readFixture('site.json'), cars: readFixture('cars.json'), pages: readFixture('pages.json'), search_index: readFixture('search-index.json') };
    expect(problems(data)).toEqual([]);
    // Not vacuous: the fixture holds cars and locations for the schema to check.
    expect(data.cars.length).toBeGreaterThan(0);
    expect(data.site.locations.length).toBeGreaterThan(0);
  });

  it('notices drift: a missing field, an unknown one, a value outside an enum, a wrong type, a number out of its Rust range', () => {
    const site = readFixture('site.json');
    const cars = readFixture('cars.json');
    delete site.name;
    site.surprise = 1;
    site.locations[0].kind = 'warehouse';
    site.search.page_size = 'twenty';
    site.search.popular_makes_count = -1;
    cars[0].year = 2.5;
    const found = problems({ site, cars: [cars[0]], pages: readFixture('pages.json'), search_index: readFixture('search-index.json') });
    expect(found.sort()).toEqual(
      [
        "/site: must have required property 'name'",
        '/site: must NOT have additional properties (surprise)',
        '/site/locations/0/kind: must be equal to one of the allowed values ("warehouse")',
        '/site/search/page_size: must be integer',
        '/site/search/popular_makes_count: must be >= 0',
        '/site/search/popular_makes_count: must match format "uint32"',
        '/cars/0/year: must be integer',
        '/cars/0/year: must match format "uint16"',
      ].sort(),
    );
  });
});
