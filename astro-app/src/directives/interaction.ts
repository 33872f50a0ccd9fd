/**
 * `client:interaction`: hydrate an island on the shopper's first
 * interaction with it (pointer down, touch, focus or a key), not on load
 * or when visible. For controls above the fold that open something (the
 * Make an Offer dialog): their JavaScript would otherwise load with the
 * page on every visit, though few shoppers press them.
 *
 * A click that arrives before hydration has finished is held back and
 * replayed on the same element afterwards, so the first press does what it
 * says (and a link does not navigate away in the meantime).
 *
 * Registered by the generated site's astro.config (addClientDirective).
 */
import type { ClientDirective } from 'astro';

const TRIGGERS = ['pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

const interaction: ClientDirective = (load, _options, el) => {
  let started = false;
  let hydrated = false;
  let held: HTMLElement | null = null;
  const hold = (event: Event) => {
    if (hydrated) return;
    event.preventDefault();
    event.stopPropagation();
    held = event.target instanceof Element ? (event.target.closest('a, button') as HTMLElement | null) : null;
    void start();
  };
  const start = async () => {
    if (started) return;
    started = true;
    for (const type of TRIGGERS) el.removeEventListener(type, start);
    const hydrate = await load();
    await hydrate();
    hydrated = true;
    el.removeEventListener('click', hold, true);
    // React attaches its handlers while hydrating; the held click goes to them.
    if (held?.isConnected) held.click();
  };
  for (const type of TRIGGERS) el.addEventListener(type, start, { passive: true });
  el.addEventListener('click', hold, true);
};

export default interaction;
