import { describe, expect, it } from 'vitest';
import {
  ADDABLE_WIDGET_TYPES,
  DEFAULT_VIEW,
  GRID_BREAKPOINT_NAMES,
  GRID_COLS,
  NEW_WIDGET_SIZES,
  ViewInputSchema,
  WidgetInputSchema,
  addWidget,
  addWidgetError,
  bottomRow,
  canRemoveWidget,
  canResizeWidget,
  isEditableWidgetType,
  newWidget,
  nextWidgetId,
  removeWidget,
  steppedLayout,
  tableWidgetChangeError,
  withBreakpointLayout,
  type ViewWidgets,
} from '../src/index';

const base: ViewWidgets = DEFAULT_VIEW.widgets;

/** The view as a save would send it with `widgets`. */
const asInput = (widgets: ViewWidgets) => ({
  viewid: DEFAULT_VIEW.viewid,
  name: DEFAULT_VIEW.name,
  sortOrder: 1,
  timeRange: DEFAULT_VIEW.timeRange,
  widgets,
  version: 0,
});

describe('new widgets (VIEW-12, VIEW-20)', () => {
  it.each(ADDABLE_WIDGET_TYPES)(
    'a new %s has valid settings and a layout at lg, md and sm, below the others',
    (type) => {
      const widget = newWidget(type, base);
      expect(WidgetInputSchema.safeParse(widget).success).toBe(true);
      for (const bp of GRID_BREAKPOINT_NAMES) {
        const layout = widget.layouts[bp];
        expect(layout).toMatchObject({ x: 0, y: bottomRow(base, bp), ...NEW_WIDGET_SIZES[type][bp] });
        expect(layout.x + layout.w).toBeLessThanOrEqual(GRID_COLS[bp]);
        expect(layout.minW).toBeLessThanOrEqual(layout.w);
        expect(layout.minH).toBeLessThanOrEqual(layout.h);
      }
    },
  );

  it('the default view ends at row 24 at every breakpoint; an empty view starts at row 0', () => {
    for (const bp of GRID_BREAKPOINT_NAMES) expect(bottomRow(base, bp)).toBe(24);
    expect(newWidget('chart', {}).layouts.lg.y).toBe(0);
  });

  it('a new headline shows the supply voltage averaged; a chart has no series; a map no settings', () => {
    expect(newWidget('headline', base).settings).toEqual({ key: 'vsys', operator: 'avg' });
    expect(newWidget('chart', base).settings).toEqual({ name: 'Chart', series: [] });
    expect(newWidget('map', {}).settings).toEqual({});
  });

  it('ids count on from the highest widget{n}', () => {
    expect(nextWidgetId(base)).toBe('widget3');
    expect(nextWidgetId({})).toBe('widget1');
    expect(nextWidgetId({ widget9: newWidget('map', {}), other: newWidget('chart', {}) })).toBe('widget10');
  });

  it('adding keeps the view a valid save and the tables untouched', () => {
    let widgets = base;
    for (const type of ['chart', 'headline', 'headline'] as const) {
      const added = addWidget(widgets, type);
      if (!added.ok) throw new Error(added.error);
      expect(added.widgets[added.id]?.type).toBe(type);
      widgets = added.widgets;
    }
    expect(Object.keys(widgets)).toEqual(['widget1', 'widget2', 'widget3', 'widget4', 'widget5']);
    // Each added below the one before.
    expect(widgets.widget5?.layouts.lg.y).toBe((widgets.widget4?.layouts.lg.y ?? 0) + 4);
    expect(ViewInputSchema.safeParse(asInput(widgets)).success).toBe(true);
    expect(tableWidgetChangeError({ widgets: base }, { widgets })).toBeNull();
  });
});

describe('widget limits (VIEW-17, VIEW-18, VIEW-19; spec 1 section 5)', () => {
  it('one map per view', () => {
    expect(addWidgetError(base, 'map')).toBe('Maximum number of maps reached [1]');
    expect(addWidget(base, 'map')).toEqual({ ok: false, error: 'Maximum number of maps reached [1]' });
    expect(addWidgetError({}, 'map')).toBeNull();
  });

  it('one table through Add Widget (it could never be removed again)', () => {
    expect(addWidgetError(base, 'table')).toBe('Maximum number of tables reached [1]');
    expect(addWidgetError({ widget2: newWidget('map', {}) }, 'table')).toBeNull();
  });

  it('at most 99 widgets, whatever the kind', () => {
    let widgets: ViewWidgets = {};
    for (let i = 0; i < 98; i += 1) {
      const added = addWidget(widgets, 'headline');
      if (!added.ok) throw new Error(added.error);
      widgets = added.widgets;
    }
    expect(addWidgetError(widgets, 'chart')).toBeNull();
    const last = addWidget(widgets, 'chart');
    if (!last.ok) throw new Error(last.error);
    expect(Object.keys(last.widgets)).toHaveLength(99);
    expect(ViewInputSchema.safeParse(asInput(last.widgets)).success).toBe(true);
    for (const type of ADDABLE_WIDGET_TYPES)
      expect(addWidgetError(last.widgets, type)).toBe('Maximum number of widgets reached [99]');
  });

  it('tables are neither removed nor resized; maps have no settings to edit', () => {
    expect(canRemoveWidget('table')).toBe(false);
    expect(canResizeWidget('table')).toBe(false);
    for (const type of ['chart', 'map', 'headline'] as const) {
      expect(canRemoveWidget(type)).toBe(true);
      expect(canResizeWidget(type)).toBe(true);
    }
    expect(removeWidget(base, 'widget1')).toBe(base);
    expect(Object.keys(removeWidget(base, 'widget2'))).toEqual(['widget1']);
    expect(removeWidget(base, 'nope')).toBe(base);
    expect(['table', 'chart', 'headline', 'map'].map((t) => isEditableWidgetType(t as 'map'))).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });
});

describe('layouts saved per breakpoint (VIEW-13, VIEW-14, VIEW-24)', () => {
  const added = addWidget(base, 'chart');
  if (!added.ok) throw new Error(added.error);
  const widgets = added.widgets;

  it('a change at md changes md only and keeps minW/minH', () => {
    const next = withBreakpointLayout(widgets, 'md', [
      { i: 'widget3', x: 1, y: 0, w: 4, h: 7 },
      { i: 'widget1', x: 0, y: 9, w: 6, h: 12 },
      { i: 'widget2', x: 0, y: 21, w: 6, h: 12 },
    ]);
    expect(next.widget3?.layouts.md).toEqual({ x: 1, y: 0, w: 4, h: 7, minW: 3, minH: 6 });
    expect(next.widget3?.layouts.lg).toEqual(widgets.widget3?.layouts.lg);
    expect(next.widget3?.layouts.sm).toEqual(widgets.widget3?.layouts.sm);
    expect(next.widget1?.layouts.md.y).toBe(9);
    expect(next.widget1?.layouts.lg).toEqual(widgets.widget1?.layouts.lg);
    expect(ViewInputSchema.safeParse(asInput(next)).success).toBe(true);
  });

  it('never below minW/minH, never past the columns; a table keeps its size; no change answers the same object', () => {
    const next = withBreakpointLayout(widgets, 'sm', [
      { i: 'widget3', x: 3, y: 2, w: 1, h: 1 },
      { i: 'widget1', x: 0, y: 0, w: 2, h: 3 },
      { i: 'ghost', x: 0, y: 0, w: 2, h: 3 },
    ]);
    expect(next.widget3?.layouts.sm).toMatchObject({ x: 2, y: 2, w: 2, h: 6 });
    expect(next.widget1?.layouts.sm).toMatchObject({ w: 4, h: 12 });
    expect(next).not.toHaveProperty('ghost');
    expect(tableWidgetChangeError({ widgets }, { widgets: next })).toBeNull();
    const same = Object.entries(widgets).map(([i, w]) => ({ i, ...w.layouts.lg }));
    expect(withBreakpointLayout(widgets, 'lg', same)).toBe(widgets);
  });

  it('keyboard steps: one cell at a time, inside the columns, not below the minimums, no resizing a table', () => {
    const chart = widgets.widget3;
    if (!chart) throw new Error('no chart');
    expect(steppedLayout(chart, 'lg', 'right')).toMatchObject({ x: 1, y: 24, w: 6, h: 9 });
    expect(steppedLayout(chart, 'lg', 'left')).toBeNull();
    expect(steppedLayout(chart, 'lg', 'up')).toMatchObject({ y: 23 });
    expect(steppedLayout(chart, 'lg', 'down')).toMatchObject({ y: 25 });
    expect(steppedLayout(chart, 'lg', 'wider')).toMatchObject({ w: 7 });
    expect(steppedLayout(chart, 'lg', 'narrower')).toMatchObject({ w: 5 });
    expect(steppedLayout(chart, 'lg', 'taller')).toMatchObject({ h: 10 });
    expect(steppedLayout(chart, 'lg', 'shorter')).toMatchObject({ h: 8 });
    // sm: 4 wide of 4 columns, minimum 2 x 6.
    expect(steppedLayout(chart, 'sm', 'right')).toBeNull();
    expect(steppedLayout(chart, 'sm', 'wider')).toBeNull();
    const small = { ...chart, layouts: { ...chart.layouts, sm: { x: 0, y: 0, w: 2, h: 6, minW: 2, minH: 6 } } };
    expect(steppedLayout(small, 'sm', 'narrower')).toBeNull();
    expect(steppedLayout(small, 'sm', 'shorter')).toBeNull();
    expect(steppedLayout(small, 'sm', 'right')).toMatchObject({ x: 1 });
    const table = widgets.widget1;
    if (!table) throw new Error('no table');
    expect(steppedLayout(table, 'lg', 'taller')).toBeNull();
    expect(steppedLayout(table, 'lg', 'down')).toMatchObject({ y: 1, w: 12, h: 12 });
  });
});
