import type { DeviceNotes, DeviceSettingsPutBody, DeviceSettingsResponse } from '@portal/core';
import { api } from '@/lib/api';

/**
 * PUT /api/device/{id}/settings with {PORTAL_deviceNotes}: the fields sent replace the stored ones.
 * The images are not among them: they go through the notes-image calls.
 */
export function updateDeviceNotes(deviceid: string, notes: DeviceNotes): Promise<DeviceSettingsResponse> {
  const body: DeviceSettingsPutBody = { PORTAL_deviceNotes: notes };
  return api.put<DeviceSettingsResponse>(`/device/${encodeURIComponent(deviceid)}/settings`, body, {
    area: 'device',
  });
}
