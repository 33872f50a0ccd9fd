/**
 * "Show More / Show Less" and "Show All / Hide" (docs/behaviour/car-page.md §2: the spec grid
 * shows 4 rows, key information and feature lists 8 items; dealer comments
 * are cut at 400 characters). The page renders a `[data-disclosure]` block
 * collapsed, extras marked `[data-extra]` and hidden by CSS, with a toggle
 * button `[data-disclosure-toggle]` naming both labels (`data-more`,
 * `data-less`); without JavaScript a <noscript> style shows everything and
 * hides the button, so nothing is ever out of reach.
 */

/** Opens or closes the block of `button`; returns whether it is now open. */
export function toggleDisclosure(button: HTMLElement): boolean {
  const block = button.closest<HTMLElement>('[data-disclosure]');
  if (!block) return false;
  const open = !block.hasAttribute('data-open');
  block.toggleAttribute('data-open', open);
  button.setAttribute('aria-expanded', String(open));
  const label = open ? button.dataset['less'] : button.dataset['more'];
  // The visible word only: a visually hidden part ("features") stays.
  if (label) (button.querySelector('[data-toggle-label]') ?? button).textContent = label;
  return open;
}

/** A click: on a toggle, it opens or closes its block. */
export function onDisclosureClick(event: Event): void {
  const button = (event.target as Element | null)?.closest?.<HTMLElement>('[data-disclosure-toggle]');
  if (button) toggleDisclosure(button);
}

/** Wires every toggle under `root` (one listener); returns a function that unwires it. */
export function initDisclosures(root: Document | HTMLElement): () => void {
  root.addEventListener('click', onDisclosureClick);
  return () => root.removeEventListener('click', onDisclosureClick);
}
