/**
 * Dashboard views (spec 1 section 3 'View', spec 2 section 3 'chart settings', 'table settings',
 * 'headline tile'): the shapes the group dashboard renders and the view calls of spec 1 section 7
 * (GET /group/{groupid}/views, PUT /group/{groupid}/view, DELETE /group/{groupid}/view). The
 * default view is what a group without views shows.
 *
 * The settings shapes are request contracts (every string through safeString); the view a call
 * answers (ViewSchema) carries each widget's settings as saved, checked on the way in by
 * WidgetInputSchema for its type. The kinds and operators (domain/widget-kinds.ts) and the default
 * view (domain/default-view.ts) live apart from the schemas: the web's dashboard needs them at
 * once, and a bundle puts a module's code, with every schema of it some lazy chunk uses and Zod
 * itself, into the chunk of the first route that needs the module.
 */
import { z } from 'zod';
import {
  CUSTOM_WIDGET_LIMIT,
  GRID_BREAKPOINT_NAMES,
  GRID_COLS,
  MAP_WIDGETS_PER_VIEW,
  MAX_GROUP_CHART_SERIES,
} from '../domain/constants';
import { VIEW_NOT_FOUND, WIDGET_NOT_FOUND, widgetLimitMessage } from '../domain/screen-messages';
import {
  INVALID_DATE_RANGE,
  SORT_ORDER_MAX,
  SORT_ORDER_MIN,
  clampHeadlineDecimalPlaces,
  type ValidationResult,
} from '../domain/validation';
import {
  CHART_AXES,
  CHART_LINE_TYPES,
  COLUMN_OPERATORS,
  DEFAULT_CHART_LINE_WIDTH,
  NUMBER_FILTER_OPERATORS,
  TEXT_FILTER_OPERATORS,
  WIDGET_TYPES,
  type WidgetType,
} from '../domain/widget-kinds';
import { ColourSchema, REQUEST_EPOCH_S_MAX, VALUE_MAX, boundedNumber, safeString, valueNumber } from './fields';

const ColumnThresholdSchema = z.strictObject({
  value: valueNumber('value'),
  colour: ColourSchema,
});

/** A record key or column key as a request gives it. */
const KeySchema = safeString().min(1).max(64);

/** One table column (spec 1 section 3, spec 2 section 3). */
export const TableColumnSchema = z.strictObject({
  key: KeySchema,
  dataType: safeString().max(32),
  name: safeString().max(64),
  unit: safeString().max(15).optional(),
  unitInHeader: z.boolean().optional(),
  dp: z.number().int().min(0).max(10).optional(),
  operator: z.enum(COLUMN_OPERATORS).optional(),
  trendColor: ColourSchema.optional(),
  thresholds: z.array(ColumnThresholdSchema).max(10).optional(),
});
export type TableColumn = z.infer<typeof TableColumnSchema>;

export const TableFilterSchema = z.strictObject({
  key: KeySchema,
  operator: z.enum([...TEXT_FILTER_OPERATORS, ...NUMBER_FILTER_OPERATORS]),
  // null inside the union: OpenAPI 3.0 wants a type beside `nullable`.
  value: z.union([safeString().max(200).nullable(), valueNumber('value')]),
  value2: valueNumber('value2').nullable().optional(),
});
export type TableFilter = z.infer<typeof TableFilterSchema>;

/** Table widget settings: columns, pageSize, filters. */
export const TableSettingsSchema = z.strictObject({
  columns: z.array(TableColumnSchema).max(50),
  pageSize: z.union([z.literal(10), z.literal(25), z.literal(50)]).optional(),
  filters: z.array(TableFilterSchema).max(50).optional(),
});
export type TableSettings = z.infer<typeof TableSettingsSchema>;

// ---- Headline, chart and map settings (spec 2 section 3) ------------------------------------

/** Operators a headline aggregates its key with across the group's devices (default avg). */
export const HEADLINE_OPERATORS = COLUMN_OPERATORS;
export const DEFAULT_HEADLINE_OPERATOR = 'avg';

/** A headline tile: key, dataType, operator (default avg), unit, trendColor, dp clamped 0-5. */
export const HeadlineSettingsSchema = z.strictObject({
  key: KeySchema,
  dataType: safeString().max(32).optional(),
  operator: z.enum(HEADLINE_OPERATORS).default(DEFAULT_HEADLINE_OPERATOR),
  unit: safeString().max(15).optional(),
  trendColor: ColourSchema.optional(),
  dp: boundedNumber('dp', -100, 100, { int: true })
    .optional()
    .transform((dp) => (dp === undefined ? undefined : clampHeadlineDecimalPlaces(dp))),
});
export type HeadlineSettings = z.infer<typeof HeadlineSettingsSchema>;

/** An axis' decimal places and tick spacing (0: automatic). */
const AXIS_DP = boundedNumber('dp', 0, 10, { int: true });
const AXIS_TICK = boundedNumber('tick', 0, VALUE_MAX);

/** A chart axis (ax1, ax2): name, unit, bounds (absent: automatic), dp, tick, colour, displayType. */
export const ChartAxisSchema = z.strictObject({
  name: safeString().max(64).optional(),
  unit: safeString().max(15).optional(),
  min: valueNumber('min').nullable().optional(),
  max: valueNumber('max').nullable().optional(),
  dp: AXIS_DP.optional(),
  tick: AXIS_TICK.optional(),
  colour: ColourSchema.optional(),
  displayType: safeString().max(32).optional(),
});

/** The x axis xa1: tick, offset, scale, dp, name, colour. */
export const ChartXAxisSchema = z.strictObject({
  tick: AXIS_TICK.optional(),
  offset: valueNumber('offset').optional(),
  scale: valueNumber('scale').optional(),
  dp: AXIS_DP.optional(),
  name: safeString().max(64).optional(),
  colour: ColourSchema.optional(),
});

/** One series of a group chart: a device (source) and its key, on ax1 or ax2. */
export const ChartSeriesSchema = z.strictObject({
  source: safeString().min(1).max(64),
  key: KeySchema,
  axisBind: z.enum(CHART_AXES).default('ax1'),
  displayType: safeString().max(32).optional(),
  colour: ColourSchema.optional(),
  goalSeries: z.boolean().optional(),
  lineType: z.enum(CHART_LINE_TYPES).optional(),
  lineWidth: z.number().min(0.5).max(10).default(DEFAULT_CHART_LINE_WIDTH),
});

/** Chart settings (CHT-09): at most 15 series on a group chart. */
export const ChartSettingsSchema = z.strictObject({
  name: safeString().max(64).optional(),
  type: safeString().max(32).optional(),
  stack: z.boolean().optional(),
  range: safeString().max(32).optional(),
  axis: z.strictObject({ ax1: ChartAxisSchema.optional(), ax2: ChartAxisSchema.optional() }).optional(),
  series: z
    .array(ChartSeriesSchema)
    .max(MAX_GROUP_CHART_SERIES, widgetLimitMessage('serie', MAX_GROUP_CHART_SERIES))
    .default([]),
  xAxis: z.strictObject({ xa1: ChartXAxisSchema.optional() }).optional(),
  dataLabels: z.boolean().optional(),
  dataLabelColor: ColourSchema.optional(),
  backgroundColor: ColourSchema.optional(),
});
export type ChartSettings = z.infer<typeof ChartSettingsSchema>;

/** A map widget has no settings of its own (clustering is a toggle of the viewer). */
export const MapSettingsSchema = z.strictObject({});

/** Each widget type's settings, checked when a view is saved. */
export const WIDGET_SETTINGS_SCHEMAS = {
  table: TableSettingsSchema,
  chart: ChartSettingsSchema,
  map: MapSettingsSchema,
  headline: HeadlineSettingsSchema,
} as const satisfies Record<WidgetType, z.ZodType>;

/** Largest row (y) and height a layout may name. */
export const LAYOUT_MAX_ROWS = 10_000;

/** A widget's place at one breakpoint: columns x, w and rows y, h; `i`, when sent, is the widget id. */
export const WidgetLayoutSchema = z.strictObject({
  i: safeString().max(64).optional(),
  x: z
    .number()
    .int()
    .min(0)
    .max(GRID_COLS.lg - 1),
  y: z.number().int().min(0).max(LAYOUT_MAX_ROWS),
  w: z.number().int().min(1).max(GRID_COLS.lg),
  h: z.number().int().min(1).max(LAYOUT_MAX_ROWS),
  minW: z.number().int().min(1).max(GRID_COLS.lg).optional(),
  minH: z.number().int().min(1).max(LAYOUT_MAX_ROWS).optional(),
});
export type WidgetLayout = z.infer<typeof WidgetLayoutSchema>;

export const WidgetLayoutsSchema = z.strictObject({
  lg: WidgetLayoutSchema,
  md: WidgetLayoutSchema,
  sm: WidgetLayoutSchema,
});
export type WidgetLayouts = z.infer<typeof WidgetLayoutsSchema>;

export const TIME_RANGE_TYPES = ['day', 'week', 'month', 'custom'] as const;
/** A custom range's time: whole epoch seconds up to 2100-01-01, like every time a request carries. */
const EpochSecondsSchema = boundedNumber('time', 0, REQUEST_EPOCH_S_MAX, { int: true, kind: 'whole epoch seconds' });
/** The highest version a view may reach (a PostgreSQL integer). */
const VERSION_MAX = 2_147_483_647;

/**
 * A view's range: day, week or month with an amount (and rolling), or custom with from and to
 * (epoch seconds, From before To: 'Invalid date range').
 */
export const TimeRangeSchema = z
  .strictObject({
    type: z.enum(TIME_RANGE_TYPES),
    amount: z.number().int().min(1).max(400).optional(),
    rolling: z.boolean().optional(),
    from: EpochSecondsSchema.optional(),
    to: EpochSecondsSchema.optional(),
  })
  .superRefine((range, ctx) => {
    if (range.type === 'custom') {
      if (range.from === undefined || range.to === undefined || range.from >= range.to)
        ctx.addIssue({ code: 'custom', path: ['from'], message: INVALID_DATE_RANGE });
      return;
    }
    if (range.amount === undefined)
      ctx.addIssue({ code: 'custom', path: ['amount'], message: `amount is required for a ${range.type} range` });
    if (range.from !== undefined || range.to !== undefined)
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'from and to belong to a custom range only' });
  });
export type TimeRange = z.infer<typeof TimeRangeSchema>;

/** A widget as a view answers it: its type, its settings as saved and its layouts. */
export const WidgetSchema = z.object({
  type: z.enum(WIDGET_TYPES),
  settings: z.record(z.string(), z.unknown()),
  layouts: WidgetLayoutsSchema,
});
export type Widget = z.infer<typeof WidgetSchema>;

/** A widget as a save sends it: the settings are checked against its type's schema. */
export const WidgetInputSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('table'),
    settings: WIDGET_SETTINGS_SCHEMAS.table,
    layouts: WidgetLayoutsSchema,
  }),
  z.strictObject({
    type: z.literal('chart'),
    settings: WIDGET_SETTINGS_SCHEMAS.chart,
    layouts: WidgetLayoutsSchema,
  }),
  z.strictObject({ type: z.literal('map'), settings: WIDGET_SETTINGS_SCHEMAS.map, layouts: WidgetLayoutsSchema }),
  z.strictObject({
    type: z.literal('headline'),
    settings: WIDGET_SETTINGS_SCHEMAS.headline,
    layouts: WidgetLayoutsSchema,
  }),
]);
export type WidgetInput = z.infer<typeof WidgetInputSchema>;

/** A view as the view calls answer it; `version` counts its saves (0: the default view, never saved). */
export const ViewSchema = z.object({
  viewid: z.string(),
  name: z.string(),
  sortOrder: z.number().int().min(SORT_ORDER_MIN).max(SORT_ORDER_MAX),
  timeRange: TimeRangeSchema,
  widgets: z.record(z.string(), WidgetSchema),
  version: z.number().int().min(0).max(VERSION_MAX),
});
export type View = z.infer<typeof ViewSchema>;

// ---- The view calls (spec 1 section 7) --------------------------------------------------------

/** Texts of the view calls. */
export const VIEW_MESSAGES = {
  created: 'View created',
  saved: 'View saved',
  deleted: 'View deleted',
  notFound: VIEW_NOT_FOUND,
  stale:
    'This view was changed by someone else since you opened it. Reload the view to see their changes, then make yours again.',
  versionRequired: 'version is required when saving an existing view (the version you loaded)',
  tableFixed: 'Table widgets cannot be removed or resized',
} as const;

/** Most views a group keeps (the display order runs 1 to 100). */
export const VIEWS_PER_GROUP_MAX = SORT_ORDER_MAX;
/** Longest view name a save may send; it is sanitised to 20 characters before it is stored. */
export const VIEW_NAME_INPUT_MAX = 200;

/** A view id: 'view1', 'v-' + 8 characters, or any other id of letters, digits, '-' and '_'. */
export const ViewIdSchema = safeString().regex(/^[A-Za-z0-9_-]{1,64}$/, 'viewid: 1 to 64 letters, digits, - or _');
/** A widget id (the key of a view's widgets): a letter, then letters, digits, '-' or '_'. */
export const WidgetIdSchema = safeString().regex(
  /^[A-Za-z][A-Za-z0-9_-]{0,63}$/,
  'widget id: a letter, then at most 63 letters, digits, - or _',
);

type ViewDraft = {
  viewid?: string | undefined;
  version?: number | undefined;
  widgets: Record<string, Pick<Widget, 'type' | 'layouts'>>;
};

/** The widget rules of a saved view: at most 99 widgets, one map, layouts inside each breakpoint's columns. */
function checkViewDraft(view: ViewDraft, ctx: z.RefinementCtx): void {
  if (view.viewid !== undefined && view.version === undefined)
    ctx.addIssue({ code: 'custom', path: ['version'], message: VIEW_MESSAGES.versionRequired });
  const entries = Object.entries(view.widgets);
  if (entries.length > CUSTOM_WIDGET_LIMIT)
    ctx.addIssue({ code: 'custom', path: ['widgets'], message: widgetLimitMessage('widget', CUSTOM_WIDGET_LIMIT) });
  if (entries.filter(([, w]) => w.type === 'map').length > MAP_WIDGETS_PER_VIEW)
    ctx.addIssue({ code: 'custom', path: ['widgets'], message: widgetLimitMessage('map', MAP_WIDGETS_PER_VIEW) });
  for (const [id, widget] of entries) {
    for (const bp of GRID_BREAKPOINT_NAMES) {
      const layout = widget.layouts[bp];
      const path = ['widgets', id, 'layouts', bp];
      if (layout.x + layout.w > GRID_COLS[bp])
        ctx.addIssue({ code: 'custom', path, message: `x + w must be at most ${GRID_COLS[bp]} columns at ${bp}` });
      if ((layout.minW ?? 1) > layout.w || (layout.minH ?? 1) > layout.h)
        ctx.addIssue({ code: 'custom', path, message: 'w and h must not be below minW and minH' });
      if (layout.i !== undefined && layout.i !== id)
        ctx.addIssue({ code: 'custom', path: [...path, 'i'], message: 'i must be the widget id' });
    }
  }
}

/**
 * The `view` of PUT /group/{groupid}/view. Without viewid it creates a view (the server gives it
 * 'v-' + 8 characters); with viewid it saves that view, and `version` (the one loaded) is
 * required: a stale one answers 409. A blank name becomes 'View {n+1}' (the server counts n).
 */
export const ViewInputSchema = z
  .strictObject({
    viewid: ViewIdSchema.optional(),
    name: safeString().max(VIEW_NAME_INPUT_MAX).optional(),
    sortOrder: z.number().int().min(SORT_ORDER_MIN).max(SORT_ORDER_MAX),
    timeRange: TimeRangeSchema,
    widgets: z.record(WidgetIdSchema, WidgetInputSchema),
    version: z.number().int().min(0).max(VERSION_MAX).optional(),
  })
  .superRefine(checkViewDraft);
export type ViewInput = z.infer<typeof ViewInputSchema>;

/**
 * A view apart from its group (a view file's view, a copy to another group): the fields of
 * ViewInputSchema without viewid and version, under the same widget rules, so whatever passes
 * here is a valid new view in any group.
 */
export const PortableViewSchema = z
  .strictObject({
    name: ViewInputSchema.shape.name,
    sortOrder: ViewInputSchema.shape.sortOrder,
    timeRange: ViewInputSchema.shape.timeRange,
    widgets: ViewInputSchema.shape.widgets,
  })
  .superRefine(checkViewDraft);
export type PortableView = z.infer<typeof PortableViewSchema>;

/** PUT /group/{groupid}/view: {view}. */
export const ViewPutBodySchema = z.strictObject({ view: ViewInputSchema });
export type ViewPutBody = z.infer<typeof ViewPutBodySchema>;

/** DELETE /group/{groupid}/view: {viewid}. */
export const ViewDeleteBodySchema = z.strictObject({ viewid: ViewIdSchema });
export type ViewDeleteBody = z.infer<typeof ViewDeleteBodySchema>;

/** GET /group/{groupid}/views: the group's views by sortOrder, or the default view when it has none. */
export const ViewListResponseSchema = z.object({ groupid: z.string(), views: z.array(ViewSchema) });
export type ViewListResponse = z.infer<typeof ViewListResponseSchema>;

/** PUT /group/{groupid}/view: the view as saved, with its new version. */
export const ViewSaveResponseSchema = z.object({ message: z.string(), groupid: z.string(), view: ViewSchema });
export type ViewSaveResponse = z.infer<typeof ViewSaveResponseSchema>;

/** DELETE /group/{groupid}/view: what was deleted. */
export const ViewDeleteResponseSchema = z.object({ message: z.string(), groupid: z.string(), viewid: z.string() });
export type ViewDeleteResponse = z.infer<typeof ViewDeleteResponseSchema>;

/**
 * Table widgets are neither removed nor resized (spec 1 section 5): 'Table widgets cannot be
 * removed or resized' when `after` drops a table widget of `before` or changes its w or h at
 * any breakpoint; null otherwise.
 */
export function tableWidgetChangeError(
  before: { widgets: Record<string, Pick<Widget, 'type' | 'layouts'>> },
  after: { widgets: Record<string, Pick<Widget, 'type' | 'layouts'>> },
): string | null {
  for (const [id, widget] of Object.entries(before.widgets)) {
    if (widget.type !== 'table') continue;
    const next = Object.hasOwn(after.widgets, id) ? after.widgets[id] : undefined;
    if (next?.type !== 'table') return VIEW_MESSAGES.tableFixed;
    const resized = GRID_BREAKPOINT_NAMES.some(
      (bp) => next.layouts[bp].w !== widget.layouts[bp].w || next.layouts[bp].h !== widget.layouts[bp].h,
    );
    if (resized) return VIEW_MESSAGES.tableFixed;
  }
  return null;
}

/**
 * The widget editor's save (spec 1 section 8): view `viewid` of `views` with widget `widgetid`'s
 * settings replaced, ready for PUT /group/{groupid}/view; 'View not found' or 'Widget not found'
 * when either is missing (removed by someone else meanwhile).
 */
export function withWidgetSettings(
  views: readonly View[],
  viewid: string,
  widgetid: string,
  settings: Record<string, unknown>,
): ValidationResult<View> {
  const view = views.find((v) => v.viewid === viewid);
  if (!view) return { ok: false, error: VIEW_NOT_FOUND };
  const widget = Object.hasOwn(view.widgets, widgetid) ? view.widgets[widgetid] : undefined;
  if (!widget) return { ok: false, error: WIDGET_NOT_FOUND };
  return { ok: true, value: { ...view, widgets: { ...view.widgets, [widgetid]: { ...widget, settings } } } };
}

/**
 * The display order a new view gets when its field is left blank or is not an integer 1-100
 * (spec 1 section 5 'falls back to the default'; ledger I-15 leaves the default open): one after
 * the last tab, at most 100, so a new view lands at the end of the row.
 */
export function nextViewSortOrder(views: readonly Pick<View, 'sortOrder'>[]): number {
  const last = views.reduce((max, view) => Math.max(max, view.sortOrder), 0);
  return Math.min(SORT_ORDER_MAX, last + 1);
}
