/**
 * The device Data page (spec 2 sections 2 and 4): header, timeline, one card per data key in
 * display order, events, map and remote triggers, polling on the device's rhythm.
 */
import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  CARD_MESSAGES,
  canEditCustomSetting,
  clockDifferenceText,
  triggerConfirmation,
  ERROR_LOADING_DATA,
  NO_RECENT_CONTACT,
  dataPointsFor,
  deviceAccess,
  expectedIntervalSeconds,
  isNoRecentContact,
  isOffline,
  markerSeverity,
  mergeSeries,
  orderedKeys,
  readingsAt,
  recordTimes,
  resolveDisplay,
  steppableTimes,
} from '@portal/core';
import { formatDistanceStrict } from 'date-fns';
import {
  configSettings,
  customSettings,
  deviceIntervals,
  triggerParameters,
  useDeviceConfig,
} from '../api/device-config';
import { useDeviceData } from '../api/device-data';
import { useDeviceSettings } from '../api/device-settings';
import { usePollingSchedule } from '../hooks/use-polling-schedule';
import { useNow } from '../hooks/use-now';
import { CustomSettingsCard } from './custom-settings-card';
import { DeviceHeader } from './device-header';
import { DisplaySettingsDialog } from './display-settings-dialog';
import { DistributorToolsDialog } from './distributor-tools-dialog';
import { EventsCard } from './events-card';
import { ReadingCard } from './reading-card';
import { TimelineBar } from './timeline-bar';
import { TriggerCard } from './trigger-card';

const MapCard = lazy(() => import('./map-card').then((m) => ({ default: m.MapCard })));

export interface DataPageProps {
  deviceid: string;
  userGroups: readonly string[];
  baseTitle: string;
  /** Buttons the app adds to the header (Asset Notes, Regulatory Information). */
  headerActions?: (info: {
    name: string;
    notes: Record<string, unknown>;
    canEditNotes: boolean;
    model: string | null;
  }) => ReactNode;
  /** Called once the device's name is known (recent devices). */
  onOpened?: (name: string) => void;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function DataPage({ deviceid, userGroups, baseTitle, headerActions, onOpened }: DataPageProps) {
  const settingsQuery = useDeviceSettings(deviceid);
  const settings = settingsQuery.data;
  // While the settings load: a viewer without an error (no banner); the data is asked for at the same time.
  const access = deviceAccess({
    settings: settingsQuery.isError ? null : (settings ?? { myPermission: 'VIEW' }),
    userGroups,
  });
  const configQuery = useDeviceConfig(deviceid);
  const { baseInterval, transmitInterval } = deviceIntervals(configQuery.data);
  const intervalS = configQuery.data ? expectedIntervalSeconds(baseInterval, transmitInterval) : null;
  const schedule = usePollingSchedule(intervalS);
  const dataQuery = useDeviceData(deviceid, dataPointsFor(access), {
    refetchInterval: schedule,
  });
  const nowMs = useNow(15_000);

  const [selectedTs, setSelectedTs] = useState<number | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [tools, setTools] = useState(false);

  const name = settings?.deviceSettings.PORTAL_deviceName || deviceid;
  useEffect(() => {
    if (settings) onOpened?.(name);
  }, [settings, name, onOpened]);

  const displaySettings = useMemo(() => settings?.deviceSettings.PORTAL_displaySettings ?? {}, [settings]);
  const series = useMemo(
    () => mergeSeries(dataQuery.data?.data, access.dataRestricted ? null : settings?.deviceSettings.DATA_latest),
    [dataQuery.data, settings, access.dataRestricted],
  );
  const times = useMemo(
    () => steppableTimes(recordTimes(series), { dataRestricted: access.dataRestricted }),
    [series, access.dataRestricted],
  );
  // The selected record stays selected while new records arrive; null follows the latest.
  const found = selectedTs === null ? 0 : times.indexOf(selectedTs);
  const index = found < 0 ? 0 : found;
  const readings = useMemo(() => readingsAt(series, times, index), [series, times, index]);
  const keys = useMemo(() => orderedKeys([...series.keys()], displaySettings), [series, displaySettings]);

  const config = configSettings(configQuery.data);
  const endpoint = config.endpoint as { data_to_portal?: unknown } | undefined;
  const triggers = triggerParameters(configQuery.data);
  const custom = customSettings(configQuery.data).map(({ key, value, pending }) => {
    const setting = displaySettings[key] as { name?: unknown; operatorEditable?: unknown } | undefined;
    return {
      key,
      value,
      pending,
      label: typeof setting?.name === 'string' && setting.name ? setting.name : key,
      editable: canEditCustomSetting(access.role, setting),
    };
  });
  const lastTs = times[0] ?? null;
  const noRecent = intervalS !== null && lastTs !== null && isNoRecentContact(lastTs, intervalS, nowMs);
  const offline = intervalS !== null && isOffline(lastTs, intervalS, nowMs);

  const lat = num(readings.get('gps_lat')?.value);
  const lon = num(readings.get('gps_lon')?.value);
  const hdop = num(readings.get('gps_hdop')?.value);
  const events = (dataQuery.data?.events ?? []).filter((e) => times[index] === undefined || e.ts <= times[index]!);
  const deviceModel =
    typeof (config.device as { model?: unknown } | undefined)?.model === 'string'
      ? (config.device as { model: string }).model
      : null;

  const status = (
    <>
      {lastTs !== null && (
        <span className={`dp-contact${offline ? ' dp-contact--offline' : ''}`}>
          <span className="dp-dot" aria-hidden="true" />
          {offline ? 'Offline' : 'Online'} · last data{' '}
          {formatDistanceStrict(new Date(lastTs * 1000), nowMs, { addSuffix: true })}
        </span>
      )}
      {settings?.deviceSettings.timeDifferenceS !== undefined && (
        <span className="dp-clock" title="Server time minus the device's time at its newest record (staff only)">
          <i className="pi pi-clock" aria-hidden="true" /> Device clock{' '}
          {clockDifferenceText(settings.deviceSettings.timeDifferenceS)}
        </span>
      )}
      {noRecent && (
        <span className="dp-no-recent" role="status">
          <i className="pi pi-exclamation-triangle" aria-hidden="true" /> {NO_RECENT_CONTACT}
        </span>
      )}
    </>
  );

  return (
    <div className="page dp-page">
      <DeviceHeader
        deviceid={deviceid}
        page="Data"
        name={name}
        settings={settings}
        access={access}
        baseTitle={baseTitle}
        dataToPortalDisabled={endpoint?.data_to_portal === false}
        status={status}
        nowMs={nowMs}
        onDistributorTools={() => setTools(true)}
        actions={headerActions?.({
          name,
          notes: settings?.deviceSettings.PORTAL_deviceNotes ?? {},
          canEditNotes: access.editDeviceNotes,
          model: deviceModel,
        })}
      />
      <TimelineBar
        index={index}
        length={times.length}
        ts={times[index] ?? null}
        restricted={access.dataRestricted}
        onIndex={(i) => setSelectedTs(i === 0 ? null : (times[i] ?? null))}
      />
      {dataQuery.isPending || settingsQuery.isPending ? (
        <CardSkeletons />
      ) : dataQuery.isError && !dataQuery.data ? (
        <section className="card dp-empty" role="alert">
          <p>{ERROR_LOADING_DATA}</p>
          <button type="button" className="p-button p-button-outlined" onClick={() => void dataQuery.refetch()}>
            Try again
          </button>
        </section>
      ) : (
        <div className="dp-grid">
          {keys.length === 0 && (
            <section className="card dp-card dp-empty">
              <p>{CARD_MESSAGES.noData}</p>
              <p className="dp-card-note">Readings show here once the device reports.</p>
            </section>
          )}
          {access.triggerCard && triggers.length > 0 && (
            <TriggerCard
              deviceid={deviceid}
              triggers={triggers}
              confirmations={confirmationsOf(triggers, displaySettings)}
            />
          )}
          {access.customSettingsCard && custom.length > 0 && (
            <CustomSettingsCard deviceid={deviceid} settings={custom} />
          )}
          <div className="dp-card dp-card--wide dp-card--events">
            <EventsCard events={events} loading={dataQuery.isPending} />
          </div>
          <div className="dp-card dp-card--wide dp-card--map">
            <Suspense fallback={<div className="card skeleton dp-map-skeleton" aria-busy="true" />}>
              <MapCard
                lat={lat}
                lon={lon}
                hdop={hdop}
                severity={markerSeverity(events.slice(0, 20))}
                label={name}
                ts={times[index] ?? null}
              />
            </Suspense>
          </div>
          {keys.map((key) => {
            const reading = readings.get(key) ?? null;
            const display = resolveDisplay(key, displaySettings[key], reading?.value);
            return (
              <ReadingCard
                key={key}
                deviceid={deviceid}
                reading={reading}
                display={display}
                canEdit={access.editDisplaySettings}
                onEdit={setEditing}
                nowMs={nowMs}
              />
            );
          })}
        </div>
      )}
      {editing !== null && (
        <DisplaySettingsDialog
          deviceid={deviceid}
          dataKey={editing}
          setting={displaySettings[editing]}
          sample={readings.get(editing)?.value}
          onHide={() => setEditing(null)}
        />
      )}
      {access.distributorTools && (
        <DistributorToolsDialog deviceid={deviceid} visible={tools} onHide={() => setTools(false)} />
      )}
    </div>
  );
}

/** Per trigger index, the question it asks before it is queued (only those that ask). */
function confirmationsOf(
  triggers: readonly { index: number; name: string }[],
  displaySettings: Record<string, unknown>,
): Map<number, string> {
  const out = new Map<number, string>();
  for (const t of triggers) {
    const question = triggerConfirmation(t, displaySettings);
    if (question !== null) out.set(t.index, question);
  }
  return out;
}

function CardSkeletons() {
  return (
    <div className="dp-grid" aria-busy="true" aria-label="Loading readings">
      {Array.from({ length: 8 }, (_, i) => (
        <div key={i} className="card dp-card dp-skeleton">
          <div className="skeleton skeleton--label" />
          <div className="skeleton dp-skeleton-value" />
          <div className="skeleton skeleton--label" />
        </div>
      ))}
    </div>
  );
}
