/**
 * The dashboard's headline tile (spec 2 sections 3, 4, 5 and 8; ledger CHT-01 - CHT-06): one
 * group metrics call for the tile's key and operator over the view's current period and the one
 * before it, the value with the tile's decimals and unit ('---' when there is none), and the
 * trend against the previous period when the rounded values differ; where there is no value, the
 * tile says why under its '---'. The periods include the hour in progress (core headlinePeriods),
 * read again every 5 minutes. The rules are core's (resolveHeadline, headlinePeriods,
 * headlineDisplay, headlineMissingReason); this only draws them.
 */
import { useImperativeHandle, useMemo, type ReactNode, type RefObject } from 'react';
import {
  ERROR_LOADING_DATA,
  MISSING_VALUE,
  STALE_TIMES_MS,
  headlineDisplay,
  headlineExport,
  headlineMissingReason,
  headlinePeriods,
  headlineTitle,
  resolveHeadline,
  resolveTimeRange,
  timeRangeLabel,
  type ExportTable,
  type HeadlineSettingsRecord,
  type ResolvedHeadline,
  type TimeRange,
} from '@portal/core';
import { useNow } from '@/lib/use-now';
import { useGroupMetrics } from '../api/get-group-metrics';
import './headline.css';

export interface HeadlineWidgetProps {
  groupid: string;
  /** The widget's settings as the view carries them. */
  settings: HeadlineSettingsRecord;
  /** The range the view shows (its own, or the viewer's choice for the session). */
  range: TimeRange;
  /**
   * The card around the tile, given its title ('Battery Voltage · Average'): the dashboard's
   * widget card. The title is made here so the measurement catalogue it reads stays in this chunk.
   */
  frame: (title: string, body: ReactNode) => ReactNode;
  /**
   * Where the tile puts its export getter (the card's export menu reads it): one row of key,
   * operator, value, previous, unit and the period read (core headlineExport).
   */
  exportRef?: RefObject<(() => ExportTable | null) | null> | undefined;
}

export function HeadlineWidget({ groupid, settings, range, frame, exportRef }: HeadlineWidgetProps) {
  const headline = useMemo(() => resolveHeadline(settings), [settings]);
  return (
    <>
      {frame(
        headlineTitle(headline),
        <HeadlineBody groupid={groupid} headline={headline} range={range} exportRef={exportRef} />,
      )}
    </>
  );
}

const timeZoneOfViewer = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

function HeadlineBody({
  groupid,
  headline,
  range,
  exportRef,
}: {
  groupid: string;
  headline: ResolvedHeadline;
  range: TimeRange;
  exportRef: HeadlineWidgetProps['exportRef'];
}) {
  // Moved on every 5 minutes (the metrics' freshness): a new hour gives new periods.
  const nowMs = useNow(STALE_TIMES_MS.metrics);
  const hour = Math.floor(nowMs / 3_600_000);
  const periods = useMemo(
    () => headlinePeriods(resolveTimeRange(range, nowMs, timeZoneOfViewer())),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the periods move on with the hour, not each tick.
    [range, hour],
  );
  const metrics = useGroupMetrics(groupid, { key: headline.key, operator: headline.operator, ...periods });
  useImperativeHandle(
    exportRef,
    () => () =>
      metrics.data
        ? headlineExport({
            headline,
            current: metrics.data.currentPeriod.value,
            previous: metrics.data.previousPeriod.value,
            period: periods.current,
            timeZone: timeZoneOfViewer(),
          })
        : null,
    [metrics.data, headline, periods],
  );

  if (headline.key === '') return <MissingValue reason={headlineMissingReason('', { value: null, count: 0 })} />;
  if (metrics.isPending) {
    return (
      <div className="headline" aria-busy="true">
        <div className="headline__value-skeleton skeleton" />
        <div className="headline__trend-skeleton skeleton" />
      </div>
    );
  }
  if (metrics.isError) {
    return (
      <div className="headline">
        <p className="headline__error" role="alert">
          <i className="pi pi-exclamation-triangle" aria-hidden="true" /> {ERROR_LOADING_DATA}
        </p>
        <button
          type="button"
          className="p-button p-button-outlined p-button-sm headline__retry"
          onClick={() => void metrics.refetch()}
        >
          Retry
        </button>
      </div>
    );
  }

  const shown = headlineDisplay(metrics.data.currentPeriod.value, metrics.data.previousPeriod.value, headline.dp);
  if (shown.missing)
    return (
      <MissingValue reason={headlineMissingReason(headline.key, metrics.data.currentPeriod)}>
        <p className="headline__period">{timeRangeLabel(range)}</p>
      </MissingValue>
    );
  return (
    <div className="headline">
      <p className="headline__reading">
        <span className="headline__value">{shown.value}</span>
        {headline.unit ? <span className="headline__unit">{headline.unit}</span> : null}
      </p>
      {shown.trend ? (
        <p className="headline__trend">
          <i
            className={`headline__arrow pi ${shown.trend.direction === 'up' ? 'pi-arrow-up' : 'pi-arrow-down'}`}
            style={headline.trendColor ? { color: headline.trendColor } : undefined}
            aria-hidden="true"
          />
          {shown.trend.text}
        </p>
      ) : null}
      <p className="headline__period">{timeRangeLabel(range)}</p>
    </div>
  );
}

/** The tile without a value: '---' and why (no key chosen, no data in the period). */
function MissingValue({ reason, children }: { reason: string | null; children?: ReactNode }) {
  return (
    <div className="headline">
      <p className="headline__reading">
        <span className="headline__value headline__value--missing">{MISSING_VALUE.headline}</span>
      </p>
      {reason ? <p className="headline__reason">{reason}</p> : null}
      {children}
    </div>
  );
}

export default HeadlineWidget;
