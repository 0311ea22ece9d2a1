/**
 * Helpers of the sign-in tests: a client whose requests come from a chosen loopback address (the
 * portal sees it as the client address, with no proxy header involved), and error checks.
 */
import http from 'node:http';
import { expect } from 'vitest';
import { parseSetCookie, type TestPortal } from '../helpers';

export const MINUTE = 60_000;
export const RATE_LIMITED_MESSAGE = 'Too many attempts. Please wait a few minutes and try again.';

export interface AddressedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { message?: string; code?: string; status?: string };
}

/** A client with its own cookies whose connections leave from `address` (127.x.y.z: every one is loopback). */
export interface AddressedClient {
  address: string;
  post(path: string, body: unknown): Promise<AddressedResponse>;
  login(email: string, password: string): Promise<AddressedResponse>;
}

export function clientFrom(tp: TestPortal, address: string): AddressedClient {
  const jar = new Map<string, string>();
  const post = (path: string, body: unknown) =>
    new Promise<AddressedResponse>((resolve, reject) => {
      const payload = JSON.stringify(body);
      const req = http.request(
        {
          host: '127.0.0.1',
          port: tp.port,
          path,
          method: 'POST',
          localAddress: address,
          agent: false,
          headers: {
            'content-type': 'application/json',
            'x-requested-with': 'portal',
            ...(jar.size > 0 ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            for (const line of res.headers['set-cookie'] ?? []) {
              const cookie = parseSetCookie(line);
              if (cookie.value === '' || cookie.attributes['max-age'] === '0') jar.delete(cookie.name);
              else jar.set(cookie.name, cookie.value);
            }
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : {} });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  return { address, post, login: (email, password) => post('/api/auth/login', { email, password }) };
}

/** 429 RATE_LIMITED with Retry-After in whole seconds; returns the seconds. */
export function expectThrottled(res: AddressedResponse): number {
  expect({ status: res.status, body: res.body }).toEqual({
    status: 429,
    body: { code: 'RATE_LIMITED', message: RATE_LIMITED_MESSAGE },
  });
  const header = res.headers['retry-after'];
  expect(header).toMatch(/^[1-9]\d*$/);
  return Number(header);
}

export function expectStatus(res: AddressedResponse, status: number, code?: string): void {
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
}
