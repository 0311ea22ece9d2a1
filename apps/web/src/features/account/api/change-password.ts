import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordBody, MessageResponse } from '@portal/core';
import { api } from '@/lib/api';

/** POST /api/account/password: changes the password; other sessions end. */
export function changePassword(body: ChangePasswordBody): Promise<MessageResponse> {
  return api.post<MessageResponse>('/account/password', body, { area: 'user' });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
