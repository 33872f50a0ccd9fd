/**
 * Sliders (the promotions slider, the features banner): a row of slides
 * that scrolls sideways (CSS scroll snapping: swipe on a phone, no script
 * needed), plus Previous / Next buttons added here when more than one slide
 * is showing. Nothing moves by itself: a shopper reading a slide keeps it.
 */

/** The index of the slide `delta` steps from `current` among `count`, wrapping round. */
export function step(current: number, delta: number, count: number): number {
  if (count <= 0) return 0;
  return (((current + delta) % count) + count) % count;
}

/**
 * A row that snaps to its items (`[data-snap-track]`) brings a whole item
 * into view when something in it gets the keyboard focus: the browser's own
 * scroll would show the focused button, then snapping could move it off again.
 */
export function keepFocusInView(root: ParentNode): void {
  for (const track of root.querySelectorAll<HTMLElement>('[data-snap-track]')) {
    track.addEventListener('focusin', (event) => {
      const item = (event.target as Element | null)?.closest('[data-snap-track] > *');
      if (item && item.parentElement === track) item.scrollIntoView({ block: 'nearest', inline: 'start' });
    });
  }
}

export function initSliders(root: ParentNode): void {
  for (const slider of root.querySelectorAll<HTMLElement>('[data-slider]')) {
    const track = slider.querySelector<HTMLElement>('[data-slider-track]');
    const controls = slider.querySelector<HTMLElement>('[data-slider-controls]');
    if (!track || !controls) continue;
    const slides = () => [...track.children].filter((s): s is HTMLElement => s instanceof HTMLElement && !s.hidden);
    const status = slider.querySelector<HTMLElement>('[data-slider-status]');
    const current = () => {
      const left = track.scrollLeft;
      const all = slides();
      let best = 0;
      all.forEach((s, i) => {
        if (Math.abs(s.offsetLeft - track.offsetLeft - left) < Math.abs((all[best]?.offsetLeft ?? 0) - track.offsetLeft - left)) best = i;
      });
      return best;
    };
    const go = (delta: number) => {
      const all = slides();
      const next = step(current(), delta, all.length);
      const target = all[next];
      if (!target) return;
      track.scrollTo({ left: target.offsetLeft - track.offsetLeft, behavior: 'smooth' });
      if (status) status.textContent = `${next + 1} of ${all.length}`;
    };
    if (slides().length < 2) {
      controls.hidden = true;
      continue;
    }
    controls.hidden = false;
    slider.querySelector('[data-slider-prev]')?.addEventListener('click', () => go(-1));
    slider.querySelector('[data-slider-next]')?.addEventListener('click', () => go(1));
  }
}
