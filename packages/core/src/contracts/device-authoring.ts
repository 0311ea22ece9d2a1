/**
 * What a device's owner authors in PORTAL_displaySettings beside the per-key display settings
 * (spec 2 sections 2, 3 and 5; ledger WGT-02 - WGT-11, WGT-22): widget cards under the keys
 * widget{n} and custom charts under chart{n}. The settings call stores them; these schemas check
 * them when they are saved.
 */
import { z } from 'zod';
import { CUSTOM_CHART_LIMIT, CUSTOM_WIDGET_LIMIT } from '../domain/constants';
import { widgetLimitMessage } from '../domain/screen-messages';
import { unavailableFeatureMessage } from '../domain/plans';
import { ChartSettingsSchema } from './views';
import { ColourSchema, safeString, valueNumber } from './fields';

// ---- Keys --------------------------------------------------------------------------------------

/** widget1 ... widget999: a widget card's key in PORTAL_displaySettings. */
export const WIDGET_KEY_PATTERN = /^widget([1-9][0-9]{0,2})$/;
/** chart1 ... chart999: a custom chart's key in PORTAL_displaySettings. */
export const CHART_KEY_PATTERN = /^chart([1-9][0-9]{0,2})$/;

export type AuthoredKind = 'widget' | 'chart';

/** Whether a display-settings key is a widget card's or a custom chart's, or neither (null). */
export function authoredKindOf(key: string): AuthoredKind | null {
  if (WIDGET_KEY_PATTERN.test(key)) return 'widget';
  if (CHART_KEY_PATTERN.test(key)) return 'chart';
  return null;
}

// ---- Widget cards --------------------------------------------------------------------------------

export const INDICATOR_KINDS = ['statusIndicator', 'levelIndicator'] as const;
export type IndicatorKind = (typeof INDICATOR_KINDS)[number];
export const INDICATOR_ROTATIONS = [0, 90, 180] as const;

/** Default thresholds of an indicator (spec 2 sections 3 and 9; WGT-08). */
export const INDICATOR_DEFAULT_THRESHOLDS = { highWarning: 35, lowWarning: 25, highAlarm: 45, lowAlarm: 20 } as const;
/** Default indicator sizes in px: status 50, level 100 (spec 2 section 9; WGT-10). */
export const INDICATOR_DEFAULT_SIZE: Record<IndicatorKind, number> = { statusIndicator: 50, levelIndicator: 100 };
/** Default text size in px (WGT-11). */
export const TEXT_DEFAULT_FONT_SIZE = 16;
/**
 * The address of a widget card's image as the widget-image call stores it (widgetImagePath): the
 * device's own file storage, never another site.
 */
export const WIDGET_IMAGE_PATH_PATTERN = /^\/api\/device\/[^/?#]+\/widget-image\/widget[1-9][0-9]{0,2}\?v=\d+$/;
export const WIDGET_IMAGE_PATH_MESSAGE =
  'must be the address PUT /api/device/{id}/widget-image/{widgetid} answered, or null';

/**
 * The address that serves a widget card's image; `version` (the upload time, epoch ms) changes with
 * each upload, so a cached copy is never shown for a new one.
 */
export function widgetImagePath(deviceid: string, widgetid: string, version: number): string {
  return `/api/device/${encodeURIComponent(deviceid)}/widget-image/${encodeURIComponent(widgetid)}?v=${version}`;
}

/** The grid dragged elements snap to, in px (spec 2 section 9; WGT-12). */
export const WIDGET_SNAP_GRID_PX = 5;
/** Largest widget card drawing, in px, and the most elements and texts one card holds. */
export const WIDGET_MAX_SIZE_PX = 4000;
export const WIDGET_MAX_ITEMS = 100;
export const WIDGET_TEMPLATE_MAX_CHARS = 500;

const position = z.number().min(0).max(WIDGET_MAX_SIZE_PX);
const size = z.number().min(1).max(WIDGET_MAX_SIZE_PX);
const itemId = safeString().regex(/^[A-Za-z0-9_-]{1,40}$/, 'id: 1 to 40 letters, digits, - or _');
const dataKey = safeString().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'dataElement must be a data key name');

/** Indicator settings (WGT-06, WGT-07, WGT-08). */
export const IndicatorSettingsSchema = z.strictObject({
  displayType: z.enum(['default', 'hide']).optional(),
  dataElement: dataKey.optional(),
  min: valueNumber('min').default(0),
  max: valueNumber('max').default(100),
  rotation: z
    .number()
    .refine((r) => (INDICATOR_ROTATIONS as readonly number[]).includes(r), 'rotation must be 0, 90 or 180')
    .default(0),
  barColor: ColourSchema.optional(),
  backgroundColor: ColourSchema.optional(),
  normalColor: ColourSchema.optional(),
  warningColor: ColourSchema.optional(),
  alarmColor: ColourSchema.optional(),
  highWarning: valueNumber('highWarning').default(INDICATOR_DEFAULT_THRESHOLDS.highWarning),
  lowWarning: valueNumber('lowWarning').default(INDICATOR_DEFAULT_THRESHOLDS.lowWarning),
  highAlarm: valueNumber('highAlarm').default(INDICATOR_DEFAULT_THRESHOLDS.highAlarm),
  lowAlarm: valueNumber('lowAlarm').default(INDICATOR_DEFAULT_THRESHOLDS.lowAlarm),
  width: size.optional(),
  height: size.optional(),
  radius: z.number().min(0).max(WIDGET_MAX_SIZE_PX).optional(),
  borderThickness: z.number().min(0).max(100).optional(),
  borderColor: ColourSchema.optional(),
  shadow: z.boolean().optional(),
});
export type IndicatorSettings = z.infer<typeof IndicatorSettingsSchema>;

/** An indicator element at a position; its active kind is status or level (WGT-04). */
export const WidgetElementSchema = z.strictObject({
  id: itemId,
  x: position,
  y: position,
  active: z.enum(INDICATOR_KINDS, { message: 'active must be statusIndicator or levelIndicator' }),
  settings: IndicatorSettingsSchema,
});
export type WidgetElement = z.infer<typeof WidgetElementSchema>;

/** Text settings (WGT-11). */
export const TextSettingsSchema = z.strictObject({
  displayType: z.enum(['default', 'hide']).optional(),
  bold: z.boolean().optional(),
  underline: z.boolean().optional(),
  fontSize: z.number().min(6).max(200).default(TEXT_DEFAULT_FONT_SIZE),
  colour: ColourSchema.optional(),
});
export type TextSettings = z.infer<typeof TextSettingsSchema>;

/** A text piece: a template reading `{data.KEY}` and `{cfg.PATH}` (WGT-05). */
export const WidgetComponentSchema = z.strictObject({
  id: itemId,
  x: position,
  y: position,
  template: safeString().max(WIDGET_TEMPLATE_MAX_CHARS),
  settings: TextSettingsSchema,
});
export type WidgetComponent = z.infer<typeof WidgetComponentSchema>;

/** Widget display settings (WGT-02, WGT-03). */
export const WidgetCardSchema = z.strictObject({
  name: safeString().max(64).optional(),
  type: z.literal('widget').default('widget'),
  elements: z.array(WidgetElementSchema).max(WIDGET_MAX_ITEMS).default([]),
  components: z.array(WidgetComponentSchema).max(WIDGET_MAX_ITEMS).default([]),
  image: z
    .strictObject({
      path: safeString().max(300).regex(WIDGET_IMAGE_PATH_PATTERN, WIDGET_IMAGE_PATH_MESSAGE).nullable().optional(),
      imageIsActive: z.boolean().default(false),
    })
    .optional(),
  backgroundColour: ColourSchema.optional(),
  width: size.default(400),
  height: size.default(300),
  widthInCardUnits: z.number().int().min(1).max(12).optional(),
  heightInCardUnits: z.number().int().min(1).max(12).optional(),
  snapToGrid: z.boolean().default(true),
  showLastReading: z.boolean().default(true),
  showUnits: z.boolean().default(true),
  staleColor: ColourSchema.default('grey'),
  alertColor: ColourSchema.optional(),
  warningColor: ColourSchema.optional(),
  changeColorisActive: z.boolean().optional(),
  /** Display order among the device page's cards (1-100, like a key's sort). */
  sort: z.number().int().min(1).max(100).optional(),
});
export type WidgetCard = z.infer<typeof WidgetCardSchema>;

// ---- Custom charts ---------------------------------------------------------------------------------

/** A device's custom chart: the chart settings of spec 2 section 3, its series the device's own keys. */
export const DeviceChartSchema = ChartSettingsSchema;
export type DeviceChart = z.infer<typeof DeviceChartSchema>;

/** The schema a display-settings key's value is checked by, for widget and chart keys. */
export function authoredSchemaOf(kind: AuthoredKind): typeof WidgetCardSchema | typeof DeviceChartSchema {
  return kind === 'widget' ? WidgetCardSchema : DeviceChartSchema;
}

// ---- Limits and plans (spec 2 sections 5 and 8; DESIGN.md section 5) ------------------------------

const AUTHORED_RULES = {
  widget: { limit: CUSTOM_WIDGET_LIMIT, feature: 'Widgets' },
  chart: { limit: CUSTOM_CHART_LIMIT, feature: 'Custom charts' },
} as const satisfies Record<AuthoredKind, { limit: number; feature: 'Widgets' | 'Custom charts' }>;

/** How many widget cards or custom charts a PORTAL_displaySettings record holds. */
export function authoredCount(displaySettings: Record<string, unknown>, kind: AuthoredKind): number {
  return Object.keys(displaySettings).filter((key) => authoredKindOf(key) === kind && displaySettings[key] != null)
    .length;
}

/**
 * Why a change of PORTAL_displaySettings may not be saved, or null: a widget card or custom chart
 * written on a plan without data to the portal ('Widgets are unavailable on the Basic Plan'), or a
 * change that takes a device past 99 widget cards or 5 charts ('Maximum number of charts reached
 * [5]'). Removing one is always allowed, and a device already past a limit may still edit.
 */
export function authoredChangeError(
  before: Record<string, unknown>,
  patch: Record<string, unknown>,
  plan: { name: string; dataToPortal: boolean },
): string | null {
  const after: Record<string, unknown> = { ...before };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete after[key];
    else after[key] = value;
  }
  for (const kind of ['widget', 'chart'] as const) {
    const { limit, feature } = AUTHORED_RULES[kind];
    const writes = Object.keys(patch).some((key) => authoredKindOf(key) === kind && patch[key] !== null);
    if (writes && !plan.dataToPortal) return unavailableFeatureMessage(feature, plan.name);
    const count = authoredCount(after, kind);
    if (count > limit && count > authoredCount(before, kind)) return widgetLimitMessage(kind, limit);
  }
  return null;
}
