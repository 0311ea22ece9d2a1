import type { ExportConfig } from '@portal/core';
import { api } from '@/lib/api';

/** GET /api/device/{id}/export?format=config: the applied config as the file POST /import takes back. */
export function exportConfig(deviceid: string): Promise<ExportConfig> {
  return api.get<ExportConfig>(`/device/${encodeURIComponent(deviceid)}/export?format=config`, { area: 'device' });
}
