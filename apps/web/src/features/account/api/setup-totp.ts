import { useMutation } from '@tanstack/react-query';
import type { TotpSetupResponse } from '@portal/core';
import { api } from '@/lib/api';

/** POST /api/account/mfa/totp/setup: a new pending authenticator-app secret. */
export function setupTotp(): Promise<TotpSetupResponse> {
  return api.post<TotpSetupResponse>('/account/mfa/totp/setup', undefined, { area: 'user' });
}

export function useSetupTotp() {
  return useMutation({ mutationFn: setupTotp });
}
