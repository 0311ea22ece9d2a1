/**
 * The chart page /chart/{deviceid}/chart{n} (spec 2 sections 2, 3, 5 and 9; CHT-21, WGT-17 -
 * WGT-22): the chart over the last 6 hours by default with the relative range buttons; for users
 * who may edit display settings (ADMIN, USER), Edit opens the editor beside the chart at desktop
 * width (under it on a narrow screen), and the chart draws the draft as it changes; Save stores it as PORTAL_displaySettings.chart{n}, Delete asks first
 * and removes it, Cancel drops the changes. A chart{n} the device does not have yet is a new chart
 * (the editor opens at once) while the device has fewer than 5; at 5 the page says 'Maximum
 * number of charts reached [5]'; anyone who may not edit is told 'Chart not found', as a widget
 * card's page does. /chart/{deviceid}/new opens the next free chart{n} (NewDeviceChart), as
 * /widget/{deviceid}/new does. On a plan without data to the portal the page says 'Custom charts
 * are unavailable on the {tier} Plan'. The server decides the role, plan and limit again.
 */
import { useMemo, useRef, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import {
  CHART_LIMIT_MESSAGE,
  CHART_PAGE_DEFAULT_RANGE,
  deviceChartOf,
  newDeviceChart,
  nextChartKey,
  planState,
  unavailableFeatureMessage,
  type ChartRange,
  type ChartSettings,
  type DeviceAccess,
  type DeviceSettingsResponse,
} from '@portal/core';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useMessageDialog } from '@/lib/message-dialog';
import { useSaveDeviceChart } from '../api/save-device-chart';
import { useKeyKinds } from '../hooks/use-key-kinds';
import { chartErrors } from '../utils/chart-errors';
import { drawnChart } from '../utils/chart-series';
import { ChartEditor } from './chart-editor';
import { DeviceChartView } from './device-chart-view';
import './device-chart.css';

export interface DeviceChartPageProps {
  deviceid: string;
  /** chart1 ... chart999. */
  chartKey: string;
  settings: DeviceSettingsResponse;
  access: DeviceAccess;
  /** The device's name (the export file's first part). */
  deviceName: string;
}

/** The heading of a chart{n} page the device does not have, for someone who may not make it. */
export const CHART_NOT_FOUND = 'Chart not found';

/** Why a chart cannot be shown, as a card with a way back to the Data page. */
function ChartPageMessage({
  deviceid,
  text,
  title,
  alert = false,
}: {
  deviceid: string;
  text: string;
  /** A heading above the text ('Chart not found'). */
  title?: string;
  alert?: boolean;
}) {
  return (
    <section className="card dc-message" role={alert ? 'alert' : undefined}>
      {title && <h2 className="dc-page__title">{title}</h2>}
      <p>{text}</p>
      <Link className="p-button p-button-outlined p-button-sm" to={`/data/${encodeURIComponent(deviceid)}`}>
        Back to the Data page
      </Link>
    </section>
  );
}

export function DeviceChartPage({ deviceid, chartKey, settings, access, deviceName }: DeviceChartPageProps) {
  const displaySettings = settings.deviceSettings.PORTAL_displaySettings;
  const stored = displaySettings[chartKey];
  const saved = useMemo(() => (stored == null ? null : deviceChartOf(stored, deviceid)), [stored, deviceid]);
  const kinds = useKeyKinds(settings.deviceSettings.DATA_latest);
  const canEdit = access.editDisplaySettings;
  // A chart{n} the device did not have when the page opened, until it is saved.
  const [isNew, setIsNew] = useState(() => saved === null);
  // What was last stored: shown while a deleted chart's page is left.
  const lastSaved = useRef(saved);
  if (saved) lastSaved.current = saved;
  const [draft, setDraft] = useState<ChartSettings | null>(() => (isNew && canEdit ? newDeviceChart(chartKey) : null));
  const [range, setRange] = useState<ChartRange>(CHART_PAGE_DEFAULT_RANGE);
  const [showErrors, setShowErrors] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const save = useSaveDeviceChart(deviceid);
  const messages = useMessageDialog();
  const navigate = useNavigate();
  const dataPath = `/data/${encodeURIComponent(deviceid)}`;

  if (!access.dataToPortal) {
    const tier = settings.deviceSettings.tier;
    const plan = planState({ tier }, Date.now()).plan ?? tier.name;
    return <ChartPageMessage deviceid={deviceid} text={unavailableFeatureMessage('Custom charts', plan)} />;
  }
  if (isNew && !canEdit)
    return (
      <ChartPageMessage
        deviceid={deviceid}
        title={CHART_NOT_FOUND}
        text={`This device has no chart ${chartKey}. It may have been deleted.`}
      />
    );
  // A new chart once the device has 5: refused before an editor opens.
  if (isNew && nextChartKey(displaySettings) === null) {
    return <ChartPageMessage deviceid={deviceid} text={CHART_LIMIT_MESSAGE} alert />;
  }

  const chart = draft ?? saved ?? lastSaved.current ?? newDeviceChart(chartKey);
  const title = chart.name?.trim() || chartKey;
  const errors = showErrors && draft ? chartErrors(draft) : {};
  const bars = drawnChart(chart, kinds).bars;

  const onSave = () => {
    if (!draft) return;
    if (Object.keys(chartErrors(draft)).length > 0) {
      setShowErrors(true);
      return;
    }
    const toSave: ChartSettings = { ...draft, series: draft.series.map((s) => ({ ...s, source: deviceid })) };
    save.mutate(
      { key: chartKey, chart: toSave },
      {
        onSuccess: () => {
          setDraft(null);
          setShowErrors(false);
          setIsNew(false);
        },
        onError: (err) => messages.showError(err),
      },
    );
  };
  const onDelete = () =>
    save.mutate(
      { key: chartKey, chart: null },
      {
        onSuccess: () => navigate(dataPath),
        onError: (err) => {
          setConfirmDelete(false);
          messages.showError(err);
        },
      },
    );
  const onCancel = () => {
    if (isNew) navigate(dataPath);
    else {
      setDraft(null);
      setShowErrors(false);
    }
  };

  return (
    <div className={draft === null ? 'dc-layout' : 'dc-layout dc-layout--editing'}>
      <section className="card dc-page dc-page--chart" aria-labelledby="dc-page-title">
        <div className="head-row">
          <h2 id="dc-page-title" className="dc-page__title">
            {isNew ? `New chart: ${title}` : title}
          </h2>
          {canEdit && draft === null && (
            <button type="button" className="p-button p-button-outlined p-button-sm" onClick={() => setDraft(chart)}>
              <i className="pi pi-pencil" aria-hidden="true" /> Edit
            </button>
          )}
        </div>
        <DeviceChartView
          deviceid={deviceid}
          deviceName={deviceName}
          chart={chart}
          title={title}
          displaySettings={displaySettings}
          kinds={kinds}
          range={range}
          onRange={setRange}
          size="page"
        />
      </section>
      {draft !== null && (
        <section className="card dc-page dc-page--editor" aria-label="Chart settings">
          <h2 className="dc-page__title">Chart settings</h2>
          <ChartEditor
            deviceid={deviceid}
            chart={draft}
            onChange={setDraft}
            errors={errors}
            kinds={kinds}
            displaySettings={displaySettings}
            bars={bars}
          />
          {showErrors && Object.keys(errors).length > 0 && (
            <p className="dc-error" role="alert">
              Check the fields marked above.
            </p>
          )}
          <div className="dc-actions">
            {!isNew && (
              <button
                type="button"
                className="p-button p-button-text p-button-danger dc-actions__delete"
                disabled={save.isPending}
                onClick={() => setConfirmDelete(true)}
              >
                <i className="pi pi-trash" aria-hidden="true" /> Delete
              </button>
            )}
            <button type="button" className="p-button p-button-text" disabled={save.isPending} onClick={onCancel}>
              Cancel
            </button>
            <button type="button" className="p-button" disabled={save.isPending} onClick={onSave}>
              <i className={`pi ${save.isPending ? 'pi-spin pi-spinner' : 'pi-check'}`} aria-hidden="true" /> Save
            </button>
          </div>
        </section>
      )}
      <ConfirmDialog
        visible={confirmDelete}
        header="Delete chart"
        confirmLabel="Delete"
        confirmIcon="pi pi-trash"
        busy={save.isPending}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={onDelete}
      >
        Delete the chart ‘{title}’? It is removed for everyone who uses this device.
      </ConfirmDialog>
    </div>
  );
}

/**
 * /chart/{deviceid}/new: to the next free chart{n} (which opens as a new chart), or, once the
 * device has 5, 'Maximum number of charts reached [5]' here, as /widget/{deviceid}/new does for cards.
 */
export function NewDeviceChart({ deviceid, settings }: { deviceid: string; settings: DeviceSettingsResponse }) {
  const next = nextChartKey(settings.deviceSettings.PORTAL_displaySettings);
  if (next === null) return <ChartPageMessage deviceid={deviceid} text={CHART_LIMIT_MESSAGE} alert />;
  return <Navigate replace to={`/chart/${encodeURIComponent(deviceid)}/${next}`} />;
}
