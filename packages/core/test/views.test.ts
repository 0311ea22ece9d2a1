import { describe, expect, it } from 'vitest';
import {
  DEFAULT_VIEW,
  INVALID_DATE_RANGE,
  UNSTORABLE_TEXT_MESSAGE,
  VIEW_MESSAGES,
  ViewDeleteBodySchema,
  ViewInputSchema,
  ViewPutBodySchema,
  ViewSchema,
  WIDGET_TYPES,
  WidgetInputSchema,
  tableWidgetChangeError,
  viewsOrDefault,
  withWidgetSettings,
  type View,
} from '../src/index';

const layouts = (w = 4, h = 4) => ({
  lg: { x: 0, y: 0, w, h },
  md: { x: 0, y: 0, w: Math.min(w, 6), h },
  sm: { x: 0, y: 0, w: Math.min(w, 4), h },
});
const SETTINGS = {
  table: { columns: [{ key: 'deviceid', dataType: 'special', name: 'Device ID' }] },
  chart: { series: [{ source: 'ABC123XYZ', key: 'temp' }] },
  map: {},
  headline: { key: 'temp' },
} as const;
const input = (overrides: Record<string, unknown> = {}) => ({
  name: 'North',
  sortOrder: 2,
  timeRange: { type: 'day', amount: 7 },
  widgets: { widget1: { type: 'table', settings: SETTINGS.table, layouts: layouts(12, 12) } },
  ...overrides,
});
const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((i) => i.message) ?? [];

describe('view contracts (VIEW-03, VIEW-04, VIEW-20, VIEW-28)', () => {
  it('the default view is a valid view: view1, Default View, sortOrder 1, 7 days, version 0 (VIEW-08 to VIEW-10)', () => {
    expect(ViewSchema.parse(DEFAULT_VIEW)).toEqual(DEFAULT_VIEW);
    expect(DEFAULT_VIEW.widgets.widget2!.layouts.lg).toMatchObject({ x: 0, y: 12, w: 12, h: 12 });
    expect(DEFAULT_VIEW.widgets.widget1!.type).toBe('table');
    // A save of the default view as loaded is a valid save.
    expect(ViewInputSchema.safeParse(DEFAULT_VIEW).success).toBe(true);
  });

  it.each(WIDGET_TYPES)('accepts a %s widget with its settings and all three layouts', (type) => {
    const widget = { type, settings: SETTINGS[type], layouts: layouts() };
    expect(WidgetInputSchema.safeParse(widget).success).toBe(true);
    const { sm: _sm, ...twoLayouts } = widget.layouts;
    expect(WidgetInputSchema.safeParse({ ...widget, layouts: twoLayouts }).success).toBe(false);
  });

  it.each(['gauge', '', 'Table', null, '__proto__'])('refuses the widget type %j (VIEW-04)', (type) => {
    expect(WidgetInputSchema.safeParse({ type, settings: {}, layouts: layouts() }).success).toBe(false);
  });

  it('refuses settings of another type, and unknown settings fields', () => {
    expect(WidgetInputSchema.safeParse({ type: 'map', settings: SETTINGS.table, layouts: layouts() }).success).toBe(
      false,
    );
    expect(WidgetInputSchema.safeParse({ type: 'headline', settings: {}, layouts: layouts() }).success).toBe(false);
  });

  it.each([
    [{ type: 'day', amount: 7 }, true],
    [{ type: 'week', amount: 1, rolling: true }, true],
    [{ type: 'month', amount: 1, rolling: false }, true],
    [{ type: 'custom', from: 100, to: 200 }, true],
    [{ type: 'custom', from: 200, to: 200 }, false],
    [{ type: 'custom', from: 100 }, false],
    [{ type: 'day' }, false],
    [{ type: 'day', amount: 7, from: 1, to: 2 }, false],
    [{ type: 'year', amount: 1 }, false],
  ])('time range %j valid: %s (VIEW-28)', (timeRange, ok) => {
    expect(ViewInputSchema.safeParse(input({ timeRange })).success).toBe(ok);
  });

  it("a custom range with From not before To says 'Invalid date range'", () => {
    expect(messages(ViewInputSchema.safeParse(input({ timeRange: { type: 'custom', from: 5, to: 1 } })))).toContain(
      INVALID_DATE_RANGE,
    );
  });

  it.each([0, 101, 1.5, '2', null])('refuses sortOrder %j (VIEW-05)', (sortOrder) => {
    expect(ViewInputSchema.safeParse(input({ sortOrder })).success).toBe(false);
  });

  it("at most 99 widgets and one map: 'Maximum number of {type}s reached [{max}]'", () => {
    const headline = { type: 'headline', settings: SETTINGS.headline, layouts: layouts() };
    const widgets = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`w${i}`, headline]));
    expect(ViewInputSchema.safeParse(input({ widgets: widgets(99) })).success).toBe(true);
    expect(messages(ViewInputSchema.safeParse(input({ widgets: widgets(100) })))).toEqual([
      'Maximum number of widgets reached [99]',
    ]);
    const map = { type: 'map', settings: {}, layouts: layouts() };
    expect(messages(ViewInputSchema.safeParse(input({ widgets: { a: map, b: map } })))).toEqual([
      'Maximum number of maps reached [1]',
    ]);
  });

  it('a group chart holds at most 15 series; a series defaults to ax1 and lineWidth 2 (CHT-11, CHT-17)', () => {
    const series = (n: number) => Array.from({ length: n }, () => SETTINGS.chart.series[0]);
    const chart = (n: number) => ({ type: 'chart', settings: { series: series(n) }, layouts: layouts() });
    const parsed = WidgetInputSchema.parse(chart(15));
    expect((parsed.settings as { series: unknown[] }).series[14]).toEqual({
      source: 'ABC123XYZ',
      key: 'temp',
      axisBind: 'ax1',
      lineWidth: 2,
    });
    expect(messages(WidgetInputSchema.safeParse(chart(16)))).toEqual(['Maximum number of series reached [15]']);
  });

  it('a headline defaults to avg and clamps dp to 0-5 (CHT-02, CHT-03)', () => {
    const headline = (settings: object) =>
      WidgetInputSchema.parse({ type: 'headline', settings: { key: 'k', ...settings }, layouts: layouts() }).settings;
    expect(headline({})).toEqual({ key: 'k', operator: 'avg' });
    expect(headline({ dp: 9 })).toMatchObject({ dp: 5 });
    expect(headline({ dp: -1 })).toMatchObject({ dp: 0 });
    expect(() => headline({ operator: 'median' })).toThrow();
  });

  it('layouts stay inside each breakpoint (12, 6, 4 columns), at least minW x minH, and i names the widget', () => {
    const view = (l: object) => input({ widgets: { widget1: { type: 'map', settings: {}, layouts: l } } });
    expect(ViewInputSchema.safeParse(view(layouts(12, 4))).success).toBe(true);
    expect(ViewInputSchema.safeParse(view({ ...layouts(), md: { x: 3, y: 0, w: 4, h: 4 } })).success).toBe(false);
    expect(ViewInputSchema.safeParse(view({ ...layouts(), lg: { x: 0, y: 0, w: 2, h: 4, minW: 3 } })).success).toBe(
      false,
    );
    expect(
      ViewInputSchema.safeParse(view({ ...layouts(), sm: { i: 'widget1', x: 0, y: 0, w: 4, h: 4 } })).success,
    ).toBe(true);
    expect(ViewInputSchema.safeParse(view({ ...layouts(), sm: { i: 'other', x: 0, y: 0, w: 4, h: 4 } })).success).toBe(
      false,
    );
  });

  it('a save with viewid needs the version it was loaded at; a create needs neither', () => {
    expect(ViewInputSchema.safeParse(input()).success).toBe(true);
    expect(messages(ViewInputSchema.safeParse(input({ viewid: 'v-abcdefgh' })))).toEqual([
      VIEW_MESSAGES.versionRequired,
    ]);
    expect(ViewInputSchema.safeParse(input({ viewid: 'v-abcdefgh', version: 3 })).success).toBe(true);
  });

  it.each([
    ['a name', { name: 'a\u0000' }],
    [
      'a column name',
      {
        widgets: {
          w: {
            type: 'table',
            settings: { columns: [{ key: 'k', dataType: 'x', name: '\ud800' }] },
            layouts: layouts(),
          },
        },
      },
    ],
    [
      'a series source',
      {
        widgets: { w: { type: 'chart', settings: { series: [{ source: 'a\u0000', key: 'k' }] }, layouts: layouts() } },
      },
    ],
  ])('refuses unstorable text in %s', (_what, overrides) => {
    expect(messages(ViewPutBodySchema.safeParse({ view: input(overrides) }))).toContain(UNSTORABLE_TEXT_MESSAGE);
  });

  it("drops a '__proto__' widget (zod keeps no such key; the server's JSON parser refuses the body first)", () => {
    const widgets = JSON.parse(`{"__proto__": ${JSON.stringify({ type: 'map', settings: {}, layouts: layouts() })}}`);
    const parsed = ViewInputSchema.parse(input({ widgets }));
    expect(Object.keys(parsed.widgets)).toEqual([]);
    expect(Object.getPrototypeOf(parsed.widgets)).toBe(Object.prototype);
  });

  it.each(['constructor ', '', '1abc', '_x', 'a'.repeat(65)])('refuses the widget id %j', (id) => {
    const widgets = JSON.parse(
      `{${JSON.stringify(id)}: ${JSON.stringify({ type: 'map', settings: {}, layouts: layouts() })}}`,
    );
    expect(ViewInputSchema.safeParse(input({ widgets })).success).toBe(false);
  });

  it('the delete body is {viewid} only', () => {
    expect(ViewDeleteBodySchema.safeParse({ viewid: 'view1' }).success).toBe(true);
    for (const body of [{}, { viewid: '' }, { viewid: 'view1', version: 1 }, { viewid: 'a/b' }, null])
      expect(ViewDeleteBodySchema.safeParse(body).success).toBe(false);
  });
});

describe('view rules', () => {
  const view = (viewid: string, sortOrder: number): View => ({ ...DEFAULT_VIEW, viewid, sortOrder, version: 1 });

  it('a group shows its views by sortOrder (ties in the given order), or the default view when it has none (VIEW-02)', () => {
    expect(viewsOrDefault([])).toEqual([DEFAULT_VIEW]);
    const views = [view('c', 3), view('a', 1), view('b', 2), view('a2', 1)];
    expect(viewsOrDefault(views).map((v) => v.viewid)).toEqual(['a', 'a2', 'b', 'c']);
    expect(views.map((v) => v.viewid)).toEqual(['c', 'a', 'b', 'a2']);
  });

  it('table widgets are neither removed nor resized (VIEW-18, VIEW-19); moving one or changing others is fine', () => {
    const before = DEFAULT_VIEW;
    const table = before.widgets.widget1!;
    expect(tableWidgetChangeError(before, before)).toBeNull();
    const moved = { ...table, layouts: { ...table.layouts, lg: { ...table.layouts.lg, y: 12 } } };
    expect(tableWidgetChangeError(before, { widgets: { widget1: moved } })).toBeNull();
    expect(tableWidgetChangeError(before, { widgets: { widget2: before.widgets.widget2! } })).toBe(
      VIEW_MESSAGES.tableFixed,
    );
    const resized = { ...table, layouts: { ...table.layouts, sm: { ...table.layouts.sm, h: 20 } } };
    expect(tableWidgetChangeError(before, { widgets: { ...before.widgets, widget1: resized } })).toBe(
      VIEW_MESSAGES.tableFixed,
    );
    expect(
      tableWidgetChangeError(before, { widgets: { ...before.widgets, widget1: { ...table, type: 'chart' } } }),
    ).toBe(VIEW_MESSAGES.tableFixed);
  });

  it("the widget editor's save replaces one widget's settings, or says 'View not found' / 'Widget not found' (VIEW-38)", () => {
    const views = [DEFAULT_VIEW];
    const settings = { columns: [] };
    const saved = withWidgetSettings(views, 'view1', 'widget1', settings);
    expect(saved).toEqual({
      ok: true,
      value: {
        ...DEFAULT_VIEW,
        widgets: { ...DEFAULT_VIEW.widgets, widget1: { ...DEFAULT_VIEW.widgets.widget1, settings } },
      },
    });
    expect(DEFAULT_VIEW.widgets.widget1!.settings).not.toBe(settings);
    expect(withWidgetSettings(views, 'v-missing0', 'widget1', settings)).toEqual({
      ok: false,
      error: 'View not found',
    });
    for (const widgetid of ['widget9', '__proto__', 'toString'])
      expect(withWidgetSettings(views, 'view1', widgetid, settings)).toEqual({ ok: false, error: 'Widget not found' });
  });
});
