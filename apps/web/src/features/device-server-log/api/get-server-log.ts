import { useInfiniteQuery } from '@tanstack/react-query';
import type { ServerLogResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export type { ServerLogResponse };
export type ServerLogEntry = ServerLogResponse['entries'][number];

/** Entries a page asks for. */
export const SERVER_LOG_PAGE = 50;

/** GET /api/device/{id}/serverlog: a page of entries newest first, of one kind or all, older than the entry `before`. */
export function getServerLog(
  deviceid: string,
  options: { kind: string | null; before: number | null },
  signal?: AbortSignal,
): Promise<ServerLogResponse> {
  const query = new URLSearchParams({ dataPoints: String(SERVER_LOG_PAGE) });
  if (options.kind) query.set('kind', options.kind);
  if (options.before !== null) query.set('before', String(options.before));
  return api.get<ServerLogResponse>(`/device/${encodeURIComponent(deviceid)}/serverlog?${query}`, {
    area: 'device',
    signal,
  });
}

/**
 * The device's server log, page by page (each page older than the last entry shown), of one kind
 * or all; the page shows a failure itself (a refusal's message is the answer: role or plan).
 */
export function useServerLog(deviceid: string, kind: string | null) {
  return useInfiniteQuery({
    queryKey: queryKeys.device.serverLog(deviceid, kind),
    queryFn: ({ pageParam, signal }) => getServerLog(deviceid, { kind, before: pageParam }, signal),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => (last.more ? (last.entries.at(-1)?.id ?? null) : null),
    staleTime: 0,
    meta: { silent: true },
  });
}
