import type { ImportResult } from '@portal/core';
import { api } from '@/lib/api';

/** POST /api/device/{id}/import with {records}: at most MAX_IMPORT_RECORDS; editDeviceSettings (the server decides). */
export function importRawData(deviceid: string, records: unknown[], signal?: AbortSignal): Promise<ImportResult> {
  return api.post<ImportResult>(
    `/device/${encodeURIComponent(deviceid)}/import`,
    { records },
    { area: 'device', signal },
  );
}
