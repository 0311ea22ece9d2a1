import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ScriptLockResponse, ScriptResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** PUT /api/device/{id}/script-lock with {lock}: take (true) or release (false) the edit lock. */
export function putScriptLock(deviceid: string, lock: boolean): Promise<ScriptLockResponse> {
  return api.put<ScriptLockResponse>(
    `/device/${encodeURIComponent(deviceid)}/script-lock`,
    { lock },
    { area: 'device' },
  );
}

/** Takes or releases the lock; the answer's lock goes into the script's cache. */
export function useScriptLock(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (lock: boolean) => putScriptLock(deviceid, lock),
    onSuccess: (answer) =>
      queryClient.setQueryData<ScriptResponse>(
        queryKeys.device.script(deviceid),
        (old) => old && { ...old, lock: answer.lock },
      ),
    onError: () => void queryClient.invalidateQueries({ queryKey: queryKeys.device.script(deviceid) }),
  });
}
