import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ScriptLockResponse, ScriptResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** PUT /api/device/{id}/force-script-unlock: an ADMIN releases another user's lock. */
export function forceScriptUnlock(deviceid: string): Promise<ScriptLockResponse> {
  return api.put<ScriptLockResponse>(`/device/${encodeURIComponent(deviceid)}/force-script-unlock`, undefined, {
    area: 'device',
  });
}

/** Forces the lock open; the answer (no lock) goes into the script's cache. */
export function useForceScriptUnlock(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => forceScriptUnlock(deviceid),
    onSuccess: (answer) =>
      queryClient.setQueryData<ScriptResponse>(
        queryKeys.device.script(deviceid),
        (old) => old && { ...old, lock: answer.lock },
      ),
    onError: () => void queryClient.invalidateQueries({ queryKey: queryKeys.device.script(deviceid) }),
  });
}
