import { queryOptions, useQuery } from '@tanstack/react-query';
import { STALE_TIMES_MS, type RpcListResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

export type { RpcListResponse };
export type DeviceCommand = RpcListResponse['commands'][number];

/** Commands the panel asks for (the newest; the server's default is 100). */
export const COMMANDS_SHOWN = 50;

/** States a command can still leave: while one is listed, the panel reads the queue again when it goes stale. */
const OPEN_STATES: ReadonlySet<string> = new Set(['queued', 'sent']);

/** GET /api/device/{id}/rpc?dataPoints= (API-40): the device's commands with their states, newest first. */
export function getDeviceCommands(deviceid: string, signal?: AbortSignal): Promise<RpcListResponse> {
  return api.get<RpcListResponse>(`/device/${encodeURIComponent(deviceid)}/rpc?dataPoints=${COMMANDS_SHOWN}`, {
    area: 'device',
    signal,
  });
}

/**
 * The command queue, fresh for 15 s (spec 2 section 7; TRG-08): not asked again within that, and
 * asked again once stale while a command is still queued or sent, so its delivery shows.
 */
export function deviceCommandsQueryOptions(deviceid: string) {
  return queryOptions({
    queryKey: queryKeys.device.rpc(deviceid),
    queryFn: ({ signal }) => getDeviceCommands(deviceid, signal),
    staleTime: STALE_TIMES_MS.rpcQueue,
    refetchInterval: (query) =>
      query.state.data?.commands.some((c) => OPEN_STATES.has(c.state)) ? STALE_TIMES_MS.rpcQueue : false,
    // The panel shows a failure in place.
    meta: { silent: true },
  });
}

export function useDeviceCommands(deviceid: string) {
  return useQuery(deviceCommandsQueryOptions(deviceid));
}
