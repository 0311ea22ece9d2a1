/**
 * Dashboard views (spec 1 section 3 'View', spec 2 section 3 'table settings'): the shapes the
 * group dashboard renders. The default view is what a group without views shows; saving,
 * editing and the other widget kinds' settings come with the dashboards issue.
 */
import { z } from 'zod';
import { DEFAULT_VIEW_ID } from '../domain/ids';
import { GRID_COLS } from '../domain/constants';

export const WIDGET_TYPES = ['table', 'chart', 'map', 'headline'] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];

/** Special column kinds of the table (spec 2 section 3), read from the device, not from a metric. */
export const SPECIAL_COLUMN_KINDS = [
  'alarmCount',
  'warningCount',
  'alertCount',
  'infoCount',
  'messages',
  'deviceid',
  'ts',
  'type',
  'machineMake',
  'machineModel',
  'fw',
] as const;
export type SpecialColumnKind = (typeof SPECIAL_COLUMN_KINDS)[number];

/** Headers of the special columns (spec 1 section 3; 'Event Messages' is the default view's name for messages). */
export const SPECIAL_COLUMN_HEADERS: Record<SpecialColumnKind, string> = {
  alarmCount: 'Alarms',
  warningCount: 'Warnings',
  alertCount: 'Alerts',
  infoCount: 'Info',
  messages: 'Event Messages',
  deviceid: 'Device ID',
  ts: 'Last Contact',
  type: 'Asset Type',
  machineMake: 'Machine Make',
  machineModel: 'Machine Model',
  fw: 'Firmware',
};

/** Text columns (the text filter operators apply); every other column is numeric or a time. */
export const TEXT_COLUMN_KINDS = ['fw', 'type', 'deviceid', 'messages', 'machineMake', 'machineModel'] as const;

/** Filter operators (spec 1 section 5): text columns, and all other columns. */
export const TEXT_FILTER_OPERATORS = ['startsWith', 'contains', 'notContains', 'endsWith'] as const;
export const NUMBER_FILTER_OPERATORS = ['lt', 'lte', 'gt', 'gte', 'equals', 'notEquals', 'between'] as const;
export type TextFilterOperator = (typeof TEXT_FILTER_OPERATORS)[number];
export type NumberFilterOperator = (typeof NUMBER_FILTER_OPERATORS)[number];

/** Operators a metric column aggregates with (spec 2 section 9). */
export const COLUMN_OPERATORS = ['avg', 'sum', 'max', 'min', 'latest'] as const;

const ColumnThresholdSchema = z.object({
  value: z.number(),
  colour: z.string().max(32),
});

/** One table column (spec 1 section 3, spec 2 section 3). */
export const TableColumnSchema = z.object({
  key: z.string().min(1).max(64),
  dataType: z.string().max(32),
  name: z.string().max(64),
  unit: z.string().max(15).optional(),
  unitInHeader: z.boolean().optional(),
  dp: z.number().int().min(0).max(10).optional(),
  operator: z.enum(COLUMN_OPERATORS).optional(),
  trendColor: z.string().max(32).optional(),
  thresholds: z.array(ColumnThresholdSchema).max(10).optional(),
});
export type TableColumn = z.infer<typeof TableColumnSchema>;

export const TableFilterSchema = z.object({
  key: z.string().min(1).max(64),
  operator: z.enum([...TEXT_FILTER_OPERATORS, ...NUMBER_FILTER_OPERATORS]),
  value: z.union([z.string().max(200), z.number()]).nullable(),
  value2: z.number().nullable().optional(),
});
export type TableFilter = z.infer<typeof TableFilterSchema>;

/** Table widget settings: columns, pageSize, filters. */
export const TableSettingsSchema = z.object({
  columns: z.array(TableColumnSchema).max(50),
  pageSize: z.union([z.literal(10), z.literal(25), z.literal(50)]).optional(),
  filters: z.array(TableFilterSchema).max(50).optional(),
});
export type TableSettings = z.infer<typeof TableSettingsSchema>;

export const WidgetLayoutSchema = z.object({
  x: z.number().int().min(0),
  y: z.number().int().min(0),
  w: z.number().int().min(1),
  h: z.number().int().min(1),
  minW: z.number().int().min(1).optional(),
  minH: z.number().int().min(1).optional(),
});
export type WidgetLayout = z.infer<typeof WidgetLayoutSchema>;

export const WidgetLayoutsSchema = z.object({
  lg: WidgetLayoutSchema,
  md: WidgetLayoutSchema,
  sm: WidgetLayoutSchema,
});
export type WidgetLayouts = z.infer<typeof WidgetLayoutsSchema>;

export const TIME_RANGE_TYPES = ['day', 'week', 'month', 'custom'] as const;
export const TimeRangeSchema = z.object({
  type: z.enum(TIME_RANGE_TYPES),
  amount: z.number().int().min(1).max(400).optional(),
  rolling: z.boolean().optional(),
  from: z.number().optional(),
  to: z.number().optional(),
});
export type TimeRange = z.infer<typeof TimeRangeSchema>;

export const WidgetSchema = z.object({
  type: z.enum(WIDGET_TYPES),
  settings: z.record(z.string(), z.unknown()),
  layouts: WidgetLayoutsSchema,
});
export type Widget = z.infer<typeof WidgetSchema>;

export const ViewSchema = z.object({
  viewid: z.string(),
  name: z.string(),
  sortOrder: z.number().int().min(1).max(100),
  timeRange: TimeRangeSchema,
  widgets: z.record(z.string(), WidgetSchema),
});
export type View = z.infer<typeof ViewSchema>;

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
  name: 'Default View',
  sortOrder: 1,
  timeRange: { type: 'day', amount: 7 },
  widgets: {
    widget1: { type: 'table', settings: DEFAULT_TABLE_SETTINGS, layouts: layoutsOf(0, 0, 12, 12) },
    widget2: { type: 'map', settings: {}, layouts: layoutsOf(0, 12, 12, 12) },
  },
};
