/** Groups of a user (GET /api/groups). Creating and sharing groups arrive with the groups issue. */
import type { Db } from '../../db/db';
import type { GroupSummary } from '@portal/core';
import { groupsOfUser } from './groups.repository';

export function createGroupsService(deps: { db: Db }) {
  return {
    async listForUser(userId: string): Promise<GroupSummary[]> {
      const rows = await groupsOfUser(deps.db, userId);
      return rows.map((row) => ({ groupid: row.groupid, groupName: row.group_name }));
    },
  };
}

export type GroupsService = ReturnType<typeof createGroupsService>;
