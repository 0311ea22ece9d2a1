import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  DeviceRole,
  GroupUserDeleteBody,
  GroupUserDeleteResponse,
  GroupUserPostBody,
  GroupUserPutBody,
  GroupUserResult,
} from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';
import { invalidateGroup } from './invalidate-group';

const path = (groupid: string) => `/group/${encodeURIComponent(groupid)}/user`;

/** POST /api/group/{groupid}/user {targetEmail, targetPermission} (ADMIN): share, or invite an address without an account. */
export function addGroupUser(groupid: string, body: GroupUserPostBody): Promise<GroupUserResult> {
  return api.post<GroupUserResult>(path(groupid), body, { area: 'group' });
}

/** PUT /api/group/{groupid}/user {targetUserID | targetEmail, targetPermission} (ADMIN). */
export function updateGroupUser(groupid: string, body: GroupUserPutBody): Promise<GroupUserResult> {
  return api.put<GroupUserResult>(path(groupid), body, { area: 'group' });
}

/** DELETE /api/group/{groupid}/user {targetUserID | targetEmail}: resultCode REMOVED, REMOVED_SELF or INVITE_REMOVED. */
export function removeGroupUser(groupid: string, body: GroupUserDeleteBody): Promise<GroupUserDeleteResponse> {
  return api.delete<GroupUserDeleteResponse>(path(groupid), body, { area: 'group' });
}

/** Who a change is about: a member by user id, or a pending invitation by address. */
export type GroupUserTarget = { targetUserID: string } | { targetEmail: string };

export function useAddGroupUser(groupid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { targetEmail: string; targetPermission: DeviceRole }) => addGroupUser(groupid, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.group.permissions(groupid) }),
  });
}

export function useUpdateGroupUser(groupid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: GroupUserTarget & { targetPermission: DeviceRole }) => updateGroupUser(groupid, input),
    // One's own level may have changed: the group (myPermission) is read again too.
    onSuccess: () => invalidateGroup(queryClient, groupid),
  });
}

/** On REMOVED_SELF nothing is invalidated here: the page leaves and drops the group's queries. */
export function useRemoveGroupUser(groupid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: GroupUserTarget) => removeGroupUser(groupid, target),
    onSuccess: (answer) => {
      if (answer.resultCode !== 'REMOVED_SELF') void invalidateGroup(queryClient, groupid);
    },
  });
}
