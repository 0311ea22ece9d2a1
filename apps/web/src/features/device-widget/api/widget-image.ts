import type { ImageType, WidgetImagePutBody, WidgetImageResponse } from '@portal/core';
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

const imagePath = (deviceid: string, key: string) =>
  `/device/${encodeURIComponent(deviceid)}/widget-image/${encodeURIComponent(key)}`;

/**
 * PUT /api/device/{id}/widget-image/{widget{n}}: uploads a png or jpeg (already checked by
 * imageError); the server checks its bytes and size again and answers its address.
 */
export async function uploadWidgetImage(deviceid: string, key: string, file: File): Promise<WidgetImageResponse> {
  const body: WidgetImagePutBody = { contentType: file.type as ImageType, dataBase64: await readAsBase64(file) };
  return api.put<WidgetImageResponse>(imagePath(deviceid, key), body, { area: 'device' });
}

/** DELETE /api/device/{id}/widget-image/{widget{n}}: removes the stored image. */
export function deleteWidgetImage(deviceid: string, key: string): Promise<WidgetImageResponse> {
  return api.delete<WidgetImageResponse>(imagePath(deviceid, key), undefined, { area: 'device' });
}
