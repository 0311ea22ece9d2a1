import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ScriptResponse } from '@portal/core';
import { api } from '@/lib/api';
import * as queryKeys from '@/lib/query-keys';

/** PUT /api/device/{id}/script with {scriptFileBase64}: saved for the device's next contact (pending). */
export function putScript(deviceid: string, scriptFileBase64: string): Promise<ScriptResponse> {
  return api.put<ScriptResponse>(
    `/device/${encodeURIComponent(deviceid)}/script`,
    { scriptFileBase64 },
    { area: 'device' },
  );
}

/** Saves the script (base64) and puts the answer in the script's cache. */
export function useSaveScript(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (scriptFileBase64: string) => putScript(deviceid, scriptFileBase64),
    onSuccess: (answer) => queryClient.setQueryData(queryKeys.device.script(deviceid), answer),
    // A refusal (409: locked by someone else) may mean the lock changed: ask again.
    onError: () => void queryClient.invalidateQueries({ queryKey: queryKeys.device.script(deviceid) }),
  });
}
