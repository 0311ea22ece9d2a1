import type { QueryClient } from '@tanstack/react-query';

/** The query keys group settings reads and changes (the group queries of features/groups share them). */
export const GROUP_KEYS = {
  groups: ['groups'] as const,
  group: (groupid: string) => ['group', groupid] as const,
  data: (groupid: string) => ['group', groupid, 'data'] as const,
  permissions: (groupid: string) => ['group', groupid, 'permissions'] as const,
  serverLog: (groupid: string) => ['group', groupid, 'serverlog'] as const,
};

/**
 * After a change to a group: the user's groups, the group (its name, devices and level), its data
 * rows, members and log ('group', id is the prefix of every per-group key).
 */
export function invalidateGroup(queryClient: QueryClient, groupid: string): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: GROUP_KEYS.groups }),
    queryClient.invalidateQueries({ queryKey: GROUP_KEYS.group(groupid) }),
  ]).then(() => undefined);
}
