/**
 * The car page's interactions, loaded by boot.ts on the first click or key
 * that needs one: Show more / Show all toggles, tabs, information dialogs
 * and the photo viewer. `wire` handles the events that came while it
 * loaded, then listens for every later one itself.
 */
import { initDialogs, onDialogClick } from './dialogs';
import { initDisclosures, onDisclosureClick } from './disclosure';
import { initTabs, onTabClick, onTabKey } from './tabs';
import { onViewerClick } from './viewer';

export function wire(doc: Document, pending: Event[]): void {
  initDisclosures(doc);
  initTabs(doc);
  initDialogs(doc);
  doc.addEventListener('click', onViewerClick);
  for (const event of pending) {
    if (event.type === 'keydown') onTabKey(event);
    else for (const on of [onDisclosureClick, onTabClick, onDialogClick, onViewerClick]) on(event);
  }
}
