import { z } from 'zod';

/** Every error body of the API: HTTP status + { message, code }; the component ErrorBody of the OpenAPI document. */
export const ErrorBodySchema = z
  .object({ message: z.string(), code: z.string() })
  .meta({ id: 'ErrorBody', description: 'An error: a sentence to show and a code from ERROR_CODES' });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Error codes the server sends. */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'RATE_LIMITED',
  'CSRF',
  'INVALID_CREDENTIALS',
  'EMAIL_NOT_VERIFIED',
  'MFA_REQUIRED',
  'MFA_INVALID',
  'MFA_CODE_USED',
  'MFA_NOT_ALLOWED',
  'CODE_INVALID',
  'UNAVAILABLE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
