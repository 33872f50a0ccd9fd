/**
 * The page's toast inside a React island (islands that show toasts render
 * one): drawn by lib/toast-host.ts, the same code the car page uses
 * without React. Only the first mounted host draws, so a page shows at
 * most one toast; its live region is in the DOM before the toast.
 */
import { useEffect, useRef } from 'react';
import { mountToastHost } from '../lib/toast-host';

export default function Toast() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => (ref.current ? mountToastHost(ref.current) : undefined), []);
  return <div className="toast-host" ref={ref} />;
}
