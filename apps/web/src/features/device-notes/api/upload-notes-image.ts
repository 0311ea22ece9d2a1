import type { DeviceSettingsResponse, ImageType, NotesImagePutBody, NotesImageSlot } from '@portal/core';
import { api } from '@/lib/api';

/** The file's bytes as base64 (without the data: URL prefix). */
function readAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = typeof reader.result === 'string' ? reader.result : '';
      const comma = url.indexOf(',');
      if (comma < 0) reject(new Error('The image could not be read.'));
      else resolve(url.slice(comma + 1));
    };
    reader.onerror = () => reject(new Error('The image could not be read.'));
    reader.readAsDataURL(file);
  });
}

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
