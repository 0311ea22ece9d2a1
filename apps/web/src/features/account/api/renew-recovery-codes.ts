import { useMutation } from '@tanstack/react-query';
import type { RecoveryCodesResponse } from '@portal/core';
import { api } from '@/lib/api';

/** POST /api/account/mfa/recovery-codes: a new set of recovery codes (needs the password). */
export function renewRecoveryCodes(password: string): Promise<RecoveryCodesResponse> {
  return api.post<RecoveryCodesResponse>('/account/mfa/recovery-codes', { password }, { area: 'user' });
}

export function useRenewRecoveryCodes() {
  return useMutation({ mutationFn: renewRecoveryCodes });
}
