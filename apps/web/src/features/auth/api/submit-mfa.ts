import { useMutation } from '@tanstack/react-query';
import type { LoginResponse, MfaBody } from '@portal/core';
import { api } from '@/lib/api';

/** POST /api/auth/mfa: answers the multi-factor challenge of the current sign-in. */
export function submitMfa(body: MfaBody): Promise<LoginResponse> {
  return api.post<LoginResponse>('/auth/mfa', body, { area: 'user' });
}

export function useSubmitMfa() {
  return useMutation({ mutationFn: submitMfa });
}
