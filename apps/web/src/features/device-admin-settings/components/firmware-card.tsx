import { LabelledDropdown } from '@/components/ui/labelled-dropdown';
import { useState } from 'react';
import { Button } from 'primereact/button';
import { loadErrorDetail, mutationErrorMessage } from '@portal/core';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useFirmwareList } from '../api/get-firmware-list';
import { useRequestFirmwareUpdate } from '../api/request-firmware-update';
import { AdminCard, DoneLine, ErrorLine } from './admin-card';

/**
 * Firmware update (SUB-29, API-34; DESIGN.md section 5): the device's firmware, and a firmware
 * string from the configured list, confirmed, then queued as 'Admin.Firmware' {firmwareName}
 * for the device's next contact.
 */
export function FirmwareCard({ deviceid, name, fw }: { deviceid: string; name: string; fw: string | null }) {
  const list = useFirmwareList();
  const update = useRequestFirmwareUpdate(deviceid);
  const [choice, setChoice] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const options = (list.data?.firmware ?? []).map((f) => ({
    label: f === fw ? `${f} (installed)` : f,
    value: f,
  }));

  const send = () => {
    if (!choice) return;
    update.mutate(choice, { onSettled: () => setConfirming(false) });
  };

  return (
    <AdminCard id="admin-firmware" title="Firmware update">
      <dl className="as-facts">
        <dt>Installed firmware</dt>
        <dd>{fw ?? 'Not reported yet'}</dd>
      </dl>
      {list.isPending ? (
        <div className="skeleton skeleton--input" role="status" aria-label="Loading the known firmware" />
      ) : list.isError ? (
        <div className="as-row">
          <ErrorLine message={loadErrorDetail(list.error)} />
          <Button type="button" label="Try again" outlined size="small" onClick={() => void list.refetch()} />
        </div>
      ) : options.length === 0 ? (
        <p className="muted">No firmware is configured for updates.</p>
      ) : (
        <form
          className="as-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (choice) setConfirming(true);
          }}
        >
          <div className="form-field">
            <label className="form-field__label" id="admin-firmware-label">
              Firmware
            </label>
            <LabelledDropdown
              value={choice}
              options={options}
              onChange={(event) => {
                setChoice(typeof event.value === 'string' ? event.value : null);
                update.reset();
              }}
              placeholder="Choose a firmware"
              className="as-dropdown"
              label="Firmware"
              triggerLabel="Show the known firmware"
            />
          </div>
          <ErrorLine message={update.isError ? mutationErrorMessage(update.error) : null} />
          {update.isSuccess && (
            <DoneLine>Firmware update to {update.variables} queued: the device takes it at its next contact.</DoneLine>
          )}
          <div className="form-actions form-actions--start">
            <Button type="submit" label="Update firmware" icon="pi pi-upload" disabled={!choice || update.isPending} />
          </div>
        </form>
      )}
      <ConfirmDialog
        visible={confirming}
        header="Update firmware"
        confirmLabel="Update firmware"
        busy={update.isPending}
        className="as-dialog"
        onCancel={() => setConfirming(false)}
        onConfirm={send}
      >
        Update {name} to {choice}? The device installs it at its next contact and restarts.
      </ConfirmDialog>
    </AdminCard>
  );
}
