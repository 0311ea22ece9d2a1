import type { MessageResponse } from '@portal/core';
import { api } from '@/lib/api';

/** POST /api/auth/logout: ends the session (always answers 200). */
export function logout(): Promise<MessageResponse> {
  return api.post<MessageResponse>('/auth/logout', undefined, { area: 'user' });
}
