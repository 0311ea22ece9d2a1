/** Errors a service throws on purpose; the error handler answers them as { message, code }. */
import type { ErrorCode } from '@portal/core';

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    /** Sent as the Retry-After header (seconds) when set. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const unauthenticated = (message = 'No current user') => new AppError(401, 'UNAUTHENTICATED', message);
export const forbidden = (message = 'You do not have permission to do this.') =>
  new AppError(403, 'FORBIDDEN', message);
export const conflict = (message: string) => new AppError(409, 'CONFLICT', message);
/** 429; `retryAfterSeconds`, when known, is sent as Retry-After. */
export const rateLimited = (retryAfterSeconds?: number) =>
  new AppError(429, 'RATE_LIMITED', RATE_LIMITED_MESSAGE, retryAfterSeconds);

/** 503: a service the call needs (the MQTT broker's accounts) did not answer; nothing changed. */
export const unavailable = (message: string) => new AppError(503, 'UNAVAILABLE', message);

export const RATE_LIMITED_MESSAGE = 'Too many attempts. Please wait a few minutes and try again.';
export const UNKNOWN_ERROR_MESSAGE = 'An unknown error occurred';
