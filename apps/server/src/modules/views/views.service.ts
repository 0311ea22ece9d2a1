/**
 * Group dashboard views (spec 1 sections 3-5 and 7, DESIGN.md section 5): the views of a group,
 * saved and deleted by ADMIN and USER members (groupCan 'editViews'), read by every member.
 *
 * A group without views shows core's default view (view1, version 0). The first save in such a
 * group stores the default view as it is shown (version 0) before anything else, so creating a
 * second view keeps the first tab, and saving view1 itself stores it. A save names the version it
 * was made on; the group row is locked for the transaction, so a save on an older version is
 * refused with 409 and nothing changes (two editors never erase each other's widgets silently).
 * Every change writes a line naming who made it to the group's server log.
 */
import { randomInt } from 'node:crypto';
import {
  DEFAULT_VIEW,
  DEFAULT_VIEW_ID,
  ID_ALPHABET,
  VIEW_MESSAGES,
  VIEWS_PER_GROUP_MAX,
  newViewId,
  tableWidgetChangeError,
  viewNameOrDefault,
  viewsOrDefault,
  widgetLimitMessage,
  type View,
  type ViewDeleteResponse,
  type ViewInput,
  type ViewListResponse,
  type ViewSaveResponse,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { AppError, conflict } from '../../errors';
import type { User } from '../auth/auth.service';
import type { GroupsService } from '../groups/groups.service';
import * as repo from './views.repository';

export interface ViewsService {
  /** The group's views by sortOrder, or the default view when it has none (any member). */
  list(user: User, groupid: string): Promise<ViewListResponse>;
  /**
   * Creates a view (no viewid: 'v-' + 8 characters) or saves one over the version it was made
   * on (409 when that version is no longer current; 404 'View not found' for an unknown id).
   */
  save(user: User, groupid: string, input: ViewInput): Promise<ViewSaveResponse>;
  /**
   * Deletes a view (404 'View not found' for an unknown id). With none left the group shows the
   * default view again; deleting that default view while it is all the group has changes nothing.
   */
  remove(user: User, groupid: string, viewid: string): Promise<ViewDeleteResponse>;
}

export interface ViewsDeps {
  db: Db;
  clock: Clock;
  groups: Pick<GroupsService, 'requireMember' | 'logChange'>;
}

const viewNotFound = () => new AppError(404, 'NOT_FOUND', VIEW_MESSAGES.notFound);
const badRequest = (message: string) => new AppError(400, 'BAD_REQUEST', message);
const stale = () => conflict(VIEW_MESSAGES.stale);

const randomChars = (n: number) => Array.from({ length: n }, () => ID_ALPHABET[randomInt(ID_ALPHABET.length)]).join('');

function viewOf(row: repo.ViewRow): View {
  const { name, timeRange, widgets } = row.document;
  return { viewid: row.viewid, name, sortOrder: row.sort_order, timeRange, widgets, version: row.version };
}

function documentOf(view: Pick<View, 'name' | 'timeRange' | 'widgets'>): repo.ViewDocument {
  return { name: view.name, timeRange: view.timeRange, widgets: view.widgets };
}

export function createViewsService(deps: ViewsDeps): ViewsService {
  const { db, clock, groups } = deps;

  /** Stores the default view as a group without views shows it (version 0). */
  const storeDefault = (tx: Db, groupid: string, now: Date) =>
    repo.insertView(
      tx,
      groupid,
      {
        viewid: DEFAULT_VIEW.viewid,
        sortOrder: DEFAULT_VIEW.sortOrder,
        document: documentOf(DEFAULT_VIEW),
        version: 0,
      },
      now,
    );

  return {
    /** The group's views by sortOrder, or the default view when it has none (any member). */
    async list(user: User, groupid: string): Promise<ViewListResponse> {
      await groups.requireMember(db, user.id, groupid, null);
      const rows = await repo.listViews(db, groupid);
      return { groupid, views: viewsOrDefault(rows.map(viewOf)) };
    },

    /**
     * Creates a view (no viewid: 'v-' + 8 characters) or saves one over the version it was made
     * on (409 when that version is no longer current; 404 'View not found' for an unknown id).
     */
    async save(user: User, groupid: string, input: ViewInput): Promise<ViewSaveResponse> {
      return db.transaction(async (tx) => {
        await groups.requireMember(tx, user.id, groupid, 'editViews', true);
        const stored = (await repo.listViews(tx, groupid)).map(viewOf);
        const shown = viewsOrDefault(stored);
        const now = clock.now();
        const widgets: View['widgets'] = input.widgets;

        if (input.viewid === undefined) {
          if (stored.length >= VIEWS_PER_GROUP_MAX) throw badRequest(widgetLimitMessage('view', VIEWS_PER_GROUP_MAX));
          const name = viewNameOrDefault(input.name ?? '', shown.length);
          if (stored.length === 0) await storeDefault(tx, groupid, now);
          const document = { name, timeRange: input.timeRange, widgets };
          let viewid = newViewId(randomChars);
          while (
            !(await repo.insertView(tx, groupid, { viewid, sortOrder: input.sortOrder, document, version: 1 }, now))
          )
            viewid = newViewId(randomChars);
          await groups.logChange(tx, groupid, user, `View created: ${name} (${viewid})`);
          return {
            message: VIEW_MESSAGES.created,
            groupid,
            view: { viewid, sortOrder: input.sortOrder, ...document, version: 1 },
          };
        }

        const viewid = input.viewid;
        const current = shown.find((v) => v.viewid === viewid);
        if (!current) throw viewNotFound();
        if (input.version !== current.version) throw stale();
        const tableError = tableWidgetChangeError(current, { widgets });
        if (tableError) throw badRequest(tableError);
        const name = viewNameOrDefault(input.name ?? '', shown.length - 1);
        const document = { name, timeRange: input.timeRange, widgets };
        // The default view, shown but not stored yet: stored first, then saved over like any other.
        if (stored.length === 0) await storeDefault(tx, groupid, now);
        const version = await repo.updateView(
          tx,
          groupid,
          { viewid, sortOrder: input.sortOrder, document, expectedVersion: current.version },
          now,
        );
        if (version === null) throw stale();
        await groups.logChange(tx, groupid, user, `View saved: ${name} (${viewid}), version ${version}`);
        return {
          message: VIEW_MESSAGES.saved,
          groupid,
          view: { viewid, sortOrder: input.sortOrder, ...document, version },
        };
      });
    },

    /**
     * Deletes a view (404 'View not found' for an unknown id). With none left the group shows the
     * default view again; deleting that default view while it is all the group has changes nothing.
     */
    async remove(user: User, groupid: string, viewid: string): Promise<ViewDeleteResponse> {
      return db.transaction(async (tx) => {
        await groups.requireMember(tx, user.id, groupid, 'editViews', true);
        const row = await repo.findView(tx, groupid, viewid);
        if (!row) {
          if (viewid === DEFAULT_VIEW_ID && (await repo.countViews(tx, groupid)) === 0)
            return { message: VIEW_MESSAGES.deleted, groupid, viewid };
          throw viewNotFound();
        }
        await repo.deleteView(tx, groupid, viewid);
        await groups.logChange(tx, groupid, user, `View deleted: ${row.document.name} (${viewid})`);
        return { message: VIEW_MESSAGES.deleted, groupid, viewid };
      });
    },
  };
}
