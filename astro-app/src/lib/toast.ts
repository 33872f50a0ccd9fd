/**
 * One toast at a time for the whole page (docs/behaviour/content.md §4, §9: "1 at a time"):
 * a module-level store every island shares. A new toast replaces the
 * current one. Exactly one mounted <Toast> (the first) renders it, however
 * many islands include one.
 */
export interface Toast {
  id: number;
  title: string;
  text: string;
  /** The 'View List' action. */
  action?: { label: string; href: string };
}

interface State {
  toast: Toast | null;
  hosts: number[];
}

let state: State = { toast: null, hosts: [] };
let nextId = 1;
const listeners = new Set<() => void>();

function set(next: State) {
  state = next;
  for (const listener of listeners) listener();
}

export const toastStore = {
  get: (): State => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  show(toast: Omit<Toast, 'id'>): Toast {
    const shown = { ...toast, id: nextId++ };
    set({ ...state, toast: shown });
    return shown;
  },
  dismiss(id?: number): void {
    if (state.toast && (id === undefined || state.toast.id === id)) set({ ...state, toast: null });
  },
  /** Registers a <Toast> mount; the first registered one renders. */
  register(): { host: number; unregister: () => void } {
    const host = nextId++;
    set({ ...state, hosts: [...state.hosts, host] });
    return { host, unregister: () => set({ ...state, hosts: state.hosts.filter((h) => h !== host) }) };
  },
  reset(): void {
    set({ toast: null, hosts: [] });
  },
};
