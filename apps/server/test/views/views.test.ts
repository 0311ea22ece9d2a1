/**
 * The group view calls over real HTTP (spec 1 sections 3-5, 7 and 8; DESIGN.md section 5):
 * GET /group/{groupid}/views, PUT /group/{groupid}/view, DELETE /group/{groupid}/view. Every member
 * level reads, ADMIN and USER write, strangers and former members get 404 'Group not found'; a
 * save on a stale version answers 409 and changes nothing; bad bodies answer 400 and change
 * nothing. Runs on PGlite, and on PostgreSQL when reachable.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_VIEW,
  GROUP_MESSAGES,
  INVALID_DATE_RANGE,
  UNSTORABLE_TEXT_MESSAGE,
  VIEW_MESSAGES,
  type DeviceRole,
  type View,
} from '@portal/core';
import { type ApiClient, type DbKind, type TestPortal, findPostgres, startTestPortal } from '../helpers';
import { type GroupMembers, del, expectError, shareWithEachLevel, signedInUser } from '../device-helpers';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const LEVELS: DeviceRole[] = ['ADMIN', 'USER', 'OPERATOR', 'VIEW'];

interface Fixture {
  groupid: string;
  members: GroupMembers;
}

/** The same place at each breakpoint, the width clipped to its columns (12, 6, 4). */
function layouts(x: number, y: number, w: number, h: number) {
  const at = (cols: number) => ({
    x: Math.min(x, cols - 1),
    y,
    w: Math.min(w, cols - Math.min(x, cols - 1)),
    h,
    minW: 1,
    minH: 2,
  });
  return { lg: at(12), md: at(6), sm: at(4) };
}

const TABLE = {
  type: 'table' as const,
  settings: { columns: [{ key: 'deviceid', dataType: 'special', name: 'Device ID' }], pageSize: 25 },
  layouts: layouts(0, 0, 12, 12),
};
const MAP = { type: 'map' as const, settings: {}, layouts: layouts(0, 12, 12, 12) };
const HEADLINE = {
  type: 'headline' as const,
  settings: { key: 'temp', dataType: 'number', operator: 'max', unit: 'C', trendColor: '#00aa00', dp: 2 },
  layouts: layouts(0, 24, 3, 4),
};
const CHART = {
  type: 'chart' as const,
  settings: {
    name: 'Temperatures',
    stack: false,
    axis: { ax1: { name: 'Temp', unit: 'C', min: 0, max: 50, dp: 1, tick: 5, colour: 'red' } },
    series: [{ source: 'ABC123XYZ', key: 'temp', axisBind: 'ax1', colour: '#ff0000', lineType: 'solid', lineWidth: 3 }],
    xAxis: { xa1: { name: 'Time' } },
    dataLabels: true,
    dataLabelColor: 'black',
    backgroundColor: 'white',
  },
  layouts: layouts(3, 24, 9, 8),
};

/** A view body to create (no viewid): a table, a map, a headline and a chart. */
function newView(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'North yard',
    sortOrder: 2,
    timeRange: { type: 'week', amount: 1, rolling: false },
    widgets: { widget1: TABLE, widget2: MAP, widget3: HEADLINE, widget4: CHART },
    ...overrides,
  };
}

function describeViews(dbKind: DbKind): void {
  describe(`group views (${dbKind})`, () => {
    let tp: TestPortal;

    beforeAll(async () => {
      tp = await startTestPortal({ db: dbKind, seed: false });
    });
    afterAll(async () => {
      await tp?.close();
    });
    afterEach(() => {
      expect(tp.responses.filter((r) => r.status >= 500)).toEqual([]);
    });

    /** A group (ADMIN created it) with one member per level, and a stranger. */
    async function groupWithMembers(): Promise<Fixture> {
      const admin = await signedInUser(tp);
      const made = await admin.client.post('/api/group', { groupName: 'Views' });
      expect(made.status, made.text).toBe(200);
      const groupid = (made.body as { groupid: string }).groupid;
      return { groupid, members: await shareWithEachLevel(tp, admin, groupid) };
    }

    const viewsOf = async (client: ApiClient, groupid: string): Promise<View[]> => {
      const res = await client.get(`/api/group/${groupid}/views`);
      expect(res.status, res.text).toBe(200);
      expect((res.body as { groupid: string }).groupid).toBe(groupid);
      return (res.body as { views: View[] }).views;
    };
    const put = (client: ApiClient, groupid: string, view: unknown) =>
      client.put(`/api/group/${groupid}/view`, { view });
    const created = async (client: ApiClient, groupid: string, view: Record<string, unknown> = newView()) => {
      const res = await put(client, groupid, view);
      expect(res.status, res.text).toBe(200);
      expect((res.body as { message: string }).message).toBe(VIEW_MESSAGES.created);
      return (res.body as { view: View }).view;
    };
    /** A view as a save sends it back: the answer's view with the version it was loaded at. */
    const edit = (view: View, changes: Partial<View> = {}) => ({ ...view, ...changes });
    const rowsOf = async (groupid: string) =>
      (
        await tp.portal.db.query<{ n: number }>('SELECT count(*)::int AS n FROM group_views WHERE groupid = $1', [
          groupid,
        ])
      )[0]!.n;

    it('a group without views answers the default view to every member level; strangers get 404 Group not found', async () => {
      const fx = await groupWithMembers();
      for (const level of LEVELS) expect(await viewsOf(fx.members[level].client, fx.groupid)).toEqual([DEFAULT_VIEW]);
      expect(DEFAULT_VIEW).toMatchObject({ viewid: 'view1', name: 'Default View', sortOrder: 1, version: 0 });
      expect(DEFAULT_VIEW.timeRange).toEqual({ type: 'day', amount: 7 });
      for (const path of [`/api/group/${fx.groupid}/views`, '/api/group/AAAAAAAAAAA/views', '/api/group/nope/views']) {
        expectError(await fx.members.STRANGER.client.get(path), 404, 'NOT_FOUND', GROUP_MESSAGES.notFound);
      }
      expectError(await tp.client().get(`/api/group/${fx.groupid}/views`), 401, 'UNAUTHENTICATED');
      expect(await rowsOf(fx.groupid)).toBe(0);
    });

    it('ADMIN and USER create, save and delete; OPERATOR and VIEW get 403 and a stranger 404, and nothing changes', async () => {
      const fx = await groupWithMembers();
      const mine: Partial<Record<DeviceRole, View>> = {};
      for (const level of LEVELS) {
        const { client } = fx.members[level];
        const res = await put(client, fx.groupid, newView({ name: `By ${level}` }));
        if (level === 'ADMIN' || level === 'USER') {
          expect(res.status, `${level} creates`).toBe(200);
          mine[level] = (res.body as { view: View }).view;
        } else expectError(res, 403, 'FORBIDDEN');
      }
      expectError(
        await put(fx.members.STRANGER.client, fx.groupid, newView()),
        404,
        'NOT_FOUND',
        GROUP_MESSAGES.notFound,
      );
      const before = await viewsOf(fx.members.VIEW.client, fx.groupid);
      expect(before.map((v) => v.name)).toEqual(['Default View', 'By ADMIN', 'By USER']);

      const target = mine.ADMIN!;
      for (const who of ['OPERATOR', 'VIEW', 'STRANGER'] as const) {
        const saved = await put(fx.members[who].client, fx.groupid, edit(target, { name: 'Taken' }));
        const deleted = await del(fx.members[who].client, `/api/group/${fx.groupid}/view`, { viewid: target.viewid });
        for (const res of [saved, deleted]) {
          if (who === 'STRANGER') expectError(res, 404, 'NOT_FOUND', GROUP_MESSAGES.notFound);
          else expectError(res, 403, 'FORBIDDEN');
        }
      }
      expect(await viewsOf(fx.members.ADMIN.client, fx.groupid)).toEqual(before);

      // USER saves ADMIN's view, and deletes it.
      const saved = await put(fx.members.USER.client, fx.groupid, edit(target, { name: 'Renamed by USER' }));
      expect(saved.status, saved.text).toBe(200);
      expect(saved.body).toMatchObject({ message: VIEW_MESSAGES.saved, view: { name: 'Renamed by USER', version: 2 } });
      const gone = await del(fx.members.USER.client, `/api/group/${fx.groupid}/view`, { viewid: target.viewid });
      expect(gone.body).toEqual({ message: VIEW_MESSAGES.deleted, groupid: fx.groupid, viewid: target.viewid });
      expect((await viewsOf(fx.members.OPERATOR.client, fx.groupid)).map((v) => v.name)).toEqual([
        'Default View',
        'By USER',
      ]);
    });

    it('a former member (removed, or left) gets 404 Group not found on every view call at once', async () => {
      const fx = await groupWithMembers();
      const view = await created(fx.members.ADMIN.client, fx.groupid);
      const removed = fx.members.USER;
      const left = fx.members.VIEW;
      expect(
        (await del(fx.members.ADMIN.client, `/api/group/${fx.groupid}/user`, { targetUserID: removed.id })).status,
      ).toBe(200);
      expect((await del(left.client, `/api/group/${fx.groupid}/user`, { targetUserID: left.id })).status).toBe(200);
      for (const former of [removed, left]) {
        expectError(
          await former.client.get(`/api/group/${fx.groupid}/views`),
          404,
          'NOT_FOUND',
          GROUP_MESSAGES.notFound,
        );
        expectError(
          await put(former.client, fx.groupid, edit(view, { name: 'x' })),
          404,
          'NOT_FOUND',
          GROUP_MESSAGES.notFound,
        );
        expectError(
          await del(former.client, `/api/group/${fx.groupid}/view`, { viewid: view.viewid }),
          404,
          'NOT_FOUND',
          GROUP_MESSAGES.notFound,
        );
      }
      expect((await viewsOf(fx.members.ADMIN.client, fx.groupid)).find((v) => v.viewid === view.viewid)).toEqual(view);
    });

    it("creates with 'v-' + 8 characters, keeps the default view as a tab, names blanks 'View {n+1}', orders by sortOrder", async () => {
      const fx = await groupWithMembers();
      const { client } = fx.members.ADMIN;
      const first = await created(client, fx.groupid, newView({ name: '', sortOrder: 5 }));
      expect(first.viewid).toMatch(/^v-[a-z0-9]{8}$/);
      // The default view was one of the group's views: n = 1.
      expect(first).toMatchObject({ name: 'View 2', sortOrder: 5, version: 1 });
      const second = await created(client, fx.groupid, newView({ name: '  ', sortOrder: 3 }));
      expect(second.name).toBe('View 3');
      const third = await created(client, fx.groupid, newView({ sortOrder: 1, name: undefined }));
      expect(third.name).toBe('View 4');
      expect(new Set([first.viewid, second.viewid, third.viewid]).size).toBe(3);
      const views = await viewsOf(fx.members.VIEW.client, fx.groupid);
      // sortOrder 1 (the default view, then the newer view), 3, 5.
      expect(views.map((v) => [v.viewid, v.sortOrder])).toEqual([
        ['view1', 1],
        [third.viewid, 1],
        [second.viewid, 3],
        [first.viewid, 5],
      ]);
      expect(views[0]).toEqual(DEFAULT_VIEW);
      expect(views[3]).toEqual(first);
    });

    it('round-trips every widget kind and range type; rename and reorder bump the version', async () => {
      const fx = await groupWithMembers();
      const { client } = fx.members.USER;
      const view = await created(client, fx.groupid);
      expect(view.widgets).toEqual({
        widget1: TABLE,
        widget2: MAP,
        widget3: HEADLINE,
        // The series keeps its values; nothing is added beyond the defaults it already names.
        widget4: CHART,
      });
      let current = view;
      for (const timeRange of [
        { type: 'day', amount: 30, rolling: true },
        { type: 'week', amount: 1 },
        { type: 'month', amount: 1, rolling: false },
        { type: 'custom', from: 1_715_000_000, to: 1_715_600_000 },
      ] as View['timeRange'][]) {
        const res = await put(client, fx.groupid, edit(current, { timeRange }));
        expect(res.status, res.text).toBe(200);
        const saved = (res.body as { view: View }).view;
        expect(saved.timeRange).toEqual(timeRange);
        expect(saved.version).toBe(current.version + 1);
        current = saved;
      }
      const renamed = await put(client, fx.groupid, edit(current, { name: 'South yard', sortOrder: 100 }));
      current = (renamed.body as { view: View }).view;
      expect(current).toMatchObject({ name: 'South yard', sortOrder: 100, version: 6 });
      const views = await viewsOf(client, fx.groupid);
      expect(views.map((v) => v.viewid)).toEqual(['view1', view.viewid]);
      expect(views[1]).toEqual(current);
      // A headline's dp is clamped to 0-5 and its operator defaults to avg; a series' lineWidth to 2.
      const widgets = {
        ...current.widgets,
        widget3: { ...HEADLINE, settings: { key: 'temp', dp: 9 } },
        widget4: { ...CHART, settings: { series: [{ source: 'ABC123XYZ', key: 'temp' }] } },
      };
      const defaults = await put(client, fx.groupid, edit(current, { widgets }));
      expect(defaults.status, defaults.text).toBe(200);
      const after = (defaults.body as { view: View }).view.widgets;
      expect(after.widget3!.settings).toEqual({ key: 'temp', dp: 5, operator: 'avg' });
      expect(after.widget4!.settings).toEqual({
        series: [{ source: 'ABC123XYZ', key: 'temp', axisBind: 'ax1', lineWidth: 2 }],
      });
    });

    it('saving the default view stores it; a save on a stale version answers 409 and changes nothing', async () => {
      const fx = await groupWithMembers();
      const [shown] = await viewsOf(fx.members.ADMIN.client, fx.groupid);
      const first = await put(fx.members.ADMIN.client, fx.groupid, edit(shown!, { name: 'Overview' }));
      expect(first.status, first.text).toBe(200);
      const overview = (first.body as { view: View }).view;
      expect(overview).toMatchObject({ viewid: 'view1', name: 'Overview', version: 1 });
      expect(await rowsOf(fx.groupid)).toBe(1);

      // USER loaded version 1 too; ADMIN saves first (adds a headline), USER's save on version 1 is refused.
      const adminSave = await put(
        fx.members.ADMIN.client,
        fx.groupid,
        edit(overview, { widgets: { ...overview.widgets, widget3: HEADLINE } }),
      );
      expect(adminSave.status, adminSave.text).toBe(200);
      const afterAdmin = await viewsOf(fx.members.USER.client, fx.groupid);
      for (const stale of [overview, shown!]) {
        const res = await put(
          fx.members.USER.client,
          fx.groupid,
          edit(stale, { name: 'Mine', widgets: overview.widgets }),
        );
        expectError(res, 409, 'CONFLICT', VIEW_MESSAGES.stale);
      }
      // A version ahead of the stored one is as stale as one behind.
      expectError(await put(fx.members.USER.client, fx.groupid, edit(overview, { version: 9 })), 409, 'CONFLICT');
      expect(await viewsOf(fx.members.USER.client, fx.groupid)).toEqual(afterAdmin);
      expect(afterAdmin[0]!.widgets.widget3).toEqual(HEADLINE);
      // Reloaded, USER's save goes through on the current version.
      const reloaded = await put(fx.members.USER.client, fx.groupid, edit(afterAdmin[0]!, { name: 'Mine' }));
      expect(reloaded.body).toMatchObject({ view: { name: 'Mine', version: 3 } });

      // Two saves on one version at the same moment: one goes through, the other is refused.
      const current = (reloaded.body as { view: View }).view;
      const race = await Promise.all(
        (['ADMIN', 'USER'] as const).map((level) =>
          put(fx.members[level].client, fx.groupid, edit(current, { name: `Race ${level}` })),
        ),
      );
      expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = (race.find((r) => r.status === 200)!.body as { view: View }).view;
      expect((await viewsOf(fx.members.VIEW.client, fx.groupid))[0]).toEqual(winner);
      expect(winner.version).toBe(4);
    });

    it("deletes: unknown ids 404 'View not found'; the last view gone leaves the default view", async () => {
      const fx = await groupWithMembers();
      const { client } = fx.members.ADMIN;
      const path = `/api/group/${fx.groupid}/view`;
      // The default view alone: deleting it changes nothing, the group still shows it.
      expect((await del(client, path, { viewid: 'view1' })).status).toBe(200);
      expect(await viewsOf(client, fx.groupid)).toEqual([DEFAULT_VIEW]);
      expectError(await del(client, path, { viewid: 'v-00000000' }), 404, 'NOT_FOUND', VIEW_MESSAGES.notFound);

      const view = await created(client, fx.groupid);
      expectError(
        await put(client, fx.groupid, { ...view, viewid: 'v-zzzzzzzz' }),
        404,
        'NOT_FOUND',
        VIEW_MESSAGES.notFound,
      );
      expect((await del(client, path, { viewid: 'view1' })).status).toBe(200);
      expect((await viewsOf(client, fx.groupid)).map((v) => v.viewid)).toEqual([view.viewid]);
      // view1 is gone for good while the group has other views.
      expectError(await put(client, fx.groupid, edit(DEFAULT_VIEW)), 404, 'NOT_FOUND', VIEW_MESSAGES.notFound);
      expectError(await del(client, path, { viewid: 'view1' }), 404, 'NOT_FOUND', VIEW_MESSAGES.notFound);
      expect((await del(client, path, { viewid: view.viewid })).status).toBe(200);
      expectError(await del(client, path, { viewid: view.viewid }), 404, 'NOT_FOUND', VIEW_MESSAGES.notFound);
      expect(await viewsOf(client, fx.groupid)).toEqual([DEFAULT_VIEW]);
      expect(await rowsOf(fx.groupid)).toBe(0);
    });

    it('bad bodies answer 400 naming the problem, and nothing changes', async () => {
      const fx = await groupWithMembers();
      const { client } = fx.members.ADMIN;
      const view = await created(client, fx.groupid);
      const before = await viewsOf(client, fx.groupid);
      const manyWidgets = Object.fromEntries(
        Array.from({ length: 100 }, (_, i) => [`w${i}`, { ...HEADLINE, layouts: layouts(0, i * 4, 3, 4) }]),
      );
      const bad: [string, unknown, string | RegExp][] = [
        [
          'unknown widget type',
          edit(view, { widgets: { ...view.widgets, widget9: { ...MAP, type: 'gauge' } } } as never),
          /type/,
        ],
        ['sortOrder 0', edit(view, { sortOrder: 0 }), /sortOrder/],
        ['sortOrder 101', edit(view, { sortOrder: 101 }), /sortOrder/],
        ['sortOrder 1.5', edit(view, { sortOrder: 1.5 }), /sortOrder/],
        ['sortOrder as text', edit(view, { sortOrder: '2' } as never), /sortOrder/],
        ['100 widgets', newView({ widgets: manyWidgets }), 'Maximum number of widgets reached [99]'],
        [
          'two maps',
          newView({ widgets: { widget1: TABLE, widget2: MAP, widget3: { ...MAP, layouts: layouts(0, 40, 4, 4) } } }),
          'Maximum number of maps reached [1]',
        ],
        [
          '16 series',
          newView({
            widgets: {
              widget4: { ...CHART, settings: { series: Array.from({ length: 16 }, () => CHART.settings.series[0]) } },
            },
          }),
          'Maximum number of series reached [15]',
        ],
        ['NUL in a name', newView({ name: 'a\u0000b' }), UNSTORABLE_TEXT_MESSAGE],
        [
          'NUL in a column name',
          newView({
            widgets: { widget1: { ...TABLE, settings: { columns: [{ key: 'k', dataType: 'x', name: 'a\u0000' }] } } },
          }),
          UNSTORABLE_TEXT_MESSAGE,
        ],
        ['name as a number', newView({ name: 5 }), /name/],
        ['widgets as a list', newView({ widgets: [] }), /widgets/],
        ['an unknown field', newView({ colour: 'red' }), /colour|Unrecognized/],
        [
          'an unknown settings field',
          newView({ widgets: { widget2: { ...MAP, settings: { zoom: 3 } } } }),
          /zoom|Unrecognized/,
        ],
        [
          'a missing layout',
          newView({ widgets: { widget2: { ...MAP, layouts: { lg: MAP.layouts.lg } } } }),
          /md|required|expected object/,
        ],
        [
          'a layout wider than md',
          newView({ widgets: { widget2: { ...MAP, layouts: { ...MAP.layouts, md: { x: 2, y: 0, w: 6, h: 4 } } } } }),
          /at most 6 columns/,
        ],
        ['a bad widget id', newView({ widgets: { '1widget': MAP } }), /widgets\.1widget/],
        [
          'a bad colour',
          newView({ widgets: { widget3: { ...HEADLINE, settings: { key: 'k', trendColor: 'not a colour' } } } }),
          /colou?r/i,
        ],
        ['an unknown range type', newView({ timeRange: { type: 'year', amount: 1 } }), /timeRange/],
        [
          'a custom range From after To',
          newView({ timeRange: { type: 'custom', from: 20, to: 10 } }),
          INVALID_DATE_RANGE,
        ],
        ['a custom range without To', newView({ timeRange: { type: 'custom', from: 20 } }), INVALID_DATE_RANGE],
        ['a day range without amount', newView({ timeRange: { type: 'day' } }), /amount/],
        ['a save without version', { ...view, version: undefined }, VIEW_MESSAGES.versionRequired],
        ['a negative version', edit(view, { version: -1 }), /version/],
        ['a table removed', edit(view, { widgets: { widget2: view.widgets.widget2! } }), VIEW_MESSAGES.tableFixed],
        [
          'a table resized',
          edit(view, {
            widgets: { ...view.widgets, widget1: { ...view.widgets.widget1!, layouts: layouts(0, 0, 12, 20) } },
          }),
          VIEW_MESSAGES.tableFixed,
        ],
      ];
      for (const [what, body, message] of bad) {
        const res = await put(client, fx.groupid, body);
        expect(res.status, `${what}: ${res.text}`).toBe(400);
        // Contract messages come prefixed with their field ('view.widgets: ...', or 'view.version is ...' when they name it).
        expectError(
          res,
          400,
          'BAD_REQUEST',
          typeof message === 'string' ? new RegExp(`(^|: |\\.)${escape(message)}$`) : message,
        );
      }
      for (const body of [{}, { view: newView(), extra: 1 }, []]) {
        expectError(await client.put(`/api/group/${fx.groupid}/view`, body), 400, 'BAD_REQUEST');
      }
      expectError(await client.put(`/api/group/${fx.groupid}/view`, undefined), 400, 'BAD_REQUEST');
      for (const body of [
        {},
        { viewid: '' },
        { viewid: 5 },
        { viewid: 'a\u0000' },
        { viewid: view.viewid, version: 1 },
      ]) {
        expectError(await del(client, `/api/group/${fx.groupid}/view`, body), 400, 'BAD_REQUEST');
      }
      expect(await viewsOf(client, fx.groupid)).toEqual(before);
    });

    it('sanitises view names (DESIGN.md section 5): ` ~ " \' ? < > removed, 20 characters kept', async () => {
      const fx = await groupWithMembers();
      const view = await created(
        fx.members.ADMIN.client,
        fx.groupid,
        newView({ name: '<b>"North"</b> yard ~ number one two' }),
      );
      expect(view.name).toBe('bNorth/b yard  numbe');
      // Nothing left but removed characters: a blank name.
      const blank = await put(fx.members.ADMIN.client, fx.groupid, edit(view, { name: '"?<>`~' }));
      expect((blank.body as { view: View }).view.name).toBe('View 2');
    });

    it('the group server log names who saved and deleted; deleting the group deletes its views', async () => {
      const fx = await groupWithMembers();
      const view = await created(fx.members.USER.client, fx.groupid, newView({ name: 'Pumps' }));
      await put(fx.members.ADMIN.client, fx.groupid, edit(view, { name: 'Pumps east' }));
      await del(fx.members.USER.client, `/api/group/${fx.groupid}/view`, { viewid: view.viewid });
      const log = await fx.members.ADMIN.client.get(`/api/group/${fx.groupid}/serverlog`);
      const lines = (log.body as { entries: { user: string; message: string }[] }).entries.slice(0, 3).reverse();
      expect(lines).toEqual([
        {
          user: fx.members.USER.email,
          message: `View created: Pumps (${view.viewid})`,
          id: expect.any(Number),
          ts: expect.any(Number),
        },
        {
          user: fx.members.ADMIN.email,
          message: `View saved: Pumps east (${view.viewid}), version 2`,
          id: expect.any(Number),
          ts: expect.any(Number),
        },
        {
          user: fx.members.USER.email,
          message: `View deleted: Pumps east (${view.viewid})`,
          id: expect.any(Number),
          ts: expect.any(Number),
        },
      ]);
      await created(fx.members.ADMIN.client, fx.groupid);
      expect(await rowsOf(fx.groupid)).toBe(2);
      expect((await del(fx.members.ADMIN.client, `/api/group/${fx.groupid}`)).status).toBe(200);
      expect(await rowsOf(fx.groupid)).toBe(0);
    });
  });
}

describeViews('pglite');

const pgUrl = await findPostgres();
if (pgUrl) describeViews('postgres');
