import type { ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import './dialog.css';

interface ConfirmDialogProps {
  visible: boolean;
  header: string;
  /** The question, one short paragraph. */
  children: ReactNode;
  confirmLabel: string;
  confirmIcon?: string;
  cancelLabel?: string;
  /** While the action runs: Cancel is disabled, the dialog does not close, Confirm shows it is loading. */
  busy?: boolean;
  /** More classes beside 'view-dialog'. */
  className?: string;
  /** 'danger' (the default) for a destructive action; 'primary' for one that only records something. */
  tone?: 'danger' | 'primary';
  onCancel: () => void;
  onConfirm: () => void;
}

/**
 * The confirmation before a destructive action (Remove Widget, Delete View, Discard changes).
 * Its look is the view dialogs' (view-dialog classes, dialog.css).
 */
export function ConfirmDialog({
  visible,
  header,
  children,
  confirmLabel,
  confirmIcon,
  cancelLabel = 'Cancel',
  busy = false,
  className,
  tone = 'danger',
  onCancel,
  onConfirm,
}: ConfirmDialogProps) {
  return (
    <Dialog
      visible={visible}
      onHide={() => {
        if (!busy) onCancel();
      }}
      header={header}
      className={className ? `view-dialog ${className}` : 'view-dialog'}
      style={{ width: '28rem' }}
      breakpoints={{ '575px': '100vw' }}
      draggable={false}
      resizable={false}
      footer={
        <div className="view-dialog__footer">
          {/* A destructive action starts on Cancel, so Enter alone changes nothing. */}
          <Button type="button" label={cancelLabel} text autoFocus disabled={busy} onClick={onCancel} />
          <Button
            type="button"
            label={confirmLabel}
            icon={confirmIcon}
            severity={tone === 'danger' ? 'danger' : undefined}
            loading={busy}
            onClick={onConfirm}
          />
        </div>
      }
    >
      <p className="view-dialog__text">{children}</p>
    </Dialog>
  );
}
