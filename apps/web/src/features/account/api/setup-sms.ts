import { useMutation } from '@tanstack/react-query';
import type { MessageResponse } from '@portal/core';
import { api } from '@/lib/api';

/** POST /api/account/mfa/sms/setup: texts a code to the phone number. */
export function setupSms(phone: string): Promise<MessageResponse> {
  return api.post<MessageResponse>('/account/mfa/sms/setup', { phone }, { area: 'user' });
}

export function useSetupSms() {
  return useMutation({ mutationFn: setupSms });
}
