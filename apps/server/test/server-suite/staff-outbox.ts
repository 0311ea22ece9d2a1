/** The route suite's staff outbox and client errors, and what the logs must never carry. */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER, STAFF_USER } from '../../src/seed';
import { type MailCatcher, type TestPortal, linkIn, makeUser, signedIn } from '../helpers';
import { type SuitePortal, expectError } from './fixtures';

export function describeStaffOutbox(suite: SuitePortal): void {
  describe('staff outbox and client errors', () => {
    let tp: TestPortal;
    let mail: MailCatcher;
    beforeAll(() => {
      ({ tp, mail } = suite);
    });

    it('GET /api/outbox is for staff only', async () => {
      const staff = await signedIn(tp, STAFF_USER);
      const res = await staff.get('/api/outbox');
      expect(res.status).toBe(200);
      const list = res.body as Record<string, unknown>[];
      expect(Array.isArray(list)).toBe(true);
      expect(list.length).toBeLessThanOrEqual(50);
      for (const m of list) expect(Object.keys(m).sort()).toEqual(['body', 'createdAt', 'id', 'kind', 'subject', 'to']);
      expectError(await (await signedIn(tp, DEMO_USER)).get('/api/outbox'), 403, 'FORBIDDEN');
    });

    it('POST /api/client-errors logs the crash at error level and answers 204', async () => {
      const res = await tp.client().post('/api/client-errors', {
        message: 'Cannot read properties of undefined',
        stack: 'at Widget',
        url: '/group/x',
      });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const line = tp.logs.lines.find((l) => l.msg === 'Client error: Cannot read properties of undefined');
      expect(line?.level).toBe(50);
      expect(line?.clientError).toMatchObject({ stack: 'at Widget', url: '/group/x' });
    });

    it('logs carry no password, cookie or link code', async () => {
      const user = await makeUser(tp);
      await signedIn(tp, user);
      await tp.client().post('/api/auth/reset', { email: user.email });
      const { code } = linkIn(await mail.waitFor((m) => m.to.includes(user.email)), 'resetpassword');
      await tp.client().post(`/api/auth/reset/${code}`, { password: 'logged-pass-1' });
      const text = tp.logs.lines.map((l) => JSON.stringify(l)).join('\n');
      expect(text).not.toContain(user.password);
      expect(text).not.toContain('logged-pass-1');
      expect(text).not.toContain(code);
      expect(text).not.toContain('portal_session=');
    });
  });
}
