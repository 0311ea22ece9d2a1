/**
 * The fetch client of the portal. Five backend areas (billing, provisioning, user, device,
 * group), each with its own base address defaulting to '/api' (DESIGN.md section 4).
 */

import { NETWORK_ERROR } from '@portal/core';

export type ApiArea = 'billing' | 'provisioning' | 'user' | 'device' | 'group';

const env = import.meta.env;

export const API_BASES: Readonly<Record<ApiArea, string>> = {
  billing: env.VITE_API_BILLING_URL || '/api',
  provisioning: env.VITE_API_PROVISIONING_URL || '/api',
  user: env.VITE_API_USER_URL || '/api',
  device: env.VITE_API_DEVICE_URL || '/api',
  group: env.VITE_API_GROUP_URL || '/api',
};

/**
 * An error answered by the server, or a network failure (status 0, 'Network Error').
 * `message` is the server's message ('' when it sent none), `body` the parsed error body and
 * `response` a short plain-text answer, so the core error readers (loadErrorDetail,
 * mutationErrorMessage) find the server message, else the response, else their fallback.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly body: { message: string; code: string } | undefined;
  readonly response: string | undefined;

  constructor(status: number, code: string, message: string, response?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = message ? { message, code } : undefined;
    this.response = response;
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  area?: ApiArea;
  body?: unknown;
  signal?: AbortSignal;
}

function isErrorBody(value: unknown): value is { message?: unknown; code?: unknown } {
  return typeof value === 'object' && value !== null;
}

/** A plain-text answer short enough to show; never an HTML error page. */
function shortText(text: string): string | undefined {
  const trimmed = text.trim();
  return trimmed && trimmed.length <= 200 && !trimmed.includes('<') ? trimmed : undefined;
}

async function toApiError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let message = '';
  let code = 'HTTP_' + response.status;
  try {
    const parsed: unknown = JSON.parse(text);
    if (isErrorBody(parsed)) {
      if (typeof parsed.message === 'string') message = parsed.message;
      if (typeof parsed.code === 'string') code = parsed.code;
    }
    return new ApiError(response.status, code, message);
  } catch {
    return new ApiError(response.status, code, message, shortText(text));
  }
}

/** Sends one call; resolves with the parsed JSON body (undefined for 204), throws ApiError. */
export async function apiRequest<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET') headers['X-Requested-With'] = 'portal';
  const init: RequestInit = { method, headers, credentials: 'same-origin' };
  if (options.signal) init.signal = options.signal;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  const url = API_BASES[options.area ?? 'user'] + path;
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK', NETWORK_ERROR);
  }
  if (!response.ok) throw await toApiError(response);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Sends one call whose answer is a file (a PDF, an image); resolves with its bytes as a Blob, throws ApiError. */
export async function apiBlob(method: 'GET' | 'POST', path: string, options: RequestOptions = {}): Promise<Blob> {
  const headers: Record<string, string> = { Accept: '*/*' };
  if (method !== 'GET') headers['X-Requested-With'] = 'portal';
  const init: RequestInit = { method, headers, credentials: 'same-origin' };
  if (options.signal) init.signal = options.signal;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(API_BASES[options.area ?? 'user'] + path, init);
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK', NETWORK_ERROR);
  }
  if (!response.ok) throw await toApiError(response);
  return response.blob();
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    apiRequest<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    apiRequest<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    apiRequest<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    apiRequest<T>('DELETE', path, { ...options, body }),
};
