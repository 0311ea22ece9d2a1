import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CommandView, ProvRunTestBody } from '@portal/core';
import { api } from '@/lib/api';
import { refreshProvLog } from './prov-log';

/** POST /api/prov-portal-run-test/{id} {method, fw, provLockOverrideCode} (API-57): the queued command. */
export function runProvTest(deviceid: string, body: ProvRunTestBody): Promise<CommandView> {
  return api.post<CommandView>(`/prov-portal-run-test/${encodeURIComponent(deviceid)}`, body, {
    area: 'provisioning',
  });
}

/** Runs a provisioning test; the log, which records the request, is read again. */
export function useRunProvTest(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProvRunTestBody) => runProvTest(deviceid, body),
    onSuccess: () => refreshProvLog(queryClient, deviceid),
  });
}
