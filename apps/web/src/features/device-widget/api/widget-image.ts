import type { ImageType, WidgetImagePutBody, WidgetImageResponse } from '@portal/core';
import { api } from '@/lib/api';
import { readAsBase64 } from '@/lib/read-as-base64';

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
