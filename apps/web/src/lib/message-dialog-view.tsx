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
  onHide: () => void;
}

/** The dialog itself: title, icon and text, one OK button; Escape and the mask close it. */
export function MessageDialogView({ visible, title, message, tone, onHide }: MessageDialogViewProps) {
  return (
    <Dialog
      visible={visible}
      onHide={onHide}
      header={title}
      className={`message-dialog message-dialog--${tone}`}
      breakpoints={{ '575px': 'calc(100vw - 32px)' }}
      style={{ width: '28rem' }}
      draggable={false}
      resizable={false}
      dismissableMask
      footer={<Button label="OK" onClick={onHide} autoFocus />}
    >
      <p className="message-dialog__body">
        <i className={ICONS[tone]} aria-hidden="true" />
        <span>{message}</span>
      </p>
    </Dialog>
  );
}
