import type { DeviceNotes, DeviceSettingsPutBody, DeviceSettingsSaved } from '@portal/core';
import { api } from '@/lib/api';

/**
 * PUT /api/device/{id}/settings with {PORTAL_deviceNotes}: the fields sent replace the stored ones.
 * The images are not among them: they go through the notes-image calls. The answer carries the
 * server's message ('Asset notes saved.').
 */
export function updateDeviceNotes(deviceid: string, notes: DeviceNotes): Promise<DeviceSettingsSaved> {
  const body: DeviceSettingsPutBody = { PORTAL_deviceNotes: notes };
  return api.put<DeviceSettingsSaved>(`/device/${encodeURIComponent(deviceid)}/settings`, body, {
    area: 'device',
  });
}
