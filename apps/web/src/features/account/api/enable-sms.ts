import { useMutation } from '@tanstack/react-query';
import type { MfaEnabledResponse } from '@portal/core';
import { api } from '@/lib/api';

/** POST /api/account/mfa/sms/enable: confirms the texted code; SMS becomes the second factor; answers the recovery codes. */
export function enableSms(code: string): Promise<MfaEnabledResponse> {
  return api.post<MfaEnabledResponse>('/account/mfa/sms/enable', { code }, { area: 'user' });
}

export function useEnableSms() {
  return useMutation({ mutationFn: enableSms });
}
