import { useQuery } from '@tanstack/react-query';
import type { ScriptResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export type { ScriptResponse };

/** The Scripting page asks again this often (ms), so a lock taken or released elsewhere shows. */
export const SCRIPT_POLL_MS = 30_000;

/** GET /api/device/{id}/script: the script as base64 (the saved one while it waits), pending, and its lock. */
export function getScript(deviceid: string, signal?: AbortSignal): Promise<ScriptResponse> {
  return api.get<ScriptResponse>(`/device/${encodeURIComponent(deviceid)}/script`, { area: 'device', signal });
}

/** The device's script and lock, asked again every 30 s; the page shows a failure itself (no toast). */
export function useScript(deviceid: string) {
  return useQuery({
    queryKey: queryKeys.device.script(deviceid),
    queryFn: ({ signal }) => getScript(deviceid, signal),
    staleTime: SCRIPT_POLL_MS,
    refetchInterval: (query) => (query.state.status === 'error' ? false : SCRIPT_POLL_MS),
    retryOnMount: false,
    meta: { silent: true },
  });
}
