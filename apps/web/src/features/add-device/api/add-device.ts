import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeviceSettingsResponse, DeviceUserPostBody, DeviceUserResult } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export interface AddDeviceInput {
  deviceid: string;
  /** Omitted when the device allows adding without a password. */
  setupPassword?: string;
  /** The group the device is added into, when one is chosen. */
  groupid?: string;
}

export interface AddedDevice extends DeviceUserResult {
  /** The device's display name (its id when the name could not be read). */
  name: string;
  /** The group the server put the device into (only when adding it made the caller its ADMIN). */
  groupid?: string;
  /** The group asked for, when the server did not put the device into it. */
  notPlacedIn?: string;
}

/**
 * POST /api/device/{id}/user with {setupPassword, groupid}: adds the device to the signed-in
 * user ({} without the password works once while add-without-password is active).
 */
export function addDevice({ deviceid, setupPassword, groupid }: AddDeviceInput): Promise<DeviceUserResult> {
  const body: DeviceUserPostBody = {
    ...(setupPassword !== undefined ? { setupPassword } : {}),
    ...(groupid ? { groupid } : {}),
  };
  return api.post<DeviceUserResult>(`/device/${encodeURIComponent(deviceid)}/user`, body, { area: 'device' });
}

/** The device's display name for the recent list; its id when the settings cannot be read. */
async function deviceName(deviceid: string): Promise<string> {
  try {
    const answer = await api.get<DeviceSettingsResponse>(`/device/${encodeURIComponent(deviceid)}/settings`, {
      area: 'device',
    });
    return answer.deviceSettings.PORTAL_deviceName || deviceid;
  } catch {
    return deviceid;
  }
}

/**
 * Adds the device, then reads its name (for the recent list). The group is the server's answer:
 * it puts the device into the group only when the claim makes the caller its ADMIN (DESIGN.md
 * section 5), so a group asked for and not granted is reported as notPlacedIn.
 */
export function useAddDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: AddDeviceInput): Promise<AddedDevice> => {
      const result = await addDevice(input);
      const name = await deviceName(result.deviceid);
      const notPlaced = input.groupid && result.groupid !== input.groupid ? { notPlacedIn: input.groupid } : {};
      return { ...result, name, ...notPlaced };
    },
    onSuccess: (added) => {
      // The user's groups (their device counts) and, under the same key, home's list of devices not in a group.
      void queryClient.invalidateQueries({ queryKey: queryKeys.groups.all });
      if (added.groupid) void queryClient.invalidateQueries({ queryKey: queryKeys.group.all(added.groupid) });
    },
  });
}
