import type { SessionResponse } from '@portal/core';
import { api } from '../api';

/** GET /api/auth/session: the current session (never 401). */
export function getSession(): Promise<SessionResponse> {
  return api.get<SessionResponse>('/auth/session', { area: 'user' });
}
