/**
 * "Show More / Show Less" and "Show All / Hide" (spec 001 §2: the spec grid
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
  if (label) button.textContent = label;
  return open;
}

/** Wires every toggle under `root` (one listener); returns a function that unwires it. */
export function initDisclosures(root: Document | HTMLElement): () => void {
  const onClick = (event: Event) => {
    const button = (event.target as Element | null)?.closest?.<HTMLElement>('[data-disclosure-toggle]');
    if (button) toggleDisclosure(button);
  };
  root.addEventListener('click', onClick);
  return () => root.removeEventListener('click', onClick);
}
