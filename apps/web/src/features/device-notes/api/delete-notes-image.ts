import type { DeviceSettingsResponse, NotesImageSlot } from '@portal/core';
import { api } from '@/lib/api';

/** DELETE /api/device/{id}/notes-image/{slot}: removes the image; the notes entry becomes null. */
export function deleteNotesImage(deviceid: string, slot: NotesImageSlot): Promise<DeviceSettingsResponse> {
  return api.delete<DeviceSettingsResponse>(`/device/${encodeURIComponent(deviceid)}/notes-image/${slot}`, undefined, {
    area: 'device',
  });
}
