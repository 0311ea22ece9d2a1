/**
 * Editing a view's widgets on the dashboard (spec 1 sections 2 'Group view', 3 'View', 5 'widget
 * limits'): which widgets may be added, a new widget's default settings and its place at every
 * breakpoint (below the widgets there), which may be removed or resized, and a breakpoint's layout
 * after a drag, a resize or a keyboard move written back into the view's widgets.
 *
 * The grid itself (dragging, resizing, compaction) is react-grid-layout's; these rules are what
 * the web asks before it changes the view and what the server checks again on save.
 */
import type { z } from 'zod';
import type { HeadlineSettingsSchema, ChartSettings, Widget, WidgetLayout, WidgetLayouts } from '../contracts/views';
import { DEFAULT_TABLE_SETTINGS } from './default-view';
import type { WidgetType } from './widget-kinds';
import {
  CUSTOM_WIDGET_LIMIT,
  GRID_BREAKPOINT_NAMES,
  GRID_COLS,
  MAP_WIDGETS_PER_VIEW,
  type GridBreakpoint,
} from './constants';
import { widgetLimitMessage } from './screen-messages';

/** The widgets of a view, keyed by widget id. */
export type ViewWidgets = Record<string, Widget>;

/**
 * The kinds the Add Widget control offers, in its order. A table is offered too but, as it can
 * never be removed, only while the view has none (TABLE_WIDGETS_PER_VIEW).
 */
export const ADDABLE_WIDGET_TYPES = ['chart', 'headline', 'map', 'table'] as const satisfies readonly WidgetType[];

/** Tables a view may be given through Add Widget (a table cannot be removed, so a second one would stay for good). */
export const TABLE_WIDGETS_PER_VIEW = 1;

/** The kinds whose settings the widget editor edits (a map has none). */
export const EDITABLE_WIDGET_TYPES = ['table', 'chart', 'headline'] as const satisfies readonly WidgetType[];

/** The key a new headline tile shows until it is edited: the supply voltage every device model reports. */
export const DEFAULT_HEADLINE_KEY = 'vsys';

/** Names of the kinds as the Add Widget control and the widgets' labels show them. */
export const WIDGET_TYPE_LABELS: Record<WidgetType, string> = {
  table: 'Table',
  chart: 'Chart',
  map: 'Map',
  headline: 'Headline',
};

/** Size of a new widget at one breakpoint: w, h and the smallest it may be resized to. */
interface WidgetSize {
  w: number;
  h: number;
  minW: number;
  minH: number;
}

/**
 * A new widget's size per kind and breakpoint (12 / 6 / 4 columns, rows of about 30.8 px): a chart
 * half the width at lg, a headline tile a quarter, the map and the table the whole width.
 */
export const NEW_WIDGET_SIZES: Record<WidgetType, Record<GridBreakpoint, WidgetSize>> = {
  chart: {
    lg: { w: 6, h: 9, minW: 3, minH: 6 },
    md: { w: 6, h: 9, minW: 3, minH: 6 },
    sm: { w: 4, h: 9, minW: 2, minH: 6 },
  },
  headline: {
    lg: { w: 3, h: 4, minW: 2, minH: 3 },
    md: { w: 3, h: 4, minW: 2, minH: 3 },
    sm: { w: 2, h: 4, minW: 2, minH: 3 },
  },
  map: {
    lg: { w: 12, h: 12, minW: 4, minH: 6 },
    md: { w: 6, h: 12, minW: 3, minH: 6 },
    sm: { w: 4, h: 10, minW: 2, minH: 6 },
  },
  // A table is never resized: its minimum is its size.
  table: {
    lg: { w: 12, h: 12, minW: 12, minH: 12 },
    md: { w: 6, h: 12, minW: 6, minH: 12 },
    sm: { w: 4, h: 12, minW: 4, minH: 12 },
  },
};

/** The first row below every widget at breakpoint `bp` (0 for no widgets). */
export function bottomRow(widgets: ViewWidgets, bp: GridBreakpoint): number {
  return Object.values(widgets).reduce((max, w) => Math.max(max, w.layouts[bp].y + w.layouts[bp].h), 0);
}

/**
 * Why a widget of `type` cannot be added to `widgets` ('Maximum number of {type}s reached [{max}]':
 * at most 99 widgets, one map, one table), or null when it can.
 */
export function addWidgetError(widgets: ViewWidgets, type: WidgetType): string | null {
  const all = Object.values(widgets);
  if (all.length >= CUSTOM_WIDGET_LIMIT) return widgetLimitMessage('widget', CUSTOM_WIDGET_LIMIT);
  const ofType = all.filter((w) => w.type === type).length;
  if (type === 'map' && ofType >= MAP_WIDGETS_PER_VIEW) return widgetLimitMessage('map', MAP_WIDGETS_PER_VIEW);
  if (type === 'table' && ofType >= TABLE_WIDGETS_PER_VIEW) return widgetLimitMessage('table', TABLE_WIDGETS_PER_VIEW);
  return null;
}

/** Whether a widget of `type` may be removed (spec 1 section 5: never a table). */
export function canRemoveWidget(type: WidgetType): boolean {
  return type !== 'table';
}

/** Whether a widget of `type` may be resized (spec 1 section 5: never a table). */
export function canResizeWidget(type: WidgetType): boolean {
  return type !== 'table';
}

/** Whether a widget of `type` has settings for the widget editor (a map has none). */
export function isEditableWidgetType(type: WidgetType): type is (typeof EDITABLE_WIDGET_TYPES)[number] {
  return (EDITABLE_WIDGET_TYPES as readonly WidgetType[]).includes(type);
}

/** The next free widget id: 'widget' + one more than the highest number any 'widget{n}' id has. */
export function nextWidgetId(widgets: ViewWidgets): string {
  const highest = Object.keys(widgets).reduce((max, id) => {
    const match = /^widget(\d{1,6})$/.exec(id);
    return match ? Math.max(max, Number(match[1])) : max;
  }, 0);
  return `widget${highest + 1}`;
}

/** A new widget's default settings: a chart without series, a headline of the supply voltage (avg), a map, the device table. */
export function defaultWidgetSettings(type: WidgetType): Record<string, unknown> {
  switch (type) {
    case 'chart': {
      const chart: ChartSettings = { name: WIDGET_TYPE_LABELS.chart, series: [] };
      return chart;
    }
    case 'headline': {
      // The input shape (z.input): dp is optional there, the tile's decimals then come from the catalogue.
      const headline: z.input<typeof HeadlineSettingsSchema> = { key: DEFAULT_HEADLINE_KEY, operator: 'avg' };
      return headline;
    }
    case 'map':
      return {};
    case 'table':
      return { ...DEFAULT_TABLE_SETTINGS, columns: DEFAULT_TABLE_SETTINGS.columns.map((c) => ({ ...c })) };
  }
}

/**
 * A new widget of `type` for a view holding `widgets`: default settings and, at each breakpoint,
 * the kind's size at x 0 on the first row below every widget there.
 */
export function newWidget(type: WidgetType, widgets: ViewWidgets): Widget {
  const layouts = Object.fromEntries(
    GRID_BREAKPOINT_NAMES.map((bp) => [bp, { x: 0, y: bottomRow(widgets, bp), ...NEW_WIDGET_SIZES[type][bp] }]),
  ) as WidgetLayouts;
  return { type, settings: defaultWidgetSettings(type), layouts };
}

/**
 * `widgets` with a new widget of `type` under the next free id, or the limit's message when it
 * cannot be added (addWidgetError).
 */
export function addWidget(
  widgets: ViewWidgets,
  type: WidgetType,
): { ok: true; widgets: ViewWidgets; id: string } | { ok: false; error: string } {
  const error = addWidgetError(widgets, type);
  if (error) return { ok: false, error };
  const id = nextWidgetId(widgets);
  return { ok: true, id, widgets: { ...widgets, [id]: newWidget(type, widgets) } };
}

/** `widgets` without widget `id`; a table (or an unknown id) leaves them as they are. */
export function removeWidget(widgets: ViewWidgets, id: string): ViewWidgets {
  const widget = Object.hasOwn(widgets, id) ? widgets[id] : undefined;
  if (!widget || !canRemoveWidget(widget.type)) return widgets;
  const { [id]: _removed, ...rest } = widgets;
  return rest;
}

/** One widget's place on the grid as react-grid-layout gives it after a change: `i` the widget id. */
export interface GridPlacement {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * `widgets` with breakpoint `bp`'s layouts taken from `placements` (the grid's layout at that
 * breakpoint after a drag, a resize or a keyboard move) and the other breakpoints left as they
 * are: a change is saved for the breakpoint it was made at. Each layout keeps its minW and minH;
 * x and w are kept inside the breakpoint's columns and w, h not below the minimums; a table keeps
 * its w and h (it is never resized); placements of unknown ids are ignored. Answers the same
 * object when nothing changed.
 */
export function withBreakpointLayout(
  widgets: ViewWidgets,
  bp: GridBreakpoint,
  placements: readonly GridPlacement[],
): ViewWidgets {
  const cols = GRID_COLS[bp];
  let changed = false;
  const next: ViewWidgets = { ...widgets };
  for (const place of placements) {
    const widget = Object.hasOwn(widgets, place.i) ? widgets[place.i] : undefined;
    if (!widget) continue;
    const old = widget.layouts[bp];
    const resizable = canResizeWidget(widget.type);
    const minW = Math.min(old.minW ?? 1, cols);
    const w = resizable ? Math.min(cols, Math.max(minW, Math.round(place.w))) : old.w;
    const h = resizable ? Math.max(old.minH ?? 1, Math.round(place.h)) : old.h;
    const x = Math.min(Math.max(0, Math.round(place.x)), cols - w);
    const y = Math.max(0, Math.round(place.y));
    if (x === old.x && y === old.y && w === old.w && h === old.h) continue;
    const layout: WidgetLayout = { ...old, x, y, w, h };
    next[place.i] = { ...widget, layouts: { ...widget.layouts, [bp]: layout } };
    changed = true;
  }
  return changed ? next : widgets;
}

/** The keyboard's moves and resizes of one widget, one grid cell at a time. */
export type LayoutStep = 'left' | 'right' | 'up' | 'down' | 'narrower' | 'wider' | 'shorter' | 'taller';

export const LAYOUT_STEPS = ['left', 'right', 'up', 'down', 'narrower', 'wider', 'shorter', 'taller'] as const;

/**
 * Where one keyboard step puts a widget at breakpoint `bp`, before the grid resolves collisions:
 * one column or row further, or one wider, narrower, taller or shorter, kept inside the columns
 * and not below minW/minH; null when the step changes nothing (at an edge, at a minimum, or a
 * resize of a table).
 */
export function steppedLayout(
  widget: Pick<Widget, 'type' | 'layouts'>,
  bp: GridBreakpoint,
  step: LayoutStep,
): WidgetLayout | null {
  const cols = GRID_COLS[bp];
  const l = widget.layouts[bp];
  const resize = step === 'narrower' || step === 'wider' || step === 'shorter' || step === 'taller';
  if (resize && !canResizeWidget(widget.type)) return null;
  let { x, y, w, h } = l;
  switch (step) {
    case 'left':
      x = Math.max(0, x - 1);
      break;
    case 'right':
      x = Math.min(cols - w, x + 1);
      break;
    case 'up':
      y = Math.max(0, y - 1);
      break;
    case 'down':
      y += 1;
      break;
    case 'narrower':
      w = Math.max(Math.min(l.minW ?? 1, cols), w - 1);
      break;
    case 'wider':
      w = Math.min(cols - x, w + 1);
      break;
    case 'shorter':
      h = Math.max(l.minH ?? 1, h - 1);
      break;
    case 'taller':
      h += 1;
      break;
  }
  if (x === l.x && y === l.y && w === l.w && h === l.h) return null;
  return { ...l, x, y, w, h };
}
