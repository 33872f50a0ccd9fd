/**
 * The home page's script (its blocks need no framework): content windows
 * (promotions and offers that expired since the build disappear), the
 * sliders' buttons, and the popup.
 */
import { applyWindows } from './windows';
import { initSliders, keepFocusInView } from './slider';
import { showPopup } from './popup';

export function initHome(doc: Document, nowMs: number = Date.now()): void {
  applyWindows(doc, nowMs);
  initSliders(doc);
  keepFocusInView(doc);
  showPopup(doc, nowMs);
}
