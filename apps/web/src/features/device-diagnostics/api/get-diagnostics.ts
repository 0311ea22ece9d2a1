import { queryOptions, useQuery } from '@tanstack/react-query';
import { DIAGNOSTICS_POINTS, STALE_TIMES_MS, type DiagnosticsResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export type { DiagnosticsResponse };

/** GET /api/device/{id}/diagnostics: the newest messages, the J1939 active faults and the groups heard. */
export function getDiagnostics(
  deviceid: string,
  dataPoints: number,
  signal?: AbortSignal,
): Promise<DiagnosticsResponse> {
  return api.get<DiagnosticsResponse>(`/device/${encodeURIComponent(deviceid)}/diagnostics?dataPoints=${dataPoints}`, {
    area: 'device',
    signal,
  });
}

/** The device page's diagnostics (600 messages, spec 2 section 7), fresh for 5 minutes; the page shows a failure itself. */
export function useDiagnostics(deviceid: string) {
  const dataPoints = DIAGNOSTICS_POINTS.devicePage;
  return useQuery(
    queryOptions({
      queryKey: queryKeys.device.diagnostics(deviceid, dataPoints),
      queryFn: ({ signal }) => getDiagnostics(deviceid, dataPoints, signal),
      staleTime: STALE_TIMES_MS.diagnostics,
    }),
  );
}
