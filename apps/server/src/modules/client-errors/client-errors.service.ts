/** Rendering crashes reported by the web app when no error-reporting DSN is configured. */
import type { FastifyBaseLogger } from 'fastify';
import type { ClientErrorBody } from '@portal/core';

export interface ClientErrorsService {
  /** Logs a crash the web app reported, with the signed-in user's id when there is one. */
  report(log: FastifyBaseLogger, body: ClientErrorBody, userId: string | null): void;
}

export function createClientErrorsService(): ClientErrorsService {
  return {
    report(log: FastifyBaseLogger, body: ClientErrorBody, userId: string | null): void {
      log.error(
        { clientError: { message: body.message, stack: body.stack, url: body.url, userId } },
        `Client error: ${body.message}`,
      );
    },
  };
}
