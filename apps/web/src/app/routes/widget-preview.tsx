/**
 * The widget editor's live preview (issue 32, after Grafana's panel editor): the widget as the view
 * will show it, drawn by the dashboard's own widget components (group table, chart, headline) in
 * the dashboard's widget card, from the group's real data over the view's range. It follows the
 * draft a moment after each change (PREVIEW_DELAY_MS), and only drafts whose fields are all
 * valid: while a field has a message it keeps the last valid draft and says so. A drawing that
 * fails says so in place; the form stays usable.
 */
import { Component, Suspense, lazy, useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  STALE_TIMES_MS,
  loadErrorDetail,
  timeRangeLabel,
  type HeadlineSettingsRecord,
  type TableSettings,
  type TimeRange,
  type View,
  type Widget,
} from '@portal/core';
import { WidgetCard, WidgetCardSkeleton } from '@/features/groups/components/widget-card';
import { useViewData } from '@/features/groups/hooks/use-view-data';
import type { EditableType } from '@/features/widget-editor/components/widget-editor';

const GroupTableWidget = lazy(() => import('@/features/group-table/components/group-table-widget'));
const HeadlineWidget = lazy(() => import('@/features/group-headline/components/headline-widget'));
const GroupChartWidget = lazy(() => import('@/features/group-chart/components/group-chart-widget'));

/** How long the preview waits after a change before it draws the draft (typing a key asks once). */
export const PREVIEW_DELAY_MS = 400;

/** The card's id in the preview (its title's id is widget-preview-title). */
const PREVIEW_ID = 'preview';

const TITLES: Record<EditableType, string> = { table: 'Devices', chart: 'Chart', headline: 'Headline' };

/** `value`, once it has stayed the same for `delayMs`. */
function useSettled<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/** A drawing that throws says so in the preview's card; new settings try again. */
class PreviewBoundary extends Component<{ resetKey: string; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return <p className="we-preview__failed">The preview cannot draw these settings.</p>;
  }
}

export interface WidgetPreviewProps {
  groupid: string;
  view: View;
  widgetid: string;
  type: EditableType;
  /** The draft's settings. */
  settings: Record<string, unknown>;
  /** Whether the draft's fields are all valid (else the last valid draft stays drawn). */
  valid: boolean;
  /** The group's devices: id and name (the chart's series names). */
  devices: readonly { deviceid: string; name: string }[];
}

export function WidgetPreview({ groupid, view, widgetid, type, settings, valid, devices }: WidgetPreviewProps) {
  const [lastValid, setLastValid] = useState(settings);
  useEffect(() => {
    if (valid) setLastValid(settings);
  }, [valid, settings]);
  const shown = useSettled(valid ? settings : lastValid, PREVIEW_DELAY_MS);
  const range = view.timeRange;
  const resetKey = useMemo(() => JSON.stringify(shown), [shown]);

  return (
    <section className="we-preview" aria-labelledby="we-preview-heading">
      <h2 id="we-preview-heading" className="we-preview__heading">
        Preview
      </h2>
      <div className={`we-preview__frame we-preview__frame--${type}`} data-testid="widget-preview">
        <PreviewBoundary resetKey={resetKey}>
          <Suspense fallback={<WidgetCardSkeleton id={PREVIEW_ID} title={TITLES[type]} />}>
            {type === 'table' ? (
              <TablePreview groupid={groupid} view={view} widgetid={widgetid} settings={shown} range={range} />
            ) : type === 'headline' ? (
              <HeadlineWidget
                groupid={groupid}
                settings={shown as HeadlineSettingsRecord}
                range={range}
                frame={(title, body) => (
                  <WidgetCard id={PREVIEW_ID} title={title}>
                    {body}
                  </WidgetCard>
                )}
              />
            ) : (
              <GroupChartWidget
                settings={shown}
                range={range}
                devices={devices}
                frame={(title, body) => (
                  <WidgetCard id={PREVIEW_ID} title={title}>
                    {body}
                  </WidgetCard>
                )}
              />
            )}
          </Suspense>
        </PreviewBoundary>
      </div>
      <p className="we-hint we-preview__note">
        {valid
          ? `As the view shows it: the group's data over the view's range (${timeRangeLabel(range)}). Save keeps it.`
          : 'Showing the last settings without errors: correct the marked fields to see the rest.'}
      </p>
    </section>
  );
}

/** The table as the view shows it: the group data call over the view's range, with the draft's columns. */
function TablePreview({
  groupid,
  view,
  widgetid,
  settings,
  range,
}: {
  groupid: string;
  view: View;
  widgetid: string;
  settings: Record<string, unknown>;
  range: TimeRange;
}) {
  const table: TableSettings = Array.isArray(settings.columns)
    ? (settings as unknown as TableSettings)
    : { columns: [] };
  // The view's other widgets need nothing from this call: only the previewed table's keys are asked for.
  const previewView = useMemo<View>(
    () => ({ ...view, widgets: { [widgetid]: { ...(view.widgets[widgetid] as Widget), settings } } }),
    [view, widgetid, settings],
  );
  const data = useViewData(groupid, previewView, range);
  return (
    <WidgetCard id={PREVIEW_ID} title={TITLES.table}>
      <GroupTableWidget
        settings={table}
        devices={data.data?.devices ?? []}
        loading={data.isPending}
        fetching={data.isFetching}
        error={data.isError && !data.data ? loadErrorDetail(data.error) : null}
        updatedAt={data.dataUpdatedAt}
        refreshIntervalMs={STALE_TIMES_MS.data}
        onRefresh={() => void data.refetch()}
      />
    </WidgetCard>
  );
}
