import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GroupBody, GroupResult } from '@portal/core';
import { api } from '@/lib/api';
import { groupsQueryOptions } from './get-groups';

export type { GroupResult };

/** POST /api/group {groupName}: creates a group with the caller as its ADMIN; answers its groupid. */
export function createGroup(body: GroupBody): Promise<GroupResult> {
  return api.post<GroupResult>('/group', body, { area: 'group' });
}

/** Creates a group; the user's group list is loaded again afterwards. */
export function useCreateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupsQueryOptions().queryKey }),
  });
}
