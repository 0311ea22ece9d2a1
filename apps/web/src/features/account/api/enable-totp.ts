import { useMutation } from '@tanstack/react-query';
import type { UserInfo } from '@portal/core';
import { api } from '@/lib/api';

/** POST /api/account/mfa/totp/enable: confirms the pending secret with a code from the app. */
export function enableTotp(code: string): Promise<UserInfo> {
  return api.post<UserInfo>('/account/mfa/totp/enable', { code }, { area: 'user' });
}

export function useEnableTotp() {
  return useMutation({ mutationFn: enableTotp });
}
