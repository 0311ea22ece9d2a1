/**
 * The admin settings of the Settings page (issue 14; spec 2 sections 4, 6, 7; SUB-04, SUB-27,
 * SUB-28, SUB-29): device passwords, firmware update, file upload, config import and export,
 * delete data and transfer data. ADMIN only: nothing is drawn for any other role, and the server
 * refuses their calls anyway.
 */
import { Button } from 'primereact/button';
import { can, loadErrorDetail, type DeviceAccess, type DeviceSettingsResponse } from '@portal/core';
import { useAdminConfig } from '../api/get-admin-config';
import { ConfigFileCard } from './config-file-card';
import { DeleteDataCard, TransferDataCard } from './data-cards';
import { FileCard } from './file-card';
import { FirmwareCard } from './firmware-card';
import { ErrorLine } from './admin-card';
import { PasswordsCard } from './passwords-card';
import './admin-settings.css';

export interface AdminSettingsProps {
  deviceid: string;
  name: string;
  access: DeviceAccess;
  /** The device's settings record (the page's; the admin settings read nothing of it yet). */
  settings: DeviceSettingsResponse;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** settings.device.fw of a config document, or null. */
function installedFirmware(config: Record<string, unknown>): string | null {
  const settings = isRecord(config.settings) ? config.settings : {};
  const device = isRecord(settings.device) ? settings.device : {};
  return typeof device.fw === 'string' && device.fw ? device.fw : null;
}

export function AdminSettings({ deviceid, name, access }: AdminSettingsProps) {
  if (!can(access.role, 'adminSettings')) return null;
  return <AdminSettingsCards deviceid={deviceid} name={name} />;
}

function AdminSettingsCards({ deviceid, name }: { deviceid: string; name: string }) {
  const config = useAdminConfig(deviceid);
  return (
    <section className="as-settings" aria-labelledby="admin-settings-heading">
      <h2 id="admin-settings-heading" className="as-heading">
        Admin settings
      </h2>
      {config.isPending ? (
        <div className="as-grid" role="status" aria-label="Loading the admin settings">
          {Array.from({ length: 4 }, (_, i) => (
            <div key={i} className="card skeleton as-skeleton" />
          ))}
        </div>
      ) : config.isError ? (
        <section className="card as-card" role="alert">
          <ErrorLine message={loadErrorDetail(config.error)} />
          <Button type="button" label="Try again" outlined onClick={() => void config.refetch()} />
        </section>
      ) : (
        <div className="as-grid">
          <PasswordsCard deviceid={deviceid} />
          <FirmwareCard deviceid={deviceid} name={name} fw={installedFirmware(config.data.config)} />
          <FileCard deviceid={deviceid} />
          <ConfigFileCard deviceid={deviceid} config={config.data} />
          <DeleteDataCard deviceid={deviceid} name={name} />
          <TransferDataCard deviceid={deviceid} name={name} />
        </div>
      )}
    </section>
  );
}
