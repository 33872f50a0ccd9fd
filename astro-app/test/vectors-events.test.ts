/**
 * Analytics event ids (rules/vectors/events.json): every id the site sends
 * is one the worker's POST /api/events accepts (edge/core/src/events.rs,
 * checked against the same file by edge/core/tests/vectors.rs).
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_PHONE_CLICK, EVENT_SAVE_CAR } from '../src/lib/analytics';
import { EVENT_ENQUIRY, EVENT_ENQUIRY_TEST_DRIVE_ONLY, EVENT_ENQUIRY_USED, enquiryEventId } from '../src/lib/enquiry';
import { EVENT_FLEET_ENQUIRY } from '../src/islands/search/SearchApp';
import { EVENT_FINANCE_CALCULATOR } from '../src/lib/finance/calculator';

interface EventVectors {
  events: { id: number; name: string; site_constants: string[] }[];
}

const vectors = JSON.parse(fs.readFileSync(`${__dirname}/../../rules/vectors/events.json`, 'utf8')) as EventVectors;

/** Every event id constant in the site's code, by name. */
const SITE: Record<string, number> = {
  EVENT_ENQUIRY,
  EVENT_ENQUIRY_USED,
  EVENT_ENQUIRY_TEST_DRIVE_ONLY,
  EVENT_FLEET_ENQUIRY,
  EVENT_PHONE_CLICK,
  EVENT_SAVE_CAR,
  EVENT_FINANCE_CALCULATOR,
};

describe('shared analytics event ids', () => {
  it('each site constant has the id the vector names it with', () => {
    const named = vectors.events.flatMap((e) => e.site_constants.map((c) => [c, e.id] as const));
    expect(Object.fromEntries(named)).toEqual(SITE);
  });

  it('every id the enquiry form can send is accepted by the worker', () => {
    const accepted = new Set(vectors.events.map((e) => e.id));
    for (const car of [{ carType: 'new' }, { carType: 'used' }, { carType: 'demo' }, { tag: 'Test Drive Only', carType: 'used' }, {}]) {
      expect(accepted.has(enquiryEventId(car)), JSON.stringify(car)).toBe(true);
    }
    for (const id of Object.values(SITE)) expect(accepted.has(id), String(id)).toBe(true);
  });
});
