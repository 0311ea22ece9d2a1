/**
 * What a dashboard's widgets are made of (spec 1 sections 3 and 5, spec 2 sections 3 and 9): the
 * widget types, the table's special column kinds and their headers, the text columns, the filter
 * operators and the operators a column or headline aggregates with. Plain data, apart from the
 * view schemas (contracts/views.ts) that use it, so the dashboard can read it without loading Zod.
 */

export const WIDGET_TYPES = ['table', 'chart', 'map', 'headline'] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];

/** A chart series' axes, line types and line width when it sets none (spec 2 section 3). */
export const CHART_AXES = ['ax1', 'ax2'] as const;
export const CHART_LINE_TYPES = ['solid', 'dashed', 'dotted', 'step'] as const;
export const DEFAULT_CHART_LINE_WIDTH = 2;

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

/** Text columns (the text filter operators apply); every other column is numeric or a time. */
export const TEXT_COLUMN_KINDS = ['fw', 'type', 'deviceid', 'messages', 'machineMake', 'machineModel'] as const;

/** Filter operators (spec 1 section 5): text columns, and all other columns. */
export const TEXT_FILTER_OPERATORS = ['startsWith', 'contains', 'notContains', 'endsWith'] as const;
export const NUMBER_FILTER_OPERATORS = ['lt', 'lte', 'gt', 'gte', 'equals', 'notEquals', 'between'] as const;
export type TextFilterOperator = (typeof TEXT_FILTER_OPERATORS)[number];
export type NumberFilterOperator = (typeof NUMBER_FILTER_OPERATORS)[number];

/** Operators a metric column aggregates with (spec 2 section 9). */
export const COLUMN_OPERATORS = ['avg', 'sum', 'max', 'min', 'latest'] as const;

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
