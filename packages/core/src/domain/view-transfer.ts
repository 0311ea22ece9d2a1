/**
 * A view taken out of its group (issue 13, DESIGN.md section 5, docs/decisions.md 'View copy and
 * view files'): copied to another of the user's groups, or written to a JSON file and read back
 * into any group. Either way the view loses its id and version (the target group gives it new
 * ones), is checked by the same contract a save is (PortableViewSchema), and drops the chart
 * series whose device is not in the target group, saying how many.
 */
import { z } from 'zod';
import {
  PortableViewSchema,
  nextViewSortOrder,
  type PortableView,
  type View,
  type ViewInput,
} from '../contracts/views';
import { groupCan } from './group-access';
import type { ValidationResult } from './validation';

/** The `format` of a view file. */
export const VIEW_FILE_FORMAT = 'portal-view';
/** The `formatVersion` this portal writes and reads. */
export const VIEW_FILE_FORMAT_VERSION = 1;

/** A view file: `{ format: 'portal-view', formatVersion: 1, view }`, the view without viewid and version. */
export const ViewFileSchema = z.strictObject({
  format: z.literal(VIEW_FILE_FORMAT),
  formatVersion: z.literal(VIEW_FILE_FORMAT_VERSION),
  view: PortableViewSchema,
});
export type ViewFile = z.infer<typeof ViewFileSchema>;

/** Largest view file read (99 widgets with settings fit in the 1 MB a view save may send). */
export const VIEW_FILE_MAX_BYTES = 1_000_000;

/** The texts of copying, exporting and importing a view. */
export const VIEW_TRANSFER_MESSAGES = {
  notJson: 'This file is not a view file: it is not valid JSON.',
  notViewFile: `This file is not a view file: "format" must be "${VIEW_FILE_FORMAT}".`,
  formatVersion: `This view file's formatVersion is not supported: this portal reads formatVersion ${VIEW_FILE_FORMAT_VERSION}.`,
  tooLarge: `This file is too large for a view file (at most ${VIEW_FILE_MAX_BYTES / 1_000_000} MB).`,
  invalid: 'This view file is not valid',
  copied: 'View copied',
  imported: 'View imported',
} as const;

/** The view without what only its own group understands (viewid, version). */
export function portableView(view: Pick<View, 'name' | 'sortOrder' | 'timeRange' | 'widgets'>): PortableView {
  // The server checked each widget's settings against its type when they were saved.
  const widgets = view.widgets as PortableView['widgets'];
  return { name: view.name, sortOrder: view.sortOrder, timeRange: view.timeRange, widgets };
}

/** The view file of a view: `{ format: 'portal-view', formatVersion: 1, view }` (portableView). */
export function viewFileOf(view: Pick<View, 'name' | 'sortOrder' | 'timeRange' | 'widgets'>): ViewFile {
  return { format: VIEW_FILE_FORMAT, formatVersion: VIEW_FILE_FORMAT_VERSION, view: portableView(view) };
}

/** A field path as the messages name it: `view.widgets.w1.settings.series.0.key`. */
function pathText(path: readonly PropertyKey[]): string {
  return path.map((p) => String(p)).join('.');
}

/**
 * The view of a view file's text, checked by the contract a save is checked by; else why it is
 * refused: not JSON, not a portal view file (format), another formatVersion, or the first wrong
 * field by its path ('This view file is not valid: view.sortOrder: Too big: …').
 */
export function parseViewFile(text: string): ValidationResult<PortableView> {
  if (text.length > VIEW_FILE_MAX_BYTES) return { ok: false, error: VIEW_TRANSFER_MESSAGES.tooLarge };
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { ok: false, error: VIEW_TRANSFER_MESSAGES.notJson };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json) || !Object.hasOwn(json, 'format'))
    return { ok: false, error: VIEW_TRANSFER_MESSAGES.notViewFile };
  const head = json as { format: unknown; formatVersion?: unknown };
  if (head.format !== VIEW_FILE_FORMAT) return { ok: false, error: VIEW_TRANSFER_MESSAGES.notViewFile };
  if (head.formatVersion !== VIEW_FILE_FORMAT_VERSION)
    return { ok: false, error: VIEW_TRANSFER_MESSAGES.formatVersion };
  const parsed = ViewFileSchema.safeParse(json);
  if (parsed.success) return { ok: true, value: parsed.data.view };
  const issue = parsed.error.issues[0];
  const field = issue ? pathText(issue.path) : '';
  const detail = issue ? (field ? `${field}: ${issue.message}` : issue.message) : 'invalid';
  return { ok: false, error: `${VIEW_TRANSFER_MESSAGES.invalid}: ${detail}` };
}

/**
 * The view with every chart series whose device (`source`) is not among `deviceIds` removed,
 * and how many were removed. Other widgets (tables, headlines, the map) read the group they are
 * in and stay as they are.
 */
export function dropForeignSeries(
  view: PortableView,
  deviceIds: Iterable<string>,
): { view: PortableView; dropped: number } {
  const devices = new Set(deviceIds);
  let dropped = 0;
  const widgets: PortableView['widgets'] = {};
  for (const [id, widget] of Object.entries(view.widgets)) {
    if (widget.type !== 'chart') {
      widgets[id] = widget;
      continue;
    }
    const series = widget.settings.series.filter((s) => devices.has(s.source));
    dropped += widget.settings.series.length - series.length;
    widgets[id] = { ...widget, settings: { ...widget.settings, series } };
  }
  return { view: { ...view, widgets }, dropped };
}

/** The notice after a copy or an import that dropped series: '2 chart series were dropped: …'. */
export function droppedSeriesNotice(dropped: number): string | null {
  if (dropped <= 0) return null;
  const what = dropped === 1 ? '1 chart series was' : `${dropped} chart series were`;
  return `${what} dropped: their devices are not in this group.`;
}

/**
 * A portable view as a new view of a target group (PUT without viewid, so the group gives it a
 * new id and version 1): its chart series cut to the group's devices (dropForeignSeries) and its
 * display order after the group's last tab (nextViewSortOrder), so it joins the end of the row.
 */
export function newViewForGroup(
  view: PortableView,
  target: { deviceIds: Iterable<string>; views: readonly Pick<View, 'sortOrder'>[] },
): { view: ViewInput; dropped: number } {
  const { view: kept, dropped } = dropForeignSeries(view, target.deviceIds);
  return { view: { ...kept, sortOrder: nextViewSortOrder(target.views) }, dropped };
}

/**
 * The groups a view can be copied to: the user's other groups where their level edits views
 * (groupCan 'editViews': ADMIN and USER; the server decides the save again), by name.
 */
export function viewCopyTargets<G extends { groupid: string; groupName: string; permission: unknown }>(
  groups: readonly G[],
  fromGroupid: string,
): G[] {
  return groups
    .filter((g) => g.groupid !== fromGroupid && groupCan(g.permission, 'editViews'))
    .sort((a, b) => a.groupName.localeCompare(b.groupName) || a.groupid.localeCompare(b.groupid));
}
