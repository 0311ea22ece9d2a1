import { NETWORK_ERROR, type CommandView, type DeviceFilePutBody } from '@portal/core';
import { API_BASES, ApiError } from '@/lib/api';

/** The fraction of the body sent so far (0 to 1). */
export type UploadProgress = (fraction: number) => void;

function errorOf(xhr: XMLHttpRequest): ApiError {
  let message = '';
  let code = `HTTP_${xhr.status}`;
  try {
    const body = JSON.parse(xhr.responseText) as { message?: unknown; code?: unknown };
    if (typeof body.message === 'string') message = body.message;
    if (typeof body.code === 'string') code = body.code;
  } catch {
    // Not JSON: the status alone says what failed.
  }
  return new ApiError(xhr.status, code, message);
}

/**
 * PUT /api/device/{id}/file {fileName, fileDataBase64} (ADMIN): stores the file and queues
 * 'Admin.File'. XMLHttpRequest rather than the fetch client, for the upload's progress; the
 * headers are the fetch client's (JSON, and X-Requested-With against cross-site requests).
 */
export function uploadDeviceFile(
  deviceid: string,
  body: DeviceFilePutBody,
  onProgress: UploadProgress,
  signal?: AbortSignal,
): Promise<CommandView> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', `${API_BASES.device}/device/${encodeURIComponent(deviceid)}/file`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Content-Type', 'application/json');
    xhr.setRequestHeader('X-Requested-With', 'portal');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as CommandView);
        } catch {
          reject(new ApiError(xhr.status, 'BAD_RESPONSE', NETWORK_ERROR));
        }
      } else reject(errorOf(xhr));
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK', NETWORK_ERROR));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(JSON.stringify(body));
  });
}
