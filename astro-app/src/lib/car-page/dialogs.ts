/**
 * Information dialogs (the certified pre-owned badge's): a button
 * `[data-dialog-open="<dialog id>"]` opens the modal <dialog>; Escape, its
 * Close button (`[data-dialog-close]`) or a click on the backdrop closes
 * it, and focus goes back to the button.
 */

export function openDialog(dialog: HTMLDialogElement, opener: HTMLElement | null): void {
  if (dialog.open) return;
  dialog.addEventListener('close', () => opener?.focus(), { once: true });
  if (typeof dialog.showModal === 'function') dialog.showModal();
  else dialog.setAttribute('open', '');
  dialog.querySelector<HTMLElement>('[data-dialog-close]')?.focus();
}

export function closeDialog(dialog: HTMLDialogElement): void {
  if (typeof dialog.close === 'function' && dialog.open) dialog.close();
  else {
    dialog.removeAttribute('open');
    dialog.dispatchEvent(new Event('close'));
  }
}

/** A click on a dialog button, a Close button or the backdrop. */
export function onDialogClick(event: Event): void {
  const target = event.target as Element | null;
  const opener = target?.closest?.<HTMLElement>('[data-dialog-open]');
  if (opener) {
    const dialog = opener.ownerDocument.getElementById(opener.dataset['dialogOpen'] ?? '');
    if (dialog?.tagName === 'DIALOG') openDialog(dialog as HTMLDialogElement, opener);
    return;
  }
  const closer = target?.closest?.('[data-dialog-close]');
  const dialog = target?.closest?.<HTMLDialogElement>('dialog[data-info-dialog]');
  // A click on the dialog element itself is a click on its backdrop.
  if (dialog && (closer || target === dialog)) closeDialog(dialog);
}

/** Wires every dialog button under `root`; returns a function that unwires it. */
export function initDialogs(root: Document): () => void {
  root.addEventListener('click', onDialogClick);
  return () => root.removeEventListener('click', onDialogClick);
}
