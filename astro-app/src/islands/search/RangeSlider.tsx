/**
 * A two-thumb range slider (docs/behaviour/search.md §4, §5): the thumbs are held locally,
 * committed after 400 ms without movement; clearing the URL refinement
 * resets them to the full range. Native range inputs, so arrow keys,
 * Page Up/Down and screen readers work as they do everywhere.
 */
import { useEffect, useRef, useState } from 'react';
import { moveThumb, rangeLabel, refinementOf, shownEnds, SLIDER_DEBOUNCE_MS, sliderStep, thumbsOf, type Thumbs } from '../../lib/search/range';
import type { FacetStatsValue, RangeRefinement } from '../../lib/search/types';

interface Props {
  attr: string;
  label: string;
  bounds: FacetStatsValue;
  value: RangeRefinement | undefined;
  onCommit: (attr: string, r: RangeRefinement | undefined) => void;
}

export function RangeSlider({ attr, label, bounds, value, onCommit }: Props) {
  const [thumbs, setThumbs] = useState<Thumbs>(() => thumbsOf(value, bounds));
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The URL (or the bounds) changed from outside: follow it, a cleared refinement means the full range.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the numbers: value and bounds are new objects each render
  useEffect(() => setThumbs(thumbsOf(value, bounds)), [value?.min, value?.max, bounds.min, bounds.max]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const move = (which: 'min' | 'max', raw: string) => {
    const next = moveThumb(attr, thumbs, which, Number(raw), bounds);
    setThumbs(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => onCommit(attr, refinementOf(next, bounds)), SLIDER_DEBOUNCE_MS);
  };
  const step = sliderStep(bounds, attr);
  const id = `range-${attr}`;
  const ends = shownEnds(value, bounds, thumbs);
  return (
    <fieldset className="range" data-attr={attr}>
      <legend>{label}</legend>
      <p className="range__values" aria-hidden="true">
        {rangeLabel(attr, ends[0])} – {rangeLabel(attr, ends[1])}
      </p>
      <div className="range__inputs">
        <input
          id={`${id}-min`}
          type="range"
          min={bounds.min}
          max={bounds.max}
          step={step}
          value={thumbs[0]}
          aria-label={`Minimum ${label.toLowerCase()}`}
          aria-valuetext={rangeLabel(attr, ends[0])}
          onChange={(e) => move('min', e.currentTarget.value)}
        />
        <input
          id={`${id}-max`}
          type="range"
          min={bounds.min}
          max={bounds.max}
          step={step}
          value={thumbs[1]}
          aria-label={`Maximum ${label.toLowerCase()}`}
          aria-valuetext={rangeLabel(attr, ends[1])}
          onChange={(e) => move('max', e.currentTarget.value)}
        />
      </div>
    </fieldset>
  );
}
