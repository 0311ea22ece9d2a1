/**
 * Every error leaves as HTTP status + { message, code }: validation failures name the field,
 * unknown /api routes are 404, and anything unexpected is a logged 500 without details.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ErrorBodySchema, type ErrorCode } from '@portal/core';
import { isStatementTimeout } from '../db/db';
import { AppError, UNKNOWN_ERROR_MESSAGE } from '../errors';

/** The answer to a request whose query ran past the statement timeout (DB_STATEMENT_TIMEOUT_MS). */
export const STATEMENT_TIMEOUT_MESSAGE =
  'The database took too long to answer. Try again, or ask for less (a shorter range).';

type Issue = { instancePath?: string; message?: string; keyword?: string };

/** The router's limit on a path parameter (app.ts, routerOptions.maxParamLength); longer is 414. */
export const MAX_PARAM_LENGTH = 500;
export const ADDRESS_TOO_LONG_MESSAGE = 'The address is too long.';

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  429: 'RATE_LIMITED',
};

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (message names the field)',
  401: 'Not signed in, or wrong credentials',
  403: 'Not allowed (CSRF header missing, brand or group refuses)',
  404: 'Not found',
  409: 'Conflict',
  413: 'Request body too large',
  414: `The address is too long (a path parameter over ${MAX_PARAM_LENGTH} characters)`,
  415: 'Unsupported content type (send application/json)',
  429: 'Too many attempts',
  502: 'The mail server did not take the message',
  503: 'Unavailable: the MQTT broker did not take the change, or the database took too long to answer; nothing was changed',
};

/** An error answer of a route's `schema.response`: { message, code } as JSON, with its description (OpenAPI). */
export type ErrorResponse = {
  description: string;
  content: { 'application/json': { schema: typeof ErrorBodySchema } };
};

/** Response schemas of the listed error statuses, for a route's `schema.response` (OpenAPI). */
export function errorResponses(...statuses: number[]): Record<number, ErrorResponse> {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: ERROR_DESCRIPTIONS[status] ?? 'Error',
        content: { 'application/json': { schema: ErrorBodySchema } },
      },
    ]),
  );
}

/** One readable sentence for a failed validation: the first issue, prefixed by its field. */
export function describeValidation(issues: Issue[], context: string | undefined): string {
  const issue = issues[0] ?? {};
  const field = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  let message = issue.message ?? 'Invalid value';
  if (!field && /expected object, received (undefined|null)/.test(message)) {
    return context === 'body' ? 'A JSON request body is required' : message;
  }
  if (/expected object, received/.test(message) && !field) return 'The request body must be a JSON object';
  if (/received undefined$/.test(message)) message = 'Required';
  if (!field) return message;
  // A message that names its field already ('to must be ...', core's bounded numbers) names it in full.
  const name = field.slice(field.lastIndexOf('.') + 1);
  return message.startsWith(`${name} `) ? `${field}${message.slice(name.length)}` : `${field}: ${message}`;
}

function send(reply: FastifyReply, statusCode: number, code: ErrorCode, message: string): FastifyReply {
  return reply.code(statusCode).type('application/json; charset=utf-8').send({ message, code });
}

/** An answer for requests no route matched outside /api (the web app's history fallback). */
export type NotFoundFallback = (request: FastifyRequest, reply: FastifyReply) => unknown;

/**
 * Whether `path` reaches a route of `method` that has path parameters, once each segment over
 * MAX_PARAM_LENGTH is cut short: a path parameter over the limit. The router answers those 414
 * itself, unless a wildcard route (the web app's files, GET and HEAD) took the request instead,
 * which then comes here as not found.
 */
function hasOverlongParameter(app: FastifyInstance, method: string, path: string): boolean {
  const segments = path.split('/');
  const overlong = (segment: string) => decodedLength(segment) > MAX_PARAM_LENGTH;
  if (!segments.some(overlong)) return false;
  const url = segments.map((segment) => (overlong(segment) ? '_' : segment)).join('/');
  // null when no route matches (the type says otherwise).
  const found: { params: Record<string, unknown> } | null = app.findRoute({ method: method as HTTPMethods, url });
  return found !== null && !Object.hasOwn(found.params, '*');
}

function decodedLength(segment: string): number {
  try {
    return decodeURIComponent(segment).length;
  } catch {
    return segment.length;
  }
}

export function registerErrorHandling(app: FastifyInstance, options: { fallback?: NotFoundFallback } = {}): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined) void reply.header('retry-after', String(error.retryAfterSeconds));
      return send(reply, error.statusCode, error.code, error.message);
    }
    if (hasZodFastifySchemaValidationErrors(error) || Array.isArray(error.validation)) {
      return send(reply, 400, 'BAD_REQUEST', describeValidation(error.validation as Issue[], error.validationContext));
    }
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return send(reply, 413, 'PAYLOAD_TOO_LARGE', 'The request body is too large.');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return send(reply, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported content type: send application/json.');
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return send(reply, 400, 'BAD_REQUEST', 'The request body is not valid JSON.');
    }
    if (error instanceof SyntaxError && error.statusCode === 400) {
      return send(reply, 400, 'BAD_REQUEST', 'The request body is not valid JSON.');
    }
    if (isStatementTimeout(error)) {
      request.log.warn({ err: error }, 'Statement timeout');
      return send(reply, 503, 'UNAVAILABLE', STATEMENT_TIMEOUT_MESSAGE);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      request.log.info({ err: error }, 'Request refused');
      return send(reply, status, STATUS_CODES[status] ?? 'BAD_REQUEST', error.message);
    }
    request.log.error({ err: error }, 'Request failed');
    return send(reply, 500, 'INTERNAL', UNKNOWN_ERROR_MESSAGE);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isApi = path === '/api' || path.startsWith('/api/');
    if (!isApi && options.fallback && (request.method === 'GET' || request.method === 'HEAD')) {
      return options.fallback(request, reply);
    }
    if (isApi && hasOverlongParameter(app, request.method, path)) {
      return send(reply, 414, 'BAD_REQUEST', ADDRESS_TOO_LONG_MESSAGE);
    }
    return send(reply, 404, 'NOT_FOUND', 'Not found');
  });
}
