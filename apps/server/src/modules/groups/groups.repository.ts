import type { Db } from '../../db/db';

export function groupsOfUser(db: Db, userId: string): Promise<{ groupid: string; group_name: string }[]> {
  return db.query(
    `SELECT g.groupid, g.group_name FROM group_members m JOIN groups g ON g.groupid = m.groupid
     WHERE m.user_id = $1 ORDER BY lower(g.group_name), g.groupid`,
    [userId],
  );
}
