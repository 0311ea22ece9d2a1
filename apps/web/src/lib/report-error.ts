import { api } from './api';

export interface ClientErrorReport {
  message: string;
  stack?: string | undefined;
  url?: string | undefined;
}

/** POST /api/client-errors: logs a rendering crash on the server. Never throws. */
export async function reportClientError(report: ClientErrorReport): Promise<void> {
  try {
    await api.post<void>('/client-errors', report, { area: 'user' });
  } catch {
    // reporting must never make a crash worse
  }
}
