/**
 * The frame of a device sub-page (spec 2 section 2: Server Log, Diagnostics, Settings, ...): the
 * device header with its buttons and plan banners over the page's own content, the not-found
 * state for a device that is not the user's, and a skeleton until the settings and config have
 * answered. The header shows the device's contact status and last data as the Data page does:
 * from the settings' latest values, kept current by one small data call (the newest point of
 * each key) on the device's polling rhythm. The content gets the user's access and the device's
 * settings; the server decides every call again.
 */
import { useEffect, type ReactNode } from 'react';
import {
  appliedIntervalSeconds,
  contactStatus,
  deviceAccess,
  type DeviceAccess,
  type DeviceSettingsResponse,
} from '@portal/core';
import { configSettings, deviceIdentity, useDeviceConfig } from '../api/device-config';
import { useDeviceData } from '../api/device-data';
import { isDeviceNotFound } from '../api/device-not-found';
import { useDeviceSettings } from '../api/device-settings';
import { newestTs, usePollingSchedule } from '../hooks/use-polling-schedule';
import { useNow } from '@/lib/use-now';
import { ContactStatusLine, newestValueTs } from './contact-status';
import { DeviceHeader, DeviceHeaderSkeleton, type DevicePageName } from './device-header';
import { DeviceNotFound } from './device-not-found';

export interface DeviceSubPageProps {
  deviceid: string;
  page: Exclude<DevicePageName, 'Data'>;
  /** The page's own name (a widget card's name), shown instead of `page` in the breadcrumb and title. */
  pageTitle?: string | undefined;
  userGroups: readonly string[];
  /** Called once the device's name is known (recent devices). */
  onOpened?: (name: string) => void;
  /** The text shown when the settings call fails (default 'Error loading device settings'). */
  settingsError?: string;
  children: (device: { access: DeviceAccess; settings: DeviceSettingsResponse; name: string }) => ReactNode;
}

export function DeviceSubPage({
  deviceid,
  page,
  pageTitle,
  userGroups,
  onOpened,
  settingsError = 'Error loading device settings',
  children,
}: DeviceSubPageProps) {
  const settingsQuery = useDeviceSettings(deviceid);
  const settings = settingsQuery.data;
  const notFound = isDeviceNotFound(settingsQuery.error);
  const configQuery = useDeviceConfig(deviceid, !notFound);
  // The contact status: the newest of the settings' latest values and of the newest points, asked for
  // on the device's rhythm (its applied interval, unknown until the config is read).
  const intervalS = configQuery.data ? appliedIntervalSeconds(configQuery.data.config) : null;
  const schedule = usePollingSchedule(intervalS);
  const contactQuery = useDeviceData(deviceid, 1, {
    refetchInterval: schedule,
    enabled: settings !== undefined && configQuery.data !== undefined,
  });
  const nowMs = useNow(15_000, contactQuery.dataUpdatedAt);
  const name = settings?.deviceSettings.PORTAL_deviceName || deviceid;
  useEffect(() => {
    if (settings) onOpened?.(name);
  }, [settings, name, onOpened]);

  if (notFound || isDeviceNotFound(configQuery.error)) return <DeviceNotFound deviceid={deviceid} />;
  // The skeleton waits for the config's first answer only: a content's own retry of a failed config
  // (its status is pending again while it refetches) must not unmount the content.
  if (settingsQuery.isPending || (configQuery.isPending && configQuery.errorUpdateCount === 0)) {
    return (
      <div className="page dp-page" aria-busy="true" role="status" aria-label={`Loading the ${page.toLowerCase()}`}>
        <DeviceHeaderSkeleton />
        <div className="card skeleton dp-sub-skeleton" />
      </div>
    );
  }
  if (!settings) {
    return (
      <div className="page dp-page">
        <section className="card dp-empty" role="alert">
          <p>{settingsError}</p>
          <button type="button" className="p-button p-button-outlined" onClick={() => void settingsQuery.refetch()}>
            Try again
          </button>
        </section>
      </div>
    );
  }

  const access = deviceAccess({ settings, userGroups });
  const endpoint = configSettings(configQuery.data).endpoint as { data_to_portal?: unknown } | undefined;
  const { model, firmware } = deviceIdentity(configQuery.data);
  const lastTs = [newestValueTs(settings.deviceSettings.DATA_latest), newestTs(contactQuery.data)].reduce<
    number | null
  >((a, b) => (b === null ? a : a === null ? b : Math.max(a, b)), null);
  // Until the config is read the interval is not known: no status rather than a guessed one.
  const status = configQuery.data ? contactStatus({ lastRecordS: lastTs, intervalS }, nowMs) : null;
  return (
    <div className="page dp-page">
      <DeviceHeader
        deviceid={deviceid}
        page={page}
        pageTitle={pageTitle}
        name={name}
        settings={settings}
        access={access}
        dataToPortalDisabled={endpoint?.data_to_portal === false}
        model={model}
        firmware={firmware}
        nowMs={nowMs}
        status={
          <ContactStatusLine
            status={status}
            lastTs={lastTs}
            nowMs={nowMs}
            timeDifferenceS={settings.deviceSettings.timeDifferenceS}
          />
        }
      />
      {children({ access, settings, name })}
    </div>
  );
}
