import { useMutation } from '@tanstack/react-query';
import type { GroupResult } from '@portal/core';
import { api } from '@/lib/api';

/** DELETE /api/group/{groupid} (ADMIN): the group, its members, views and log go; its devices stay. */
export function deleteGroup(groupid: string): Promise<GroupResult> {
  return api.delete<GroupResult>(`/group/${encodeURIComponent(groupid)}`, undefined, { area: 'group' });
}

/** The caller leaves the page on success (the group's queries are dropped there, not refetched into a 404). */
export function useDeleteGroup(groupid: string) {
  return useMutation({ mutationFn: () => deleteGroup(groupid) });
}
