import type { DeviceSettingsResponse, ImageType, NotesImagePutBody, NotesImageSlot } from '@portal/core';
import { api } from '@/lib/api';
import { readAsBase64 } from '@/lib/read-as-base64';

/**
 * PUT /api/device/{id}/notes-image/{slot}: uploads a png or jpeg (already checked by imageError);
 * the server checks its bytes and size again and points the notes at it.
 */
export async function uploadNotesImage(
  deviceid: string,
  slot: NotesImageSlot,
  file: File,
): Promise<DeviceSettingsResponse> {
  const body: NotesImagePutBody = { contentType: file.type as ImageType, dataBase64: await readAsBase64(file) };
  return api.put<DeviceSettingsResponse>(`/device/${encodeURIComponent(deviceid)}/notes-image/${slot}`, body, {
    area: 'device',
  });
}
