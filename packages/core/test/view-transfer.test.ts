import { describe, expect, it } from 'vitest';
import {
  DEFAULT_VIEW,
  PortableViewSchema,
  VIEW_FILE_FORMAT,
  VIEW_FILE_FORMAT_VERSION,
  VIEW_FILE_MAX_BYTES,
  VIEW_TRANSFER_MESSAGES,
  ViewInputSchema,
  droppedSeriesNotice,
  dropForeignSeries,
  newViewForGroup,
  parseViewFile,
  portableView,
  viewCopyTargets,
  viewFileOf,
  type PortableView,
  type View,
} from '../src/index';

const layouts = (y: number, w = 6, h = 6) => ({
  lg: { x: 0, y, w, h },
  md: { x: 0, y, w: Math.min(w, 6), h },
  sm: { x: 0, y, w: Math.min(w, 4), h },
});

/** A saved view: table, map, a headline and a chart with series of three devices. */
const SAVED: View = {
  viewid: 'v-abc12345',
  name: 'Pumps',
  sortOrder: 3,
  timeRange: { type: 'week', amount: 1, rolling: false },
  version: 7,
  widgets: {
    ...DEFAULT_VIEW.widgets,
    w3: { type: 'headline', settings: { key: 'vsys', operator: 'max', dp: 2 }, layouts: layouts(24, 3, 4) },
    w4: {
      type: 'chart',
      settings: {
        name: 'Voltages',
        series: [
          { source: 'AAA000001', key: 'vsys', axisBind: 'ax1', lineWidth: 2 },
          { source: 'BBB000002', key: 'vsys', axisBind: 'ax2', lineWidth: 2 },
          { source: 'CCC000003', key: 'temp', axisBind: 'ax1', lineWidth: 3 },
        ],
      },
      layouts: layouts(28),
    },
  },
};

const fileText = (value: unknown) => JSON.stringify(value);

describe('view files', () => {
  it('exports the view without viewid and version, as { format, formatVersion, view }', () => {
    const file = viewFileOf(SAVED);
    expect(file.format).toBe(VIEW_FILE_FORMAT);
    expect(file.formatVersion).toBe(VIEW_FILE_FORMAT_VERSION);
    expect(Object.keys(file.view).sort()).toEqual(['name', 'sortOrder', 'timeRange', 'widgets']);
    expect(file.view).not.toHaveProperty('viewid');
    expect(file.view).not.toHaveProperty('version');
  });

  it('reads an exported file back to the same view, which is a valid new view (no viewid)', () => {
    const parsed = parseViewFile(fileText(viewFileOf(SAVED)));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value).toEqual(portableView(SAVED));
    expect(ViewInputSchema.safeParse(parsed.value).success).toBe(true);
    // A byte order mark (an editor saved it) is fine.
    expect(parseViewFile(`\uFEFF${fileText(viewFileOf(SAVED))}`).ok).toBe(true);
  });

  it.each([
    ['not JSON', '{"format": "portal-view",', VIEW_TRANSFER_MESSAGES.notJson],
    ['empty', '', VIEW_TRANSFER_MESSAGES.notJson],
    ['an array', '[]', VIEW_TRANSFER_MESSAGES.notViewFile],
    ['null', 'null', VIEW_TRANSFER_MESSAGES.notViewFile],
    ['a view without the wrapper', fileText(portableView(SAVED)), VIEW_TRANSFER_MESSAGES.notViewFile],
    ['another format', fileText({ ...viewFileOf(SAVED), format: 'grafana' }), VIEW_TRANSFER_MESSAGES.notViewFile],
    ['__proto__ as format', '{"__proto__": {"format": "portal-view"}}', VIEW_TRANSFER_MESSAGES.notViewFile],
    ['formatVersion 2', fileText({ ...viewFileOf(SAVED), formatVersion: 2 }), VIEW_TRANSFER_MESSAGES.formatVersion],
    ['no formatVersion', fileText({ format: 'portal-view', view: {} }), VIEW_TRANSFER_MESSAGES.formatVersion],
  ])('refuses %s', (_what, text, message) => {
    expect(parseViewFile(text)).toEqual({ ok: false, error: message });
  });

  it('refuses a file over the size limit before reading it', () => {
    expect(parseViewFile(' '.repeat(VIEW_FILE_MAX_BYTES + 1))).toEqual({
      ok: false,
      error: VIEW_TRANSFER_MESSAGES.tooLarge,
    });
  });

  const tampered = (change: (view: Record<string, unknown>) => void) => {
    const file = JSON.parse(fileText(viewFileOf(SAVED))) as { view: Record<string, unknown> };
    change(file.view);
    return parseViewFile(fileText(file));
  };

  it.each([
    [
      'a display order of 500',
      (v: Record<string, unknown>) => (v.sortOrder = 500),
      /^This view file is not valid: view\.sortOrder: Too big/,
    ],
    [
      'an unknown widget type',
      (v: Record<string, unknown>) => ((v.widgets as Record<string, { type: string }>).w3!.type = 'gauge'),
      /^This view file is not valid: view\.widgets\.w3\.type: /,
    ],
    [
      'a 16th chart series',
      (v: Record<string, unknown>) => {
        const chart = (v.widgets as Record<string, { settings: { series: unknown[] } }>).w4!;
        chart.settings.series = Array.from({ length: 16 }, () => chart.settings.series[0]);
      },
      /^This view file is not valid: view\.widgets\.w4\.settings\.series: Maximum number of series reached \[15\]$/,
    ],
    [
      'a second map',
      (v: Record<string, unknown>) => {
        const widgets = v.widgets as Record<string, unknown>;
        widgets.m2 = widgets.widget2;
      },
      /^This view file is not valid: view\.widgets: Maximum number of maps reached \[1\]$/,
    ],
    [
      'a viewid',
      (v: Record<string, unknown>) => (v.viewid = 'v-abc12345'),
      /^This view file is not valid: view: Unrecognized key: "viewid"$/,
    ],
    [
      'a name the database cannot store',
      (v: Record<string, unknown>) => (v.name = 'a\u0000b'),
      /^This view file is not valid: view\.name: /,
    ],
    [
      'a custom range with From after To',
      (v: Record<string, unknown>) => (v.timeRange = { type: 'custom', from: 20, to: 10 }),
      /^This view file is not valid: view\.timeRange\.from: Invalid date range$/,
    ],
  ])('refuses a tampered view: %s, naming the field', (_what, change, message) => {
    const parsed = tampered(change);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error).toMatch(message);
  });
});

describe('series of devices not in the target group', () => {
  const view = portableView(SAVED);

  it('drops the chart series whose device is not in the group and counts them', () => {
    const { view: kept, dropped } = dropForeignSeries(view, ['BBB000002', 'ZZZ999999']);
    expect(dropped).toBe(2);
    const chart = kept.widgets.w4;
    expect(chart?.type === 'chart' && chart.settings.series.map((s) => s.source)).toEqual(['BBB000002']);
    // Other widgets, and the view passed in, are untouched.
    expect(kept.widgets.w3).toEqual(view.widgets.w3);
    expect(kept.widgets.widget1).toEqual(view.widgets.widget1);
    expect(view.widgets.w4?.type === 'chart' && view.widgets.w4.settings.series).toHaveLength(3);
    expect(PortableViewSchema.safeParse(kept).success).toBe(true);
  });

  it('keeps every series when all devices are in the group, and drops all for an empty group', () => {
    expect(dropForeignSeries(view, new Set(['AAA000001', 'BBB000002', 'CCC000003'])).dropped).toBe(0);
    expect(dropForeignSeries(view, []).dropped).toBe(3);
    const noChart: PortableView = { ...view, widgets: { widget1: view.widgets.widget1! } };
    expect(dropForeignSeries(noChart, []).dropped).toBe(0);
  });

  it('names how many were dropped, or nothing when none was', () => {
    expect(droppedSeriesNotice(0)).toBeNull();
    expect(droppedSeriesNotice(1)).toBe('1 chart series was dropped: their devices are not in this group.');
    expect(droppedSeriesNotice(2)).toBe('2 chart series were dropped: their devices are not in this group.');
  });

  it('makes a new view for the target group: no viewid, after its last tab, foreign series dropped', () => {
    const made = newViewForGroup(view, { deviceIds: ['AAA000001'], views: [{ sortOrder: 1 }, { sortOrder: 9 }] });
    expect(made.dropped).toBe(2);
    expect(made.view.viewid).toBeUndefined();
    expect(made.view.version).toBeUndefined();
    expect(made.view.sortOrder).toBe(10);
    expect(made.view.name).toBe('Pumps');
    expect(ViewInputSchema.safeParse(made.view).success).toBe(true);
    // The display order stops at 100.
    expect(newViewForGroup(view, { deviceIds: [], views: [{ sortOrder: 100 }] }).view.sortOrder).toBe(100);
  });
});

describe('groups a view can be copied to', () => {
  it('are the other groups where the user edits views (ADMIN, USER), by name', () => {
    const groups = [
      { groupid: 'G1', groupName: 'Yard', permission: 'ADMIN' },
      { groupid: 'G2', groupName: 'North', permission: 'USER' },
      { groupid: 'G3', groupName: 'Aft', permission: 'OPERATOR' },
      { groupid: 'G4', groupName: 'Bay', permission: 'VIEW' },
      { groupid: 'G5', groupName: 'East', permission: 'ADMIN' },
      { groupid: 'G6', groupName: '__proto__', permission: '__proto__' },
      { groupid: 'G7', groupName: 'Null', permission: null },
    ];
    expect(viewCopyTargets(groups, 'G1').map((g) => g.groupid)).toEqual(['G5', 'G2']);
    expect(viewCopyTargets(groups, 'G9').map((g) => g.groupid)).toEqual(['G5', 'G2', 'G1']);
    expect(viewCopyTargets([], 'G1')).toEqual([]);
  });
});
