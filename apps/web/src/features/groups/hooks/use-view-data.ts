/**
 * The data of a group's view in one call (GET /api/group/{groupid}/data): the latest values of
 * every metric column of the view's tables and the stats of those with a range operator, over the view's range (resolved in the viewer's time
 * zone, core resolveTimeRange), loaded again every 30 s (STALE_TIMES_MS.data) while the page is
 * visible.
 */
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  SPECIAL_COLUMN_KINDS,
  STALE_TIMES_MS,
  dataCallRange,
  resolveTimeRange,
  statsKeysOf,
  type TableSettings,
  type TimeRange,
  type View,
  type Widget,
} from '@portal/core';
import { groupDataQueryOptions } from '../api/get-group-data';

const SPECIAL: ReadonlySet<string> = new Set(SPECIAL_COLUMN_KINDS);

/** The view a URL names among the group's views (by sortOrder); no view id or an unknown one shows the first. */
export function viewFor(views: readonly View[], viewid: string | undefined): View | undefined {
  return views.find((view) => view.viewid === viewid) ?? views[0];
}

/** The viewer's time zone (an IANA name), in which ranges are resolved. */
export function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The range a view shows now: its own, or the viewer's session-only choice (see view-range-session). */
export function effectiveRange(view: View, sessionRange: TimeRange | null): TimeRange {
  return sessionRange ?? view.timeRange;
}

/**
 * A table widget's settings (the view's widgets carry them as plain records; views saved by the
 * server were checked against TableSettingsSchema there): no columns when they hold none.
 */
export function tableSettingsOf(widget: Widget): TableSettings {
  const { columns } = widget.settings;
  if (!Array.isArray(columns)) return { columns: [] };
  return widget.settings as TableSettings;
}

/** The keys `keysOf` takes from the columns of the view's tables, once each, sorted. */
function tableKeys(view: View, keysOf: (columns: TableSettings['columns']) => string[]): string[] {
  const keys = new Set<string>();
  for (const widget of Object.values(view.widgets)) {
    if (widget.type === 'table') for (const key of keysOf(tableSettingsOf(widget).columns)) keys.add(key);
  }
  return [...keys].sort();
}

/** The record keys the view's tables show: their columns that are not special kinds. */
export function viewDataKeys(view: View): string[] {
  return tableKeys(view, (columns) =>
    columns.filter((column) => typeof column.key === 'string' && !SPECIAL.has(column.key)).map((c) => c.key),
  );
}

/** The keys whose stats over the range the view's tables need: metric columns with a range operator (core statsKeysOf). */
export function viewStatsKeys(view: View): string[] {
  return tableKeys(view, statsKeysOf);
}

/**
 * The group data query of a view: the keys its widgets show, over `range` resolved at `nowMs`
 * (both ends floored to whole hours, as the server reads them, so a rolling range keeps one query
 * key for the hour).
 */
export function viewDataQueryOptions(groupid: string, view: View, range: TimeRange, nowMs = Date.now()) {
  const { from, to } = dataCallRange(resolveTimeRange(range, nowMs, viewerTimeZone()));
  return groupDataQueryOptions(groupid, { keys: viewDataKeys(view), stats: viewStatsKeys(view), from, to });
}

export function useViewData(groupid: string | undefined, view: View, range: TimeRange) {
  // A new hour gives a new key at the next render (the 30 s refetch renders).
  const hour = Math.floor(Date.now() / 3_600_000);
  const options = useMemo(
    () => viewDataQueryOptions(groupid ?? '', view, range),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `hour` moves the rolling range on.
    [groupid, view, range, hour],
  );
  return useQuery({
    ...options,
    enabled: Boolean(groupid),
    refetchInterval: STALE_TIMES_MS.data,
    refetchIntervalInBackground: false,
  });
}
