/**
 * The data of a group's view in one call (GET /api/group/{groupid}/data): the latest values of
 * every metric column of the view's tables, over the view's range, loaded again every 30 s
 * (STALE_TIMES_MS.data) while the page is visible.
 */
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  DEFAULT_VIEW,
  SPECIAL_COLUMN_KINDS,
  STALE_TIMES_MS,
  type TableSettings,
  type View,
  type Widget,
} from '@portal/core';
import { groupDataQueryOptions } from '../api/get-group-data';

const SPECIAL: ReadonlySet<string> = new Set(SPECIAL_COLUMN_KINDS);

/** The views a group shows: only the default view until views can be saved (the next issue). */
export const VIEWS: readonly View[] = [DEFAULT_VIEW];

/** The view a URL names; an unknown (or no) view id shows the first view. */
export function viewFor(viewid: string | undefined): View {
  return VIEWS.find((view) => view.viewid === viewid) ?? DEFAULT_VIEW;
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

/** The record keys the view's tables show: their columns that are not special kinds, once each, sorted. */
export function viewDataKeys(view: View): string[] {
  const keys = new Set<string>();
  for (const widget of Object.values(view.widgets)) {
    if (widget.type !== 'table') continue;
    for (const column of tableSettingsOf(widget).columns) {
      if (typeof column.key === 'string' && !SPECIAL.has(column.key)) keys.add(column.key);
    }
  }
  return [...keys].sort();
}

/** The group data query of a view: the keys its widgets show, over its range. */
export function viewDataQueryOptions(groupid: string, view: View) {
  // The default view's range (7 days) is the call's default: no from/to. Ranges of saved views
  // come with the view editor.
  return groupDataQueryOptions(groupid, { keys: viewDataKeys(view) });
}

export function useViewData(groupid: string | undefined, view: View) {
  const options = useMemo(() => viewDataQueryOptions(groupid ?? '', view), [groupid, view]);
  return useQuery({
    ...options,
    enabled: Boolean(groupid),
    refetchInterval: STALE_TIMES_MS.data,
    refetchIntervalInBackground: false,
  });
}
