import { useEffect, useId, useRef } from 'react';
import { Dialog } from 'primereact/dialog';
import { Button } from 'primereact/button';

export type Tone = 'error' | 'success' | 'info';

const ICONS: Record<Tone, string> = {
  error: 'pi pi-times-circle',
  success: 'pi pi-check-circle',
  info: 'pi pi-info-circle',
};

interface MessageDialogViewProps {
  visible: boolean;
  title: string;
  message: string;
  tone: Tone;
  /** Where focus goes back to on closing, unless a dialog closing under this one gave focus elsewhere. */
  returnFocus: HTMLElement | null;
  onHide: () => void;
}

/**
 * The dialog itself: title, icon and text, one OK button; Escape and the mask close it. Focus is
 * on OK while it is open, also when a dialog that closed as it opened (the form whose save it
 * answers, a confirmation) hands focus back to its own opener afterwards: that element is where
 * focus returns when this one closes, else `returnFocus`.
 */
export function MessageDialogView({ visible, title, message, tone, returnFocus, onHide }: MessageDialogViewProps) {
  const id = useId();
  const returnTo = useRef<HTMLElement | null>(null);
  const closing = useRef(false);

  useEffect(() => {
    if (!visible) return;
    returnTo.current = returnFocus;
    closing.current = false;
    const onFocusIn = (event: FocusEvent) => {
      const root = document.getElementById(id);
      const target = event.target;
      if (closing.current || !root || !(target instanceof HTMLElement) || root.contains(target)) return;
      returnTo.current = target;
      root.querySelector<HTMLElement>('.message-dialog__ok')?.focus();
    };
    document.addEventListener('focusin', onFocusIn);
    return () => document.removeEventListener('focusin', onFocusIn);
  }, [visible, id, returnFocus]);

  const hide = () => {
    closing.current = true;
    onHide();
    const target = returnTo.current;
    returnTo.current = null;
    if (target?.isConnected) target.focus();
  };

  return (
    <Dialog
      id={id}
      visible={visible}
      onHide={hide}
      header={title}
      className={`message-dialog message-dialog--${tone}`}
      breakpoints={{ '575px': 'calc(100vw - 32px)' }}
      style={{ width: '28rem' }}
      draggable={false}
      resizable={false}
      dismissableMask
      footer={<Button label="OK" className="message-dialog__ok" onClick={hide} autoFocus />}
    >
      <p className="message-dialog__body">
        <i className={ICONS[tone]} aria-hidden="true" />
        <span>{message}</span>
      </p>
    </Dialog>
  );
}
