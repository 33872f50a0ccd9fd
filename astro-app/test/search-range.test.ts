/** Range slider rules (docs/behaviour/search.md §5, §9). */
import { describe, expect, it, vi } from 'vitest';
import { moveThumb, rangeLabel, refinementOf, shownEnds, sliderBounds, sliderStep, snap, thumbsOf } from '../src/lib/search/range';

const bounds = { min: 4990, max: 87990 };

describe('range slider', () => {
  it('defaults to 0 to 100000 without statistics', () => {
    expect(sliderBounds(undefined)).toEqual({ min: 0, max: 100000 });
    expect(sliderBounds({ min: 5, max: 9 })).toEqual({ min: 5, max: 9 });
  });

  it('steps one hundredth of the range, rounded', () => {
    expect(sliderStep({ min: 0, max: 100000 })).toBe(1000);
    expect(sliderStep(bounds)).toBe(830);
    expect(sliderStep({ min: 2015, max: 2026 })).toBe(1);
  });

  it('arrow keys move a price or km thumb whatever the span (steps of whole thousands on bounds of whole thousands)', () => {
    for (const attr of ['price', 'km']) {
      for (const stats of [{ min: 12990, max: 15990 }, { min: 12990, max: 42990 }, { min: 4990, max: 53990 }, { min: 0, max: 250000 }, { min: 7000, max: 7000 }]) {
        const b = sliderBounds(stats, attr);
        const step = sliderStep(b, attr);
        expect(step % 1000, `${attr} ${JSON.stringify(stats)}`).toBe(0);
        expect(b.min % 1000 === 0 && b.max % 1000 === 0 && b.min <= stats.min && b.max >= stats.max && b.max > b.min).toBe(true);
        // What a browser does on ArrowRight / ArrowLeft: one step from the thumb.
        const up = moveThumb(attr, [b.min, b.max], 'min', b.min + step, b);
        expect(up[0], `${attr} ${JSON.stringify(stats)}`).toBe(b.min + step);
        const down = moveThumb(attr, [b.min, b.max], 'max', b.max - step, b);
        expect(down[1]).toBe(b.max - step);
      }
    }
    // The step the old rule gave for a 30,000 span (300) snapped back: the thumb could not move.
    expect(moveThumb('price', [12990, 42990], 'min', 12990 + 300, { min: 12990, max: 42990 })[0]).toBe(13000);
    expect(sliderStep({ min: 2015, max: 2026 }, 'year')).toBe(1);
  });

  it('snaps price and km to the nearest 1000, not the year', () => {
    expect(snap('price', 12499)).toBe(12000);
    expect(snap('km', 12500)).toBe(13000);
    expect(snap('year', 2019)).toBe(2019);
  });

  it('keeps the minimum at or below the maximum', () => {
    expect(moveThumb('price', [10000, 30000], 'min', 50000, bounds)).toEqual([30000, 30000]);
    expect(moveThumb('price', [10000, 30000], 'max', 6000, bounds)).toEqual([10000, 10000]);
    expect(moveThumb('price', [10000, 30000], 'min', 15200, bounds)).toEqual([15000, 30000]);
  });

  it('keeps snapped values inside the bounds', () => {
    expect(moveThumb('price', [4990, 87990], 'max', 87900, bounds)).toEqual([4990, 87990]);
    expect(moveThumb('price', [4990, 87990], 'min', 4990, bounds)).toEqual([5000, 87990]);
  });

  it('ignores out-of-range input and only logs it', () => {
    const log = vi.fn();
    expect(moveThumb('price', [10000, 30000], 'min', 1000, bounds, log)).toEqual([10000, 30000]);
    expect(moveThumb('price', [10000, 30000], 'max', 99999999, bounds, log)).toEqual([10000, 30000]);
    expect(moveThumb('price', [10000, 30000], 'max', Number.NaN, bounds, log)).toEqual([10000, 30000]);
    expect(log).toHaveBeenCalledTimes(3);
  });

  it('reads thumbs from the URL (full range when cleared) and writes open ends at the bounds', () => {
    expect(thumbsOf(undefined, bounds)).toEqual([4990, 87990]);
    expect(thumbsOf({ min: 20000 }, bounds)).toEqual([20000, 87990]);
    expect(thumbsOf({ min: 1, max: 999999 }, bounds)).toEqual([4990, 87990]);
    expect(refinementOf([4990, 87990], bounds)).toBeUndefined();
    expect(refinementOf([20000, 87990], bounds)).toEqual({ min: 20000, max: undefined });
  });

  it("says the refinement's own ends while its thumbs are unmoved, even outside the bounds a search with no results kept", () => {
    const kept = { min: 6000, max: 80000 };
    const chip = { min: 1000, max: 2000 };
    // The chip says $1,000 to $2,000: so does the slider, not "$6,000 – $6,000".
    expect(thumbsOf(chip, kept)).toEqual([6000, 6000]);
    expect(shownEnds(chip, kept, thumbsOf(chip, kept))).toEqual([1000, 2000]);
    expect(shownEnds({ max: 2000 }, kept, thumbsOf({ max: 2000 }, kept))).toEqual([6000, 2000]);
    expect(shownEnds(undefined, kept, thumbsOf(undefined, kept))).toEqual([6000, 80000]);
    // Once the shopper moves a thumb, the thumbs are what it says.
    expect(shownEnds(chip, kept, [6000, 20000])).toEqual([6000, 20000]);
    expect(shownEnds({ min: 20000 }, bounds, thumbsOf({ min: 20000 }, bounds))).toEqual([20000, 87990]);
  });

  it('labels price in dollars, weekly price per week, year plain and km with the unit', () => {
    expect(rangeLabel('price', 25000)).toBe('$25,000');
    expect(rangeLabel('subscription_price', 99)).toBe('$99 / week');
    expect(rangeLabel('year', 2021)).toBe('2021');
    expect(rangeLabel('km', 120000)).toBe('120,000 km');
  });
});
