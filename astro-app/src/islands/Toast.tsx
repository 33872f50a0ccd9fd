/**
 * The page's toast (not an island of its own: islands that show toasts
 * render one). The live region is always in the DOM, empty when there is no
 * toast, so screen readers announce what is put into it; only the first
 * mounted <Toast> renders, so a page shows at most one toast.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { toastStore } from '../lib/toast';

export default function Toast() {
  const [host, setHost] = useState(0);
  useEffect(() => {
    const { host: id, unregister } = toastStore.register();
    setHost(id);
    return unregister;
  }, []);
  const state = useSyncExternalStore(toastStore.subscribe, toastStore.get, toastStore.get);
  const toast = state.toast;
  useEffect(() => {
    if (!toast) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') toastStore.dismiss(toast.id);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [toast]);
  if (host === 0 || state.hosts[0] !== host) return null;
  return (
    <div className="toast-region" role="status" aria-live="polite" aria-atomic="true">
      {toast && (
        <div className="toast" key={toast.id}>
          <div className="toast__body">
            <p className="toast__title">{toast.title}</p>
            <p className="toast__text">{toast.text}</p>
          </div>
          {toast.action && (
            <a className="toast__action" href={toast.action.href}>
              {toast.action.label}
            </a>
          )}
          <button type="button" className="toast__close" aria-label="Dismiss" onClick={() => toastStore.dismiss(toast.id)}>
            ×
          </button>
        </div>
      )}
    </div>
  );
}
