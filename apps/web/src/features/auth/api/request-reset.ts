import { useMutation } from '@tanstack/react-query';
import type { MessageResponse, ResetRequestBody } from '@portal/core';
import { api } from '@/lib/api';

/** POST /api/auth/reset: sends a password-reset link if the account exists. */
export function requestReset(body: ResetRequestBody): Promise<MessageResponse> {
  return api.post<MessageResponse>('/auth/reset', body, { area: 'user' });
}

export function useRequestReset() {
  return useMutation({ mutationFn: requestReset });
}
