/**
 * The app-wide toast area. The query client shows toasts from outside React, so the Toast
 * component registers itself here. PrimeReact's Toast has no message ids: a toast shown with
 * the id of one already on screen first removes the old one, so identical errors replace
 * each other instead of stacking (spec 1 section 8).
 *
 * The Toast component's code is loaded on the first toast (it is not needed to sign in), so
 * toasts asked for before it is ready wait in a queue.
 */
import type { Toast, ToastMessage } from 'primereact/toast';

let toast: Toast | null = null;
const shown = new Map<string, ToastMessage>();
const pending = new Map<string, ToastMessage>();
let requestMount: (() => void) | null = null;

/** The toast host asks to be told when a toast is first needed. */
export function onToastNeeded(callback: () => void): () => void {
  requestMount = callback;
  if (pending.size > 0) callback();
  return () => {
    if (requestMount === callback) requestMount = null;
  };
}

/**
 * Ref callback for the single <Toast> of the app. PrimeReact hands its ref a new handle on every
 * render of the Toast (null first, then the new one), and each toast shown renders it: what is on
 * screen is kept across those calls, or the next identical toast would not find the one it
 * replaces and they would stack.
 */
export function registerToast(instance: Toast | null): void {
  toast = instance;
  if (!instance) return;
  const queued = [...pending];
  pending.clear();
  for (const [id, message] of queued) showToast(message, id);
}

/** Shows a toast; a previous toast with the same id is replaced. */
export function showToast(message: ToastMessage, id: string): void {
  if (!toast) {
    pending.set(id, message);
    requestMount?.();
    return;
  }
  const previous = shown.get(id);
  if (previous) toast.remove(previous);
  const next = { ...message };
  shown.set(id, next);
  toast.show(next);
}

/** Called when PrimeReact removes a message (closed or expired). */
export function forgetToast(message: ToastMessage): void {
  for (const [id, value] of shown) {
    if (value === message) shown.delete(id);
  }
}
