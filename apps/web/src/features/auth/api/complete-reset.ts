import { useMutation } from '@tanstack/react-query';
import type { MessageResponse, ResetCompleteBody } from '@portal/core';
import { api } from '@/lib/api';

export interface CompleteResetVariables {
  code: string;
  body: ResetCompleteBody;
}

/** POST /api/auth/reset/{code}: sets the new password with a reset link's code. */
export function completeReset({ code, body }: CompleteResetVariables): Promise<MessageResponse> {
  return api.post<MessageResponse>(`/auth/reset/${encodeURIComponent(code)}`, body, { area: 'user' });
}

export function useCompleteReset() {
  return useMutation({ mutationFn: completeReset });
}
