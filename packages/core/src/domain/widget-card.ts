/**
 * Widget cards (spec 2 sections 2, 3, 5 and 9; ledger WGT-01 - WGT-16, WGT-22): the defaults of a
 * new card, indicator and text; placing items on the card's 5 px grid, by pointer or by
 * keyboard; the widget{n} keys and the next free one. What a card shows is widget-values.ts.
 */
import {
  INDICATOR_DEFAULT_SIZE,
  WIDGET_KEY_PATTERN,
  WIDGET_SNAP_GRID_PX,
  WidgetCardSchema,
  authoredCount,
  type IndicatorKind,
  type IndicatorSettings,
  type WidgetCard,
  type WidgetComponent,
  type WidgetElement,
} from '../contracts/device-authoring';
import { PAGE_COLOURS } from './colour';
import { CUSTOM_WIDGET_LIMIT } from './constants';
import { widgetLimitMessage } from './screen-messages';
import { SEVERITY_COLOURS, SEVERITY_TEXT_COLOURS } from './severity';
import type { ValidationResult } from './validation';

/**
 * Colours used where a card or item names none. The severity palette of UI.md for indicators;
 * for text, which must stay legible on a white card (AA), the alarm red and a darker amber.
 */
export const WIDGET_DEFAULT_COLOURS = {
  normal: SEVERITY_COLOURS.normal,
  warning: SEVERITY_COLOURS.warning,
  alarm: SEVERITY_COLOURS.alarm,
  alertText: SEVERITY_COLOURS.alarm,
  warningText: SEVERITY_TEXT_COLOURS.warning,
  /** The default staleColor, grey, in a text: the page's muted grey (AA on white) rather than #808080. */
  staleText: '#59636e',
  text: PAGE_COLOURS.ink,
  background: PAGE_COLOURS.white,
  levelTrack: '#e5e7eb',
  border: SEVERITY_COLOURS.muted,
} as const;

/** The name a new widget card gets. */
export const NEW_WIDGET_NAME = 'New widget';
/** The template a new text starts with. */
export const NEW_TEXT_TEMPLATE = 'Text';

/** Names of the item kinds, as the editor and screen readers say them. */
export const WIDGET_ITEM_NAMES = {
  statusIndicator: 'Status indicator',
  levelIndicator: 'Level indicator',
  text: 'Text',
} as const satisfies Record<IndicatorKind | 'text', string>;

// ---- Defaults (WGT-03, WGT-08, WGT-10, WGT-11) -----------------------------------------------

/** A new widget card: 400 x 300 px, snap to grid, showLastReading and showUnits on, staleColor grey. */
export function newWidgetCard(name: string = NEW_WIDGET_NAME): WidgetCard {
  return WidgetCardSchema.parse({ name });
}

/**
 * A new status or level indicator at (x, y): the default thresholds (warning 35/25, alarm 45/20),
 * range 0-100, rotation 0; 50 px square and round for status, 100 px square for level.
 */
export function newIndicator(kind: IndicatorKind, id: string, x = 0, y = 0): WidgetElement {
  const size = INDICATOR_DEFAULT_SIZE[kind];
  const settings: IndicatorSettings = {
    min: 0,
    max: 100,
    rotation: 0,
    highWarning: 35,
    lowWarning: 25,
    highAlarm: 45,
    lowAlarm: 20,
    width: size,
    height: size,
    ...(kind === 'statusIndicator'
      ? { radius: size / 2, borderThickness: 0, shadow: false }
      : {
          radius: 8,
          borderThickness: 1,
          borderColor: WIDGET_DEFAULT_COLOURS.border,
          backgroundColor: WIDGET_DEFAULT_COLOURS.levelTrack,
          shadow: false,
        }),
  };
  return { id, x, y, active: kind, settings };
}

/** A new text at (x, y): fontSize 16, not bold or underlined. */
export function newTextComponent(id: string, x = 0, y = 0, template: string = NEW_TEXT_TEMPLATE): WidgetComponent {
  return { id, x, y, template, settings: { fontSize: 16, bold: false, underline: false } };
}

/** The first free item id with the prefix (e1, e2 ... for elements, t1, t2 ... for texts). */
export function nextItemId(prefix: string, card: Pick<WidgetCard, 'elements' | 'components'>): string {
  const used = new Set([...card.elements, ...card.components].map((item) => item.id));
  for (let n = 1; ; n += 1) if (!used.has(`${prefix}${n}`)) return `${prefix}${n}`;
}

/** An indicator's size in px (its settings, else its kind's default). */
export function indicatorSize(element: Pick<WidgetElement, 'active' | 'settings'>): { width: number; height: number } {
  const fallback = INDICATOR_DEFAULT_SIZE[element.active];
  return { width: element.settings.width ?? fallback, height: element.settings.height ?? fallback };
}

// ---- Placing items (WGT-01, WGT-12) -----------------------------------------------------------

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The nearest multiple of the grid (5 px): 13 -> 15, 12 -> 10. */
export function snapToGrid(value: number, grid: number = WIDGET_SNAP_GRID_PX): number {
  if (!finite(value)) return 0;
  return Math.round(value / grid) * grid;
}

/**
 * Where an item of `size` lands when dropped at `at` on a card: kept on the card (its top left at
 * 0 or more, its bottom right within the card where it fits) and, with `snap`, on the 5 px grid
 * (never snapped off the card). Whole pixels.
 */
export function placeItem(
  at: { x: number; y: number },
  size: { width: number; height: number },
  card: { width: number; height: number },
  snap: boolean,
): { x: number; y: number } {
  const axis = (value: number, extent: number, room: number) => {
    const max = Math.max(0, room - Math.max(0, extent));
    const kept = Math.min(max, Math.max(0, finite(value) ? value : 0));
    if (!snap) return Math.round(kept);
    const snapped = snapToGrid(kept);
    return snapped > max ? snapped - WIDGET_SNAP_GRID_PX * Math.ceil((snapped - max) / WIDGET_SNAP_GRID_PX) : snapped;
  };
  return {
    x: Math.max(0, axis(at.x, size.width, card.width)),
    y: Math.max(0, axis(at.y, size.height, card.height)),
  };
}

const ARROWS: Record<string, { dx: number; dy: number }> = {
  ArrowLeft: { dx: -1, dy: 0 },
  ArrowRight: { dx: 1, dy: 0 },
  ArrowUp: { dx: 0, dy: -1 },
  ArrowDown: { dx: 0, dy: 1 },
};

/** Grid steps one Shift+arrow moves an item. */
export const WIDGET_KEYBOARD_BIG_STEP = 10;

/**
 * Where an arrow key moves an item: one grid step (5 px with snapToGrid, else 1 px), ten with
 * Shift, kept on the card; null for any other key.
 */
export function moveByKey(
  key: string,
  shift: boolean,
  at: { x: number; y: number },
  size: { width: number; height: number },
  card: { width: number; height: number; snapToGrid: boolean },
): { x: number; y: number } | null {
  const arrow = Object.hasOwn(ARROWS, key) ? ARROWS[key] : undefined;
  if (!arrow) return null;
  const step = (card.snapToGrid ? WIDGET_SNAP_GRID_PX : 1) * (shift ? WIDGET_KEYBOARD_BIG_STEP : 1);
  return placeItem({ x: at.x + arrow.dx * step, y: at.y + arrow.dy * step }, size, card, card.snapToGrid);
}

// ---- Keys -------------------------------------------------------------------------------------

/** The widget card keys of a PORTAL_displaySettings record, in number order (widget2 before widget10). */
export function widgetKeys(displaySettings: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(displaySettings)
    .filter((key) => WIDGET_KEY_PATTERN.test(key) && displaySettings[key] != null)
    .sort((a, b) => widgetNumber(a) - widgetNumber(b));
}

function widgetNumber(key: string): number {
  return Number(WIDGET_KEY_PATTERN.exec(key)?.[1] ?? Number.NaN);
}

/**
 * The key a new widget card gets: the lowest free widget{n}; or, when the device holds 99 already,
 * 'Maximum number of widgets reached [99]' (WGT-16).
 */
export function nextWidgetKey(displaySettings: Readonly<Record<string, unknown>>): ValidationResult<string> {
  if (authoredCount(displaySettings as Record<string, unknown>, 'widget') >= CUSTOM_WIDGET_LIMIT) {
    return { ok: false, error: widgetLimitMessage('widget', CUSTOM_WIDGET_LIMIT) };
  }
  const used = new Set(widgetKeys(displaySettings));
  for (let n = 1; ; n += 1) if (!used.has(`widget${n}`)) return { ok: true, value: `widget${n}` };
}

/** A stored widget card read into its full shape (defaults filled in), or null when it is not one. */
export function readWidgetCard(stored: unknown): WidgetCard | null {
  const parsed = WidgetCardSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}
