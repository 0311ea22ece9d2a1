/**
 * The device Data page (spec 2 sections 2 and 4, UI.md 'Device page'): header, timeline, then the
 * readings first, one card per data key in display order under its section (the display setting's
 * groupKey, else the catalogue's: DESIGN.md section 5), then the authored cards the app adds
 * (widget cards, custom charts), remote triggers, custom settings, events and the map. Polls on
 * the device's rhythm.
 */
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  CARD_MESSAGES,
  canEditCustomSetting,
  cardSections,
  triggerConfirmation,
  ERROR_LOADING_DATA,
  contactStatus,
  dataPointsFor,
  deviceAccess,
  appliedIntervalSeconds,
  keyDisplayName,
  markerSeverity,
  mergeSeries,
  readingsAt,
  recordTimes,
  resolveDisplay,
  sectionSuggestions,
  showsLastKnownValues,
  steppableTimes,
  type DeviceAccess,
  type DeviceSettingsResponse,
} from '@portal/core';
import {
  configSettings,
  customSettings,
  deviceIdentity,
  triggerParameters,
  useDeviceConfig,
} from '../api/device-config';
import { useDeviceData } from '../api/device-data';
import { isDeviceNotFound } from '../api/device-not-found';
import { useDeviceSettings } from '../api/device-settings';
import { usePollingSchedule } from '../hooks/use-polling-schedule';
import { useNow } from '@/lib/use-now';
import { useCollapsedSections } from '../hooks/use-collapsed-sections';
import { CardSection } from './card-section';
import { ContactStatusLine } from './contact-status';
import { CustomSettingsCard } from './custom-settings-card';
import { DeviceHeader, DeviceHeaderSkeleton } from './device-header';
import { DeviceNotFound } from './device-not-found';
import { DisplaySettingsDialog } from './display-settings-dialog';
import { DistributorToolsDialog } from './distributor-tools-dialog';
import { EventsCard } from './events-card';
import { MapCard } from './map-frame';
import { ReadingCard } from './reading-card';
import { SectionIndex } from './section-index';
import { TimelineBar } from './timeline-bar';
import { TriggerCard } from './trigger-card';

/** What the app's authored cards (widget cards, custom charts) get from the Data page. */
export interface AuthoredCardsContext {
  deviceid: string;
  /** The user's access to the device (what they may edit, see, run). */
  access: DeviceAccess;
  /** PORTAL_displaySettings: the widget{n} and chart{n} entries among the keys' settings. */
  displaySettings: Record<string, unknown>;
  /**
   * Every key's value at the timeline's record, shaped like DATA_latest: the newest values while
   * the timeline follows the latest record, a past record's when the user steps back. A key the
   * record lacks holds its last known value (with that value's time).
   */
  latest: Record<string, { v: unknown; ts: number }>;
  /** The time of the timeline's record (epoch seconds), or null with no record yet. */
  ts: number | null;
  /** The device's plan (name, data to portal, trial days); null when its settings could not be read. */
  tier: DeviceSettingsResponse['deviceSettings']['tier'] | null;
  /** The device is not online (core contactStatus): the values are its last known ones. */
  stale: boolean;
  /** config.settings of the config the device runs (for {cfg.PATH} templates). */
  config: Record<string, unknown>;
  /** The page clock (epoch ms). */
  nowMs: number;
}

export interface DataPageProps {
  deviceid: string;
  userGroups: readonly string[];
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
  /**
   * The device's authored cards (widget cards, custom charts), shown as their own block after the
   * readings' sections and before triggers, custom settings, events and the map: readings open the
   * page, and authored cards that grow as they load never push readings in view (docs/decisions.md).
   */
  authoredCards?: (ctx: AuthoredCardsContext) => ReactNode;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function DataPage({ deviceid, userGroups, headerActions, onOpened, footer, authoredCards }: DataPageProps) {
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
  // The device's interval from the config it applied and reported (core appliedIntervalSeconds); unknown until read.
  const intervalS = configQuery.data ? appliedIntervalSeconds(configQuery.data.config) : null;
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
  const [collapsed, toggleSection, setFolded] = useCollapsedSections(deviceid);

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
  const sections = useMemo(() => cardSections([...series.keys()], displaySettings), [series, displaySettings]);
  // The section index names a reading section by its element id (dp-section-{i}).
  const unfoldSection = useCallback(
    (domId: string) => {
      const section = sections[Number(domId.replace('dp-section-', ''))];
      if (section) setFolded([section.id], false);
    },
    [sections, setFolded],
  );
  const foldAll = useCallback(
    (folded: boolean) =>
      setFolded(
        sections.map((section) => section.id),
        folded,
      ),
    [sections, setFolded],
  );
  const latest = useMemo(() => {
    const out: Record<string, { v: unknown; ts: number }> = {};
    for (const [key, r] of readings) if (r) out[key] = { v: r.value, ts: r.ts };
    return out;
  }, [readings]);

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
  const { model: deviceModel, firmware } = deviceIdentity(configQuery.data);

  const statusLine = (
    <ContactStatusLine
      status={status}
      lastTs={lastTs}
      nowMs={nowMs}
      timeDifferenceS={settings?.deviceSettings.timeDifferenceS}
    />
  );

  const authoredNode = authoredCards?.({
    deviceid,
    access,
    displaySettings,
    latest,
    ts: times[index] ?? null,
    tier: settings?.deviceSettings.tier ?? null,
    stale: lastKnown,
    config,
    nowMs,
  });
  const authored = authoredNode ? <div className="dp-authored">{authoredNode}</div> : null;

  if (settingsNotFound || isDeviceNotFound(configQuery.error) || isDeviceNotFound(dataQuery.error)) {
    return <DeviceNotFound deviceid={deviceid} />;
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
        dataToPortalDisabled={endpoint?.data_to_portal === false}
        status={statusLine}
        nowMs={nowMs}
        model={deviceModel}
        firmware={firmware}
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
        <>
          {/* The index of the page's sections, in sight while the page scrolls; then the readings. */}
          <SectionIndex onUnfold={unfoldSection} onFoldAll={foldAll} />
          {/* Readings first (UI.md): in sections, then the authored cards (docs/decisions.md). */}
          <div className="dp-readings">
            {sections.length === 0 && (
              <div className="dp-section-grid">
                <section className="card dp-card dp-empty">
                  <p>{CARD_MESSAGES.noData}</p>
                  <p className="dp-card-note">Readings show here once the device reports.</p>
                </section>
              </div>
            )}
            {sections.map((section, i) => (
              <CardSection
                key={section.id}
                domId={`dp-section-${i}`}
                name={section.name}
                count={section.keys.length}
                collapsed={collapsed.has(section.id)}
                onToggle={() => toggleSection(section.id)}
              >
                {section.keys.map((key) => {
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
              </CardSection>
            ))}
            {authored}
          </div>
          {/* Then triggers, custom settings, events and the map (the last two span two columns). */}
          <div className="dp-grid">
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
            <div id="dp-events" className="dp-card dp-card--wide dp-card--events" data-dp-index="Events">
              <EventsCard events={events} loading={dataQuery.isPending} />
            </div>
            <div id="dp-map" className="dp-card dp-card--wide dp-card--map" data-dp-index="Map">
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
        </>
      )}
      {footer?.({ access })}
      {editing !== null && (
        <DisplaySettingsDialog
          deviceid={deviceid}
          dataKey={editing}
          setting={displaySettings[editing]}
          sample={readings.get(editing)?.value}
          sections={sectionSuggestions(sections)}
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

/** The page while its first answers come: the header's lines, the timeline bar and a section of cards. */
function DataPageSkeleton() {
  return (
    <div className="page dp-page" aria-busy="true" role="status" aria-label="Loading the device">
      <DeviceHeaderSkeleton />
      <div className="skeleton dp-timeline-skeleton" />
      <div className="dp-readings">
        <div className="dp-section">
          <div className="skeleton dp-section-skeleton" />
          <div className="dp-section-grid">
            {Array.from({ length: 8 }, (_, i) => (
              <div key={i} className="card dp-card dp-skeleton">
                <div className="skeleton skeleton--label" />
                <div className="skeleton dp-skeleton-value" />
                <div className="skeleton skeleton--label" />
              </div>
            ))}
          </div>
        </div>
      </div>
    </div>
  );
}
