/**
 * The device Data page (spec 2 sections 2 and 4): header, timeline, one card per data key in
 * display order, events, map and remote triggers, polling on the device's rhythm.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  CARD_MESSAGES,
  CONTACT_STATUS_DISPLAY,
  canEditCustomSetting,
  clockDifferenceText,
  triggerConfirmation,
  ERROR_LOADING_DATA,
  contactStatus,
  dataPointsFor,
  deviceAccess,
  expectedIntervalSeconds,
  keyDisplayName,
  markerSeverity,
  mergeSeries,
  orderedKeys,
  readingsAt,
  recordTimes,
  notAfterNow,
  resolveDisplay,
  showsLastKnownValues,
  steppableTimes,
  type DeviceAccess,
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
import { isDeviceNotFound } from '../api/device-not-found';
import { useDeviceSettings } from '../api/device-settings';
import { usePollingSchedule } from '../hooks/use-polling-schedule';
import { useNow } from '../hooks/use-now';
import { CustomSettingsCard } from './custom-settings-card';
import { DeviceHeader, DeviceHeaderSkeleton } from './device-header';
import { DeviceNotFound } from './device-not-found';
import { DisplaySettingsDialog } from './display-settings-dialog';
import { DistributorToolsDialog } from './distributor-tools-dialog';
import { EventsCard } from './events-card';
import { MapCard } from './map-frame';
import { ReadingCard } from './reading-card';
import { TimelineBar } from './timeline-bar';
import { TriggerCard } from './trigger-card';

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
  /** Cards the app adds below the readings (the command queue), given the user's access. */
  footer?: (info: { access: DeviceAccess }) => ReactNode;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function DataPage({ deviceid, userGroups, baseTitle, headerActions, onOpened, footer }: DataPageProps) {
  const settingsQuery = useDeviceSettings(deviceid);
  const settings = settingsQuery.data;
  // While the settings load: a viewer without an error (no banner); the data is asked for at the same time.
  const access = deviceAccess({
    settings: settingsQuery.isError ? null : (settings ?? { myPermission: 'VIEW' }),
    userGroups,
  });
  // A device that does not exist or is not the user's: one not-found state, and nothing more is asked.
  const settingsNotFound = isDeviceNotFound(settingsQuery.error);
  const configQuery = useDeviceConfig(deviceid, !settingsNotFound);
  const { baseInterval, transmitInterval } = deviceIntervals(configQuery.data);
  // The device's interval (base_interval x transmit_interval); unknown until its config is read.
  const intervalS = configQuery.data ? expectedIntervalSeconds(baseInterval, transmitInterval) : null;
  const schedule = usePollingSchedule(intervalS);
  const dataQuery = useDeviceData(deviceid, dataPointsFor(access), {
    refetchInterval: schedule,
    enabled: !settingsNotFound,
  });
  // The page clock: every 15 s, and at once when an answer arrives, so a new record is never 'in 2 seconds'.
  const nowMs = useNow(15_000, dataQuery.dataUpdatedAt);

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
      label: keyDisplayName(key, setting),
      editable: canEditCustomSetting(access.role, setting),
    };
  });
  const lastTs = times[0] ?? null;
  // One contact status (core contactStatus), decided once the records and the interval are known.
  const status =
    configQuery.isPending || dataQuery.isPending ? null : contactStatus({ lastRecordS: lastTs, intervalS }, nowMs);
  // Not online: the latest values are the last known ones (muted, 'Last known value from {time}').
  const lastKnown = status !== null && showsLastKnownValues(status) && index === 0;

  const lat = num(readings.get('gps_lat')?.value);
  const lon = num(readings.get('gps_lon')?.value);
  const hdop = num(readings.get('gps_hdop')?.value);
  const events = (dataQuery.data?.events ?? []).filter((e) => times[index] === undefined || e.ts <= times[index]!);
  const deviceModel =
    typeof (config.device as { model?: unknown } | undefined)?.model === 'string'
      ? (config.device as { model: string }).model
      : null;

  const statusLine = (
    <>
      {status !== null && (
        <span className={`dp-contact dp-contact--${CONTACT_STATUS_DISPLAY[status].colour}`}>
          <span className="dp-dot" aria-hidden="true" />
          <span>
            <span className="dp-contact-label" role="status">
              {CONTACT_STATUS_DISPLAY[status].label}
            </span>
            {lastTs === null ? (
              ' · no data yet'
            ) : (
              <>
                {' · last data '}
                <time dateTime={new Date(lastTs * 1000).toISOString()}>
                  {formatDistanceStrict(notAfterNow(lastTs * 1000, nowMs), nowMs, { addSuffix: true })}
                </time>
              </>
            )}
          </span>
        </span>
      )}
      {settings?.deviceSettings.timeDifferenceS !== undefined && (
        <span className="dp-clock" title="Server time minus the device's time at its newest record (staff only)">
          <i className="pi pi-clock" aria-hidden="true" /> Device clock{' '}
          {clockDifferenceText(settings.deviceSettings.timeDifferenceS)}
        </span>
      )}
    </>
  );

  if (settingsNotFound || isDeviceNotFound(configQuery.error) || isDeviceNotFound(dataQuery.error)) {
    return <DeviceNotFound deviceid={deviceid} baseTitle={baseTitle} />;
  }

  // The header, its banners and the cards wait for all three first answers, whatever order they come
  // in, so nothing moves when the later ones arrive: a skeleton of the page holds its place until then.
  if (settingsQuery.isPending || configQuery.isPending || dataQuery.isPending) return <DataPageSkeleton />;

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
        status={statusLine}
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
      {dataQuery.isError && !dataQuery.data ? (
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
          {/* Readings first (UI.md): triggers, custom settings, events and the map after them. */}
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
                lastKnown={lastKnown}
                nowMs={nowMs}
              />
            );
          })}
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
            <MapCard
              lat={lat}
              lon={lon}
              hdop={hdop}
              severity={markerSeverity(events.slice(0, 20))}
              label={name}
              ts={times[index] ?? null}
            />
          </div>
        </div>
      )}
      {footer?.({ access })}
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

/** The page while its first answers come: the header's lines, the timeline bar and a grid of cards. */
function DataPageSkeleton() {
  return (
    <div className="page dp-page" aria-busy="true" role="status" aria-label="Loading the device">
      <DeviceHeaderSkeleton />
      <div className="skeleton dp-timeline-skeleton" />
      <div className="dp-grid">
        {Array.from({ length: 8 }, (_, i) => (
          <div key={i} className="card dp-card dp-skeleton">
            <div className="skeleton skeleton--label" />
            <div className="skeleton dp-skeleton-value" />
            <div className="skeleton skeleton--label" />
          </div>
        ))}
      </div>
    </div>
  );
}
