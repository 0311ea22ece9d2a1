import { useMutation } from '@tanstack/react-query';
import type { MfaDisabledResponse } from '@portal/core';
import { api } from '@/lib/api';

/** POST /api/account/mfa/disable: turns multi-factor authentication off (needs the password). */
export function disableMfa(password: string): Promise<MfaDisabledResponse> {
  return api.post<MfaDisabledResponse>('/account/mfa/disable', { password }, { area: 'user' });
}

export function useDisableMfa() {
  return useMutation({ mutationFn: disableMfa });
}
