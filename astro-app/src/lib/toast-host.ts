/**
 * Where the page's one toast (lib/toast.ts) is drawn: a live region put
 * into `container` while this host is the first one registered, holding
 * the current toast (title, text, the 'View List' action, Dismiss);
 * Escape dismisses it. Framework-free, so the car page shows its toast
 * without React up front (components/car/SaveCarButton.astro), and the React
 * <Toast> of the search cards and the watchlist page draws through it too.
 */
import { toastStore, type Toast } from './toast';

function toastElement(doc: Document, toast: Toast): HTMLElement {
  const el = (tag: string, className: string, text?: string): HTMLElement => {
    const e = doc.createElement(tag);
    e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const box = el('div', 'toast');
  const body = el('div', 'toast__body');
  body.append(el('p', 'toast__title', toast.title), el('p', 'toast__text', toast.text));
  box.append(body);
  if (toast.action) {
    const action = el('a', 'toast__action', toast.action.label) as HTMLAnchorElement;
    action.href = toast.action.href;
    box.append(action);
  }
  const close = el('button', 'toast__close', '×') as HTMLButtonElement;
  close.type = 'button';
  close.setAttribute('aria-label', 'Dismiss');
  close.addEventListener('click', () => toastStore.dismiss(toast.id));
  box.append(close);
  return box;
}

/** Registers `container` as a toast host; the returned function unregisters it and removes what it drew. */
export function mountToastHost(container: HTMLElement): () => void {
  const doc = container.ownerDocument;
  const { host, unregister } = toastStore.register();
  let region: HTMLElement | null = null;
  // The id of the toast drawn (0: none), so an unrelated change (a host
  // registering) does not redraw it under a screen reader.
  let drawn = 0;
  const first = () => toastStore.get().hosts[0] === host;
  const render = () => {
    if (!first()) {
      region?.remove();
      region = null;
      drawn = 0;
      return;
    }
    if (!region) {
      // The region is in the DOM before any toast, so what is put into it is announced.
      region = doc.createElement('div');
      region.className = 'toast-region';
      region.setAttribute('role', 'status');
      region.setAttribute('aria-live', 'polite');
      region.setAttribute('aria-atomic', 'true');
      container.append(region);
    }
    const toast = toastStore.get().toast;
    if ((toast?.id ?? 0) === drawn) return;
    drawn = toast?.id ?? 0;
    region.replaceChildren(...(toast ? [toastElement(doc, toast)] : []));
  };
  const onKey = (e: KeyboardEvent) => {
    const toast = toastStore.get().toast;
    if (e.key === 'Escape' && toast && first()) toastStore.dismiss(toast.id);
  };
  const unsubscribe = toastStore.subscribe(render);
  doc.addEventListener('keydown', onKey);
  render();
  return () => {
    unsubscribe();
    doc.removeEventListener('keydown', onKey);
    region?.remove();
    unregister();
  };
}
