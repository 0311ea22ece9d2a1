/** Event levels, severity words and colours, map marker severity (spec 1 sections 3-4, spec 2 section 4). */

/** Event levels from least to most severe. */
export const EVENT_LEVELS = ['info', 'alert', 'warning', 'alarm'] as const;
export type EventLevel = (typeof EVENT_LEVELS)[number];

/** The label shown for each level. */
export const EVENT_LEVEL_LABELS = {
  info: 'INFO',
  alert: 'ALERT',
  warning: 'WARN',
  alarm: 'ALARM',
} as const satisfies Record<EventLevel, string>;
export type SeverityWord = (typeof EVENT_LEVEL_LABELS)[EventLevel];

/** Upper bound (inclusive) of each lv band; above the alert.. bands is alarm. */
export const LV_BANDS = { info: 10, alert: 20, warning: 30 } as const;

/** Style classes used for severity. */
export type SeverityColourClass = 'danger' | 'warning' | 'info' | 'muted';

/** The level of an lv number: 1-10 info, 11-20 alert, 21-30 warning, 31-40 alarm; below 1 info, above 40 alarm. */
export function levelFromLv(lv: unknown): EventLevel | null {
  const n = typeof lv === 'number' ? lv : typeof lv === 'string' && lv.trim() !== '' ? Number(lv) : Number.NaN;
  if (Number.isNaN(n)) return null;
  if (n <= LV_BANDS.info) return 'info';
  if (n <= LV_BANDS.alert) return 'alert';
  if (n <= LV_BANDS.warning) return 'warning';
  return 'alarm';
}

const WORD_LEVELS: ReadonlyMap<string, EventLevel> = new Map([
  ['INFO', 'info'],
  ['ALERT', 'alert'],
  ['WARN', 'warning'],
  ['WARNING', 'warning'],
  ['ALARM', 'alarm'],
]);

/** The level named by a severity word (case-insensitive; WARNING is read as WARN), or null. */
export function levelFromWord(word: unknown): EventLevel | null {
  if (typeof word !== 'string') return null;
  return WORD_LEVELS.get(word.trim().toUpperCase()) ?? null;
}

/** An event as devices and records carry it: some give severity, some lv, some both. */
export interface EventLike {
  name?: unknown;
  topic?: unknown;
  msg?: unknown;
  lv?: unknown;
  severity?: unknown;
}

/** The level of an event: a recognised severity word wins, else lv, else info. */
export function eventLevel(event: EventLike | null | undefined): EventLevel {
  if (event === null || typeof event !== 'object') return 'info';
  return levelFromWord(event.severity) ?? levelFromLv(event.lv) ?? 'info';
}

/** The label (INFO, ALERT, WARN, ALARM) of an event. */
export function eventLabel(event: EventLike | null | undefined): SeverityWord {
  return EVENT_LEVEL_LABELS[eventLevel(event)];
}

/** The style class of a level: alarm danger, warning warning, alert info, info muted. */
export const LEVEL_COLOUR_CLASSES = {
  alarm: 'danger',
  warning: 'warning',
  alert: 'info',
  info: 'muted',
} as const satisfies Record<EventLevel, SeverityColourClass>;

/** Severity word to style: ALARM danger, WARN warning, ALERT info, anything else muted. */
export function severityColourClass(word: unknown): SeverityColourClass {
  const level = levelFromWord(word);
  return level === null ? 'muted' : LEVEL_COLOUR_CLASSES[level];
}

/** The style class of an event (its level's class). */
export function eventColourClass(event: EventLike | null | undefined): SeverityColourClass {
  return LEVEL_COLOUR_CLASSES[eventLevel(event)];
}

// ---- Map severity -----------------------------------------------------------------------

/** Map severities, most severe first. */
export const MAP_SEVERITIES = ['alarm', 'warning', 'info', 'normal'] as const;
export type MapSeverity = (typeof MAP_SEVERITIES)[number];

const MAP_RANK = { alarm: 3, warning: 2, info: 1, normal: 0 } as const satisfies Record<MapSeverity, number>;

/** The severity palette of UI.md. */
export const SEVERITY_COLOURS = {
  alarm: '#d32f2f',
  warning: '#f59e0b',
  info: '#0284c7',
  normal: '#16a34a',
  muted: '#9ca3af',
} as const satisfies Record<MapSeverity | 'muted', string>;

/**
 * The text shades of the severity palette: status colours in text and icons (CSS `color`), where
 * the bright ones above (for fills: markers, lamps, bars, borders) fall short of WCAG AA on white
 * (amber #f59e0b is 2.2:1). Each reaches 4.5:1 on white, on the page's ground and on the status
 * tints (the web app's --sev-{name}-text; docs/decisions.md, UI notes).
 */
export const SEVERITY_TEXT_COLOURS = {
  alarm: '#b42318',
  warning: '#b45309',
  info: '#0369a1',
  normal: '#15803d',
  muted: '#59636e',
} as const satisfies Record<MapSeverity | 'muted', string>;

/** Colour of each style class (danger is alarm red, info is alert blue). */
export const COLOUR_CLASS_COLOURS = {
  danger: SEVERITY_COLOURS.alarm,
  warning: SEVERITY_COLOURS.warning,
  info: SEVERITY_COLOURS.info,
  muted: SEVERITY_COLOURS.muted,
} as const satisfies Record<SeverityColourClass, string>;

const MAP_SEVERITY_OF_LEVEL = {
  alarm: 'alarm',
  warning: 'warning',
  alert: 'info',
  info: 'info',
} as const satisfies Record<EventLevel, MapSeverity>;

/** The most severe of a list of map severities; an empty list is normal. */
export function mostSevere(severities: Iterable<MapSeverity>): MapSeverity {
  let worst: MapSeverity = 'normal';
  for (const s of severities) {
    if (Object.hasOwn(MAP_RANK, s) && MAP_RANK[s] > MAP_RANK[worst]) worst = s;
  }
  return worst;
}

/** Marker severity: alarm if any alarm event, else warning, else info (alert or info events), else normal. */
export function markerSeverity(events: readonly (EventLike | null | undefined)[] | null | undefined): MapSeverity {
  if (!Array.isArray(events)) return 'normal';
  return mostSevere(events.map((e) => MAP_SEVERITY_OF_LEVEL[eventLevel(e)]));
}

/** Cluster sizes: fewer than 5 members small, 5 or more medium, 10 or more large. */
export const CLUSTER_SIZE_THRESHOLDS = { medium: 5, large: 10 } as const;
export type ClusterSize = 'small' | 'medium' | 'large';

/** The size class of a cluster of `count` markers. */
export function clusterSize(count: number): ClusterSize {
  if (count >= CLUSTER_SIZE_THRESHOLDS.large) return 'large';
  if (count >= CLUSTER_SIZE_THRESHOLDS.medium) return 'medium';
  return 'small';
}

/** Marker severity from the levels of the events present (as event counts give them): the same rule as markerSeverity. */
export function markerSeverityOfLevels(levels: Iterable<EventLevel>): MapSeverity {
  const severities: MapSeverity[] = [];
  for (const level of levels)
    if (Object.hasOwn(MAP_SEVERITY_OF_LEVEL, level)) severities.push(MAP_SEVERITY_OF_LEVEL[level]);
  return mostSevere(severities);
}
