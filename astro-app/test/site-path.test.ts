import { describe, expect, it } from 'vitest';
import { sitePath } from '../src/lib/site-path';

describe('sitePath', () => {
  it('drops the batch prefix of a batched build', () => {
    expect(sitePath('/dealergen-batch/tiny-dealer/cars/car-1/')).toBe('/cars/car-1/');
    expect(sitePath('/dealergen-batch/tiny-dealer/')).toBe('/');
  });
  it('leaves a site path as it is', () => {
    expect(sitePath('/cars/car-1/')).toBe('/cars/car-1/');
    expect(sitePath('/')).toBe('/');
    expect(sitePath('/search/dealergen-batch/x/')).toBe('/search/dealergen-batch/x/');
  });
});
