/**
 * Analytics event ids (rules/vectors/events.json): the site's one event
 * table (lib/events.ts) is the worker's (edge/core/src/events.rs, checked
 * against the same file by edge/core/tests/vectors.rs), name for name, so
 * the site never sends an id the worker refuses.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_ENQUIRY, EVENT_ENQUIRY_TEST_DRIVE_ONLY, EVENT_ENQUIRY_USED } from '../src/lib/enquiry';
import { EVENTS, formEnquiryEvent, vehicleEnquiryEvent } from '../src/lib/events';
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
  EVENT_FINANCE_CALCULATOR,
};

describe('shared analytics event ids', () => {
  it('the site’s event table is the worker’s, name for name', () => {
    expect(EVENTS).toEqual(Object.fromEntries(vectors.events.map((e) => [e.name, e.id])));
  });

  it('each named site constant has the id the vector names it with', () => {
    const named = vectors.events.flatMap((e) => e.site_constants.map((c) => [c, e.id] as const));
    expect(Object.fromEntries(named)).toEqual(SITE);
  });

  it('every id the forms can send is accepted by the worker', () => {
    const accepted = new Set(vectors.events.map((e) => e.id));
    for (const car of [{ carType: 'new' }, { carType: 'used' }, { carType: 'demo' }, { tag: 'Test Drive Only', carType: 'used' }, {}]) {
      expect(accepted.has(vehicleEnquiryEvent(car)), JSON.stringify(car)).toBe(true);
    }
    for (const choice of ['general', 'careers', 'fleet', 'service']) expect(accepted.has(formEnquiryEvent(choice)), choice).toBe(true);
  });

  it('vehicle enquiries: 17 for a Test Drive Only tag, 15 for used, otherwise 14 (docs/behaviour/car-page.md §7)', () => {
    expect(vehicleEnquiryEvent({ tag: ' test drive only ', carType: 'new' })).toBe(17);
    expect(vehicleEnquiryEvent({ tag: 'Hot deal', carType: 'used' })).toBe(15);
    expect(vehicleEnquiryEvent({ carType: 'demo' })).toBe(14);
  });

  it('general forms: 22, 51 for careers, 19 for fleet (docs/behaviour/content.md §7, search.md §5)', () => {
    expect(formEnquiryEvent('general')).toBe(22);
    expect(formEnquiryEvent('careers')).toBe(51);
    expect(formEnquiryEvent('fleet')).toBe(19);
    expect(formEnquiryEvent('service')).toBe(22);
  });
});
