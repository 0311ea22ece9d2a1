import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GroupDevicesDeleteBody, GroupDevicesPutBody, GroupDevicesResult } from '@portal/core';
import { api } from '@/lib/api';
import { invalidateGroup } from './invalidate-group';

const path = (groupid: string) => `/group/${encodeURIComponent(groupid)}/devices`;

/** PUT /api/group/{groupid}/devices {deviceList, targetGroupid, action: move | copy}. */
export function moveGroupDevices(groupid: string, body: GroupDevicesPutBody): Promise<GroupDevicesResult> {
  return api.put<GroupDevicesResult>(path(groupid), body, { area: 'group' });
}

/** DELETE /api/group/{groupid}/devices {deviceList}: out of the group; the devices stay. */
export function removeGroupDevices(groupid: string, body: GroupDevicesDeleteBody): Promise<GroupDevicesResult> {
  return api.delete<GroupDevicesResult>(path(groupid), body, { area: 'group' });
}

export function useMoveGroupDevices(groupid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: GroupDevicesPutBody) => moveGroupDevices(groupid, body),
    onSuccess: (_answer, body) =>
      Promise.all([invalidateGroup(queryClient, groupid), invalidateGroup(queryClient, body.targetGroupid)]),
  });
}

export function useRemoveGroupDevices(groupid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deviceList: string[]) => removeGroupDevices(groupid, { deviceList }),
    onSuccess: () => invalidateGroup(queryClient, groupid),
  });
}
