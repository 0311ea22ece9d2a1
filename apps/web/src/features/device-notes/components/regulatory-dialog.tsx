import type { ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { DEVICE_MODELS, deviceFamily, type DeviceModel } from '@portal/core';
import './device-notes.css';

export interface RegulatoryDialogProps {
  visible: boolean;
  onHide(): void;
  /** The device's model (config settings.device.model), named above the statement. */
  model?: string | undefined;
  /**
   * The statement: the caller passes <FccStatement /> (features/fcc), since features never
   * import each other. Whether the dialog is offered at all (default brand only) is the caller's call.
   */
  children: ReactNode;
}

function isDeviceModel(model: string | undefined): model is DeviceModel {
  return (DEVICE_MODELS as readonly (string | undefined)[]).includes(model);
}

/** The Regulatory Information dialog (DLG-23): the FCC statement, with the device's model and family. */
export function RegulatoryDialog({ visible, onHide, model, children }: RegulatoryDialogProps) {
  return (
    <Dialog
      visible={visible}
      onHide={onHide}
      header="Regulatory Information"
      footer={<Button type="button" label="Close" onClick={onHide} autoFocus />}
      className="regulatory-dialog"
      style={{ width: '56rem' }}
      breakpoints={{ '575px': 'calc(100vw - 16px)' }}
      draggable={false}
      resizable={false}
      dismissableMask
    >
      {model && (
        <p className="regulatory-dialog__model">
          <i className="pi pi-microchip" aria-hidden="true" />
          <span>
            This device: <strong>{model}</strong>
            {isDeviceModel(model) && <>, {deviceFamily(model)} family</>}
          </span>
        </p>
      )}
      {children}
    </Dialog>
  );
}
