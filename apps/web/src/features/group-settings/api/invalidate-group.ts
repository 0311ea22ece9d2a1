/** Invalidating a group after group settings change it. */
import type { QueryClient } from '@tanstack/react-query';
import * as queryKeys from '@/lib/query-keys';

/**
 * After a change to a group: the user's groups, the group (its name, devices and level), its data
 * rows, members and log ('group', id is the prefix of every per-group key).
 */
export function invalidateGroup(queryClient: QueryClient, groupid: string): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.groups.all }),
    queryClient.invalidateQueries({ queryKey: queryKeys.group.all(groupid) }),
  ]).then(() => undefined);
}
