import { useMutation } from '@tanstack/react-query';
import type { MfaEnabledResponse } from '@portal/core';
import { api } from '@/lib/api';

/** POST /api/account/mfa/totp/enable: confirms the pending secret with a code from the app; answers the recovery codes. */
export function enableTotp(code: string): Promise<MfaEnabledResponse> {
  return api.post<MfaEnabledResponse>('/account/mfa/totp/enable', { code }, { area: 'user' });
}

export function useEnableTotp() {
  return useMutation({ mutationFn: enableTotp });
}
