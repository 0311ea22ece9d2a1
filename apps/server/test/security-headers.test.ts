import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../src/plugins/security-headers';
import { startTestPortal, type TestPortal } from './helpers';

const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

describe('security headers', () => {
  let tp: TestPortal;
  beforeAll(async () => {
    tp = await startTestPortal({ db: 'pglite', webDist: WEB_DIST, seed: false });
  });
  afterAll(async () => {
    await tp?.close();
  });

  it.each(['/', '/login', '/api/health', '/api/nope', '/api/auth/session'])('%s carries them', async (path) => {
    const res = await fetch(`${tp.base}${path}`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });
});
