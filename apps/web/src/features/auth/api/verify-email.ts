import type { MessageResponse } from '@portal/core';
import { api } from '@/lib/api';

/** POST /api/auth/verify/{code}: confirms the e-mail address of a new account. */
export function verifyEmail(code: string): Promise<MessageResponse> {
  return api.post<MessageResponse>(`/auth/verify/${encodeURIComponent(code)}`, undefined, { area: 'user' });
}
