/**
 * A device's charts on its Data page (spec 2 sections 2, 5, 8 and 9; CHT-20, CHT-22, WGT-17 -
 * WGT-19): each custom chart{n} as a card over the last 10 minutes by default with the range
 * buttons, its name linking to its page; the utilisation chart for a device that reports the
 * working states' hour meters; and, for users who may edit display settings, 'New chart', which
 * opens the next free chart{n}'s page, or says 'Maximum number of charts reached [5]' once the
 * device has 5. On a plan without data to the portal: 'Custom charts are unavailable on the
 * {tier} Plan'.
 */
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  CHART_LIMIT_MESSAGE,
  DEVICE_CHART_DEFAULT_RANGE,
  deviceChartKeys,
  deviceChartOf,
  nextChartKey,
  planState,
  reportsUtilisation,
  unavailableFeatureMessage,
  type ChartKeyKind,
  type ChartRange,
  type DeviceAccess,
  type DeviceSettingsResponse,
} from '@portal/core';
import { useKeyKinds } from '../hooks/use-key-kinds';
import { DeviceChartView } from './device-chart-view';
import { UTILISATION_TITLE, UtilisationChart } from './utilisation-chart';
import './device-chart.css';
import { EyeLink } from '@/components/ui/eye-link';

export interface DeviceChartCardsProps {
  deviceid: string;
  /** The device's name (PORTAL_deviceName): export file names start with it (else with the id). */
  deviceName?: string | undefined;
  /** PORTAL_displaySettings: the charts (chart{n}) and the keys' names. */
  displaySettings: Record<string, unknown>;
  /** DATA_latest: which keys hold arrays (bar charts) and whether the device reports the working hour meters. */
  latest: Record<string, { v: unknown; ts: number }>;
  /** The settings record's tier: its plan name and dataToPortal (null: not known, the charts show). */
  tier: DeviceSettingsResponse['deviceSettings']['tier'] | null;
  /** The user's access: editDisplaySettings offers 'New chart'. */
  access: Pick<DeviceAccess, 'editDisplaySettings'>;
}

const chartPath = (deviceid: string, key: string) => `/chart/${encodeURIComponent(deviceid)}/${key}`;

export function DeviceChartCards(props: DeviceChartCardsProps) {
  const { deviceid, displaySettings, latest, tier, access } = props;
  const deviceName = props.deviceName || deviceid;
  const [limit, setLimit] = useState<string | null>(null);
  const navigate = useNavigate();
  const kinds = useKeyKinds(latest);
  const keys = deviceChartKeys(displaySettings);
  const utilisation = reportsUtilisation(Object.keys(latest));

  if (tier && !tier.dataToPortal) {
    const plan = planState({ tier }, Date.now()).plan ?? tier.name;
    return (
      <section
        id="dp-charts"
        className="card dc-cards dc-cards--unavailable"
        aria-labelledby="dc-cards-title"
        data-dp-index="Charts"
      >
        <h2 id="dc-cards-title" className="dc-cards__title">
          Charts
        </h2>
        <p className="dc-cards__empty">{unavailableFeatureMessage('Custom charts', plan)}</p>
      </section>
    );
  }
  if (keys.length === 0 && !utilisation && !access.editDisplaySettings) return null;

  const onNew = () => {
    const key = nextChartKey(displaySettings);
    if (key === null) setLimit(CHART_LIMIT_MESSAGE);
    else navigate(chartPath(deviceid, key));
  };

  return (
    <section id="dp-charts" className="dc-cards" aria-labelledby="dc-cards-title" data-dp-index="Charts">
      <div className="head-row">
        <h2 id="dc-cards-title" className="dc-cards__title">
          Charts
        </h2>
        {access.editDisplaySettings && (
          <button type="button" className="p-button p-button-outlined p-button-sm" onClick={onNew}>
            <i className="pi pi-plus" aria-hidden="true" /> New chart
          </button>
        )}
      </div>
      {limit && (
        <p className="dc-error dc-cards__limit" role="alert">
          {limit}
        </p>
      )}
      {keys.length === 0 && access.editDisplaySettings && (
        <p className="dc-cards__empty">No custom charts yet: New chart draws the device&apos;s keys over time.</p>
      )}
      <div className="dc-cards__grid">
        {keys.map((key) => (
          <ChartCard
            key={key}
            deviceid={deviceid}
            deviceName={deviceName}
            chartKey={key}
            stored={displaySettings[key]}
            displaySettings={displaySettings}
            kinds={kinds}
            canEdit={access.editDisplaySettings}
          />
        ))}
        {utilisation && (
          <section className="card dc-card" aria-label={UTILISATION_TITLE}>
            <h3 className="dc-card__title">{UTILISATION_TITLE}</h3>
            <UtilisationChart deviceid={deviceid} deviceName={deviceName} />
          </section>
        )}
      </div>
    </section>
  );
}

interface ChartCardProps {
  deviceid: string;
  deviceName: string;
  chartKey: string;
  stored: unknown;
  displaySettings: Record<string, unknown>;
  kinds: ReadonlyMap<string, ChartKeyKind>;
  /** The user may edit display settings: the eye button to the chart's page (CARD-05). */
  canEdit: boolean;
}

function ChartCard({ deviceid, deviceName, chartKey, stored, displaySettings, kinds, canEdit }: ChartCardProps) {
  const chart = useMemo(() => deviceChartOf(stored, deviceid), [stored, deviceid]);
  const [range, setRange] = useState<ChartRange>(DEVICE_CHART_DEFAULT_RANGE);
  const title = chart.name?.trim() || chartKey;
  return (
    <section className="card dc-card" aria-label={title}>
      <header className="dc-card__head">
        <h3 className="dc-card__title">
          <Link to={chartPath(deviceid, chartKey)} title="Open the chart's page">
            {title}
          </Link>
        </h3>
        {canEdit && (
          <EyeLink to={chartPath(deviceid, chartKey)} label={`Open chart ${title}`} title="Open this chart's page" />
        )}
      </header>
      <DeviceChartView
        deviceid={deviceid}
        deviceName={deviceName}
        chart={chart}
        title={title}
        displaySettings={displaySettings}
        kinds={kinds}
        range={range}
        onRange={setRange}
        size="card"
      />
    </section>
  );
}
