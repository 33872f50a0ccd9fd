/** Base filters: the shared cases the Rust visibility rules also pass (generator/tests/integration/build.rs). */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hostedBaseFilter, matchesBaseFilters, type BaseFilterFacts } from '../src/lib/search/base-filters';
import type { BaseFilters } from '../src/types/site';

interface Case {
  name: string;
  now: number;
  rules: BaseFilters;
  hosted_filter: string;
  cars: Array<BaseFilterFacts & { id: string }>;
  visible: string[];
}
const { cases } = JSON.parse(fs.readFileSync(new URL('../../rules/vectors/base-filters.json', import.meta.url), 'utf8')) as { cases: Case[] };

describe('base filters (shared with Rust)', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s: same visible cars', (_, c) => {
    expect(c.cars.filter((car) => matchesBaseFilters(car, c.rules, c.now)).map((car) => car.id)).toEqual(c.visible);
  });
  it.each(cases.map((c) => [c.name, c] as const))('%s: same rules in the hosted filter string', (_, c) => {
    expect(hostedBaseFilter(c.rules, c.now)).toBe(c.hosted_filter);
  });
});
