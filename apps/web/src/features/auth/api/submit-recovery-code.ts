import { useMutation } from '@tanstack/react-query';
import type { LoginResponse, MfaRecoveryBody } from '@portal/core';
import { api } from '@/lib/api';

/** POST /api/auth/mfa/recovery: answers the multi-factor challenge with a one-time recovery code. */
export function submitRecoveryCode(body: MfaRecoveryBody): Promise<LoginResponse> {
  return api.post<LoginResponse>('/auth/mfa/recovery', body, { area: 'user' });
}

export function useSubmitRecoveryCode() {
  return useMutation({ mutationFn: submitRecoveryCode });
}
