import { useEffect, useRef, type RefObject } from 'react';

/**
 * Closes an open menu on Escape and on a mouse press outside `ref`'s element: `onDismiss` is called
 * with the reason ('escape' lets the caller move focus back to the menu's button). Listens only
 * while `open`.
 */
export function useDismiss(
  open: boolean,
  ref: RefObject<Element | null>,
  onDismiss: (reason: 'escape' | 'outside') => void,
): void {
  // The latest callback, so the listeners are set up once per opening.
  const dismiss = useRef(onDismiss);
  dismiss.current = onDismiss;
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') dismiss.current('escape');
    };
    const onClick = (event: MouseEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) dismiss.current('outside');
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onClick);
    };
  }, [open, ref]);
}
