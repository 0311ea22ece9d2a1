import type { ReactNode } from 'react';
import { Dialog } from 'primereact/dialog';
import { Button } from 'primereact/button';

export interface ConfirmDialogProps {
  visible: boolean;
  title: string;
  children: ReactNode;
  /** The primary action's label ('Remove', 'Delete group'). */
  confirmLabel: string;
  /** True for destructive actions: the primary button is red. */
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before a destructive change: title, what will happen, Cancel left of the action. */
export function ConfirmDialog({
  visible,
  title,
  children,
  confirmLabel,
  danger = false,
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Dialog
      header={title}
      visible={visible}
      onHide={() => {
        if (!busy) onCancel();
      }}
      className="gs-dialog"
      breakpoints={{ '640px': '100vw' }}
      draggable={false}
      resizable={false}
      footer={
        <div className="gs-dialog__footer">
          {/* A destructive action starts on Cancel, so Enter alone changes nothing. */}
          <Button
            type="button"
            label="Cancel"
            className="p-button-text"
            onClick={onCancel}
            disabled={busy}
            autoFocus={danger}
          />
          <Button
            type="button"
            label={confirmLabel}
            severity={danger ? 'danger' : undefined}
            loading={busy}
            onClick={onConfirm}
            autoFocus={!danger}
          />
        </div>
      }
    >
      <div className="gs-dialog__body">{children}</div>
    </Dialog>
  );
}
