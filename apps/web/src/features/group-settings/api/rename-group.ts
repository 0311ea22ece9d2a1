import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GroupBody, GroupResult } from '@portal/core';
import { api } from '@/lib/api';
import { invalidateGroup } from './invalidate-group';

/** PUT /api/group/{groupid} {groupName} (ADMIN). */
export function renameGroup(groupid: string, body: GroupBody): Promise<GroupResult> {
  return api.put<GroupResult>(`/group/${encodeURIComponent(groupid)}`, body, { area: 'group' });
}

export function useRenameGroup(groupid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (groupName: string) => renameGroup(groupid, { groupName }),
    onSuccess: () => invalidateGroup(queryClient, groupid),
  });
}
