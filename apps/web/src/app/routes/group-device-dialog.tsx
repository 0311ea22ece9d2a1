/**
 * The device dialog a group view's row asked for (group-device-actions.tsx): the device page's
 * Asset Notes, Display Settings (after choosing one of the device's keys) or Regulatory
 * Information, fed by the same calls the device page makes (settings; config for the model), so
 * the caller's role on this device decides what may be changed, and the server decides again.
 */
import { useState } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { ERROR_LOADING_DATA, ROLE_CAPABILITIES, deviceAccess, keyDisplayName, loadErrorDetail } from '@portal/core';
import { useAuth } from '@/lib/auth/auth-context';
import { useDeviceConfig } from '@/features/device-data/api/device-config';
import { useDeviceSettings, type DeviceSettingsResponse } from '@/features/device-data/api/device-settings';
import { DisplaySettingsDialog } from '@/features/device-data/components/display-settings-dialog';
import { AssetNotesDialog } from '@/features/device-notes/components/asset-notes-dialog';
import { RegulatoryDialog } from '@/features/device-notes/components/regulatory-dialog';
import { FccStatement } from '@/features/fcc/components/fcc-statement';
import type { DeviceDialogKind } from './group-device-actions';

/** Who may change display settings (spec 2 section 6), as the dialog names them. */
const DISPLAY_EDITORS = Object.entries(ROLE_CAPABILITIES)
  .filter(([, capabilities]) => capabilities.editDisplaySettings)
  .map(([role]) => role)
  .join(' and ');

const TITLES: Record<DeviceDialogKind, string> = {
  notes: 'Asset Notes',
  display: 'Display Settings',
  regulatory: 'Regulatory Information',
};

export interface GroupDeviceDialogProps {
  kind: DeviceDialogKind;
  deviceid: string;
  /** The device's name and id, as the row shows them. */
  label: string;
  onHide: () => void;
}

export default function GroupDeviceDialog({ kind, deviceid, label, onHide }: GroupDeviceDialogProps) {
  const { session } = useAuth();
  const settings = useDeviceSettings(deviceid);
  const config = useDeviceConfig(deviceid, kind === 'regulatory');
  const waiting = settings.isPending || (kind === 'regulatory' && config.isPending);
  const failed = settings.isError ? settings.error : kind === 'regulatory' && config.isError ? config.error : null;

  const data = settings.data;
  if (!data || waiting || failed) {
    return (
      <Dialog
        visible
        onHide={onHide}
        header={`${TITLES[kind]}: ${label}`}
        style={{ width: '28rem' }}
        breakpoints={{ '575px': 'calc(100vw - 16px)' }}
        draggable={false}
        resizable={false}
        footer={<Button type="button" label="Close" onClick={onHide} text={Boolean(waiting)} />}
      >
        {failed ? (
          <p role="alert">
            <strong>{ERROR_LOADING_DATA}</strong>: {loadErrorDetail(failed)}
          </p>
        ) : (
          <p role="status" aria-busy="true">
            <i className="pi pi-spin pi-spinner" aria-hidden="true" /> Loading the device…
          </p>
        )}
      </Dialog>
    );
  }

  const access = deviceAccess({ settings: data, userGroups: session.userGroups });
  switch (kind) {
    case 'notes':
      return (
        <AssetNotesDialog
          deviceid={deviceid}
          notes={data.deviceSettings.PORTAL_deviceNotes ?? {}}
          canEdit={access.editDeviceNotes}
          visible
          onHide={onHide}
        />
      );
    case 'regulatory': {
      const device = config.data?.config.settings as { device?: { model?: unknown } } | undefined;
      const model = typeof device?.device?.model === 'string' ? device.device.model : undefined;
      return (
        <RegulatoryDialog visible onHide={onHide} model={model}>
          <FccStatement />
        </RegulatoryDialog>
      );
    }
    case 'display':
      return (
        <DisplaySettingsFor
          deviceid={deviceid}
          label={label}
          settings={data}
          canEdit={access.editDisplaySettings}
          role={access.role}
          onHide={onHide}
        />
      );
  }
}

interface DisplaySettingsForProps {
  deviceid: string;
  label: string;
  settings: DeviceSettingsResponse;
  canEdit: boolean;
  role: string;
  onHide: () => void;
}

/** Display Settings are per key: the device's keys to choose from, then the device page's dialog. */
function DisplaySettingsFor({ deviceid, label, settings, canEdit, role, onHide }: DisplaySettingsForProps) {
  const latest = settings.deviceSettings.DATA_latest ?? {};
  const displaySettings = (settings.deviceSettings.PORTAL_displaySettings ?? {}) as Record<string, unknown>;
  const keys = Object.keys(latest).sort((a, b) =>
    keyDisplayName(a, displaySettings[a]).localeCompare(keyDisplayName(b, displaySettings[b])),
  );
  const [choice, setChoice] = useState<string | null>(keys[0] ?? null);
  const [chosen, setChosen] = useState<string | null>(null);

  if (chosen !== null) {
    return (
      <DisplaySettingsDialog
        deviceid={deviceid}
        dataKey={chosen}
        setting={displaySettings[chosen]}
        sample={latest[chosen]?.v}
        onHide={onHide}
      />
    );
  }
  const pickerId = `display-key-${deviceid}`;
  return (
    <Dialog
      visible
      onHide={onHide}
      header={`Display Settings: ${label}`}
      style={{ width: '28rem' }}
      breakpoints={{ '575px': 'calc(100vw - 16px)' }}
      draggable={false}
      resizable={false}
      footer={
        canEdit && keys.length > 0 ? (
          <div className="notes-dialog__footer">
            <Button type="button" label="Cancel" text onClick={onHide} />
            <Button
              type="button"
              label="Next"
              icon="pi pi-arrow-right"
              iconPos="right"
              disabled={choice === null}
              onClick={() => setChosen(choice)}
            />
          </div>
        ) : (
          <Button type="button" label="Close" onClick={onHide} autoFocus />
        )
      }
    >
      {!canEdit ? (
        <p role="status">
          Display Settings can be changed by the device&apos;s {DISPLAY_EDITORS}; your role here is {role}.
        </p>
      ) : keys.length === 0 ? (
        <p role="status">The device has not reported any readings yet.</p>
      ) : (
        <div className="field">
          <label htmlFor={pickerId}>Reading</label>
          <Dropdown
            inputId={pickerId}
            value={choice}
            options={keys.map((key) => ({
              value: key,
              label: `${keyDisplayName(key, displaySettings[key])} (${key})`,
            }))}
            onChange={(e) => setChoice(e.value as string)}
            filter={keys.length > 10}
            pt={{ select: { 'aria-label': 'Reading' } }}
            className="w-full"
          />
        </div>
      )}
    </Dialog>
  );
}
