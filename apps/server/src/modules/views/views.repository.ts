/** SQL of group views: one row per view, its document (name, timeRange, widgets), order and version. */
import type { TimeRange, Widget } from '@portal/core';
import type { Db } from '../../db/db';

/** What a view row keeps as JSON. */
export interface ViewDocument {
  name: string;
  timeRange: TimeRange;
  widgets: Record<string, Widget>;
}

export interface ViewRow {
  viewid: string;
  sort_order: number;
  document: ViewDocument;
  version: number;
}

const COLUMNS = 'viewid, sort_order, document, version';

/** The group's views by display order, then creation, then id. */
export function listViews(db: Db, groupid: string): Promise<ViewRow[]> {
  return db.query(`SELECT ${COLUMNS} FROM group_views WHERE groupid = $1 ORDER BY sort_order, created_at, viewid`, [
    groupid,
  ]);
}

export async function findView(db: Db, groupid: string, viewid: string): Promise<ViewRow | null> {
  const rows = await db.query<ViewRow>(`SELECT ${COLUMNS} FROM group_views WHERE groupid = $1 AND viewid = $2`, [
    groupid,
    viewid,
  ]);
  return rows[0] ?? null;
}

export async function countViews(db: Db, groupid: string): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM group_views WHERE groupid = $1', [
    groupid,
  ]);
  return row?.n ?? 0;
}

/** Inserts a view; false when the group already has one with this id. */
export async function insertView(
  db: Db,
  groupid: string,
  view: { viewid: string; sortOrder: number; document: ViewDocument; version: number },
  now: Date,
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO group_views (groupid, viewid, sort_order, document, version, created_at, updated_at)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $6) ON CONFLICT DO NOTHING RETURNING viewid`,
    [groupid, view.viewid, view.sortOrder, JSON.stringify(view.document), view.version, now],
  );
  return rows.length === 1;
}

/** Saves a view over the version the caller read; the new version, or null when that version is no longer current. */
export async function updateView(
  db: Db,
  groupid: string,
  view: { viewid: string; sortOrder: number; document: ViewDocument; expectedVersion: number },
  now: Date,
): Promise<number | null> {
  const rows = await db.query<{ version: number }>(
    `UPDATE group_views SET sort_order = $3, document = $4::jsonb, version = version + 1, updated_at = $6
     WHERE groupid = $1 AND viewid = $2 AND version = $5 RETURNING version`,
    [groupid, view.viewid, view.sortOrder, JSON.stringify(view.document), view.expectedVersion, now],
  );
  return rows[0]?.version ?? null;
}

export async function deleteView(db: Db, groupid: string, viewid: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM group_views WHERE groupid = $1 AND viewid = $2 RETURNING viewid', [
    groupid,
    viewid,
  ]);
  return rows.length === 1;
}
