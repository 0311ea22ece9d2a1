import { useMutation } from '@tanstack/react-query';
import type { UserInfo } from '@portal/core';
import { api } from '@/lib/api';

/** POST /api/account/mfa/sms/enable: confirms the texted code; SMS becomes the second factor. */
export function enableSms(code: string): Promise<UserInfo> {
  return api.post<UserInfo>('/account/mfa/sms/enable', { code }, { area: 'user' });
}

export function useEnableSms() {
  return useMutation({ mutationFn: enableSms });
}
