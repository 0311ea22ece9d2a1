import { useMutation } from '@tanstack/react-query';
import type { UserInfo } from '@portal/core';
import { api } from '@/lib/api';

/** POST /api/account/mfa/disable: turns multi-factor authentication off (needs the password). */
export function disableMfa(password: string): Promise<UserInfo> {
  return api.post<UserInfo>('/account/mfa/disable', { password }, { area: 'user' });
}

export function useDisableMfa() {
  return useMutation({ mutationFn: disableMfa });
}
