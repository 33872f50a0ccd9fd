// @vitest-environment jsdom
/** The range slider as the shopper reads it: its ends agree with the address's refinement (the chip). */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RangeSlider } from '../src/islands/search/RangeSlider';

afterEach(cleanup);

describe('RangeSlider', () => {
  it('with no results, a price refinement below the kept bounds reads as its chip does', () => {
    render(<RangeSlider attr="price" label="Price" bounds={{ min: 6000, max: 80000 }} value={{ min: 1000, max: 2000 }} onCommit={vi.fn()} />);
    expect(document.querySelector('.range__values')!.textContent).toBe('$1,000 – $2,000');
    expect(screen.getByRole('slider', { name: 'Minimum price' }).getAttribute('aria-valuetext')).toBe('$1,000');
    expect(screen.getByRole('slider', { name: 'Maximum price' }).getAttribute('aria-valuetext')).toBe('$2,000');
  });

  it('without a refinement it reads its bounds', () => {
    render(<RangeSlider attr="km" label="Kilometres" bounds={{ min: 0, max: 150000 }} value={undefined} onCommit={vi.fn()} />);
    expect(document.querySelector('.range__values')!.textContent).toBe('0 km – 150,000 km');
  });
});
