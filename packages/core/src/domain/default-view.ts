/**
 * The view a group shows when it has none (spec 1 section 2), kept apart from the view schemas
 * (contracts/views.ts): the web's entry chunk reads the views (viewsOrDefault) for its start-up
 * prefetch, and the module it reads them from lands in that chunk with every export some lazy
 * chunk uses, so a schema here would bring Zod into every route.
 */
import type { TableSettings, View, WidgetLayout, WidgetLayouts } from '../contracts/views';
import { GRID_COLS } from './constants';
import { DEFAULT_VIEW_ID } from './ids';
import { DEFAULT_VIEW_NAME } from './messages';
import { SPECIAL_COLUMN_HEADERS } from './widget-kinds';

/** The same layout at every breakpoint, its width clipped to the breakpoint's columns. */
function layoutsOf(x: number, y: number, w: number, h: number): WidgetLayouts {
  const at = (columns: number): WidgetLayout => ({
    x,
    y,
    w: Math.min(w, columns),
    h,
    minW: Math.min(w, columns),
    minH: 4,
  });
  return { lg: at(GRID_COLS.lg), md: at(GRID_COLS.md), sm: at(GRID_COLS.sm) };
}

/** The default view's table columns: type, deviceid, ts (Last Contact), events (Event Messages). */
export const DEFAULT_TABLE_SETTINGS: TableSettings = {
  columns: [
    { key: 'type', dataType: 'special', name: SPECIAL_COLUMN_HEADERS.type },
    { key: 'deviceid', dataType: 'special', name: SPECIAL_COLUMN_HEADERS.deviceid },
    { key: 'ts', dataType: 'special', name: SPECIAL_COLUMN_HEADERS.ts },
    { key: 'messages', dataType: 'special', name: SPECIAL_COLUMN_HEADERS.messages },
  ],
};

/**
 * The view a group shows when it has none (spec 1 section 2): view1 'Default View', sortOrder 1,
 * 7 days; widget1 a 12 x 12 table, widget2 a 12 x 12 map at y 12.
 */
export const DEFAULT_VIEW: View = {
  viewid: DEFAULT_VIEW_ID,
  name: DEFAULT_VIEW_NAME,
  sortOrder: 1,
  timeRange: { type: 'day', amount: 7 },
  widgets: {
    widget1: { type: 'table', settings: DEFAULT_TABLE_SETTINGS, layouts: layoutsOf(0, 0, 12, 12) },
    widget2: { type: 'map', settings: {}, layouts: layoutsOf(0, 12, 12, 12) },
  },
  version: 0,
};

/** The views a group shows: its own by sortOrder (ties keep their order), or the default view when it has none. */
export function viewsOrDefault(views: readonly View[]): View[] {
  if (views.length === 0) return [DEFAULT_VIEW];
  return [...views].sort((a, b) => a.sortOrder - b.sortOrder);
}
