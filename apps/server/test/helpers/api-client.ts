/**
 * An HTTP client with its own cookie jar (fetch, or node:http when a Host header is needed); every
 * answer is checked against the OpenAPI document and logged for the portal's 5xx check.
 */
import http from 'node:http';
import { checkResponse } from '../openapi/response-contract';

/** One answer a client received; route is the document's path template of the operation it reached. */
export interface ResponseLogEntry {
  method: string;
  path: string;
  status: number;
  route?: string | undefined;
  contentType?: string;
}

export interface ParsedCookie {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
}

export function parseSetCookie(header: string): ParsedCookie {
  const [pair = '', ...attrs] = header.split(';').map((s) => s.trim());
  const eq = pair.indexOf('=');
  const attributes: Record<string, string | true> = {};
  for (const attr of attrs) {
    const i = attr.indexOf('=');
    if (i === -1) attributes[attr.toLowerCase()] = true;
    else attributes[attr.slice(0, i).toLowerCase()] = attr.slice(i + 1);
  }
  return { name: pair.slice(0, eq), value: pair.slice(eq + 1), attributes };
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  setCookies: ParsedCookie[];
  text: string;
  body: unknown;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is (malformed JSON tests). */
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Send the CSRF header on state-changing calls (default true). */
  csrf?: boolean;
  /** A Host header (sent through node:http, which allows it; fetch does not). */
  host?: string;
}

/** A client with its own cookie jar; uses fetch, or node:http when a Host header is needed. */
export class ApiClient {
  readonly jar = new Map<string, string>();

  constructor(
    readonly base: string,
    private readonly log: ResponseLogEntry[],
  ) {}

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  get(path: string, options: RequestOptions = {}) {
    return this.request('GET', path, options);
  }
  post(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request('POST', path, { ...options, ...(body !== undefined ? { body } : {}) });
  }
  put(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request('PUT', path, { ...options, ...(body !== undefined ? { body } : {}) });
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (method !== 'GET' && method !== 'HEAD' && options.csrf !== false) headers['x-requested-with'] = 'portal';
    const cookie = this.cookieHeader();
    if (cookie) headers.cookie = cookie;
    let payload: string | undefined;
    if (options.rawBody !== undefined) payload = options.rawBody;
    else if (options.body !== undefined) payload = JSON.stringify(options.body);
    if (payload !== undefined) headers['content-type'] = options.contentType ?? 'application/json';

    const res = options.host
      ? await nodeRequest(this.base, method, path, { ...headers, host: options.host }, payload)
      : await fetchRequest(this.base, method, path, headers, payload);
    for (const cookieLine of res.setCookieLines) {
      const parsed = parseSetCookie(cookieLine);
      const expired = parsed.attributes['max-age'] === '0' || parsed.value === '';
      if (expired) this.jar.delete(parsed.name);
      else this.jar.set(parsed.name, parsed.value);
    }
    let body: unknown = undefined;
    const contentType = res.headers['content-type'] ?? '';
    if (contentType.includes('application/json') && res.text) body = JSON.parse(res.text);
    // The answer must be one the OpenAPI document describes: a violation fails the test that got it.
    const operation = await checkResponse(this.base, { method, path, status: res.status, contentType, text: res.text });
    this.log.push({ method, path, status: res.status, route: operation?.route, contentType });
    return {
      status: res.status,
      headers: res.headers,
      setCookies: res.setCookieLines.map(parseSetCookie),
      text: res.text,
      body,
    };
  }
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  setCookieLines: string[];
  text: string;
}

async function fetchRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  payload?: string,
): Promise<RawResponse> {
  const res = await fetch(base + path, {
    method,
    headers,
    ...(payload !== undefined ? { body: payload } : {}),
    redirect: 'manual',
  });
  const out: Record<string, string> = {};
  res.headers.forEach((value, key) => {
    out[key] = value;
  });
  return { status: res.status, headers: out, setCookieLines: res.headers.getSetCookie(), text: await res.text() };
}

function nodeRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  payload?: string,
): Promise<RawResponse> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { hostname: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const out: Record<string, string> = {};
          for (const [key, value] of Object.entries(res.headers)) {
            if (key !== 'set-cookie' && value !== undefined) out[key] = Array.isArray(value) ? value.join(', ') : value;
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: out,
            setCookieLines: res.headers['set-cookie'] ?? [],
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}
