/** The route suite's account calls: changing the password, the profile, and the user's groups. */
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestPortal, makeUser, signedIn } from '../helpers';
import { type SuitePortal, expectError, sessionOf } from './fixtures';

export function describeAccount(suite: SuitePortal): void {
  describe('account', () => {
    let tp: TestPortal;
    beforeAll(() => {
      ({ tp } = suite);
    });

    it('changing the password ends the other sessions but not the current one', async () => {
      const user = await makeUser(tp);
      const current = await signedIn(tp, user);
      const other = await signedIn(tp, user);

      expectError(
        await current.post('/api/account/password', {
          currentPassword: 'not-my-password',
          newPassword: 'new-password-1',
        }),
        401,
        'INVALID_CREDENTIALS',
        'Incorrect password.',
      );
      expect((await sessionOf(other)).isAuthenticated).toBe(true);
      await signedIn(tp, user);

      const res = await current.post('/api/account/password', {
        currentPassword: user.password,
        newPassword: 'new-password-1',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Password changed' });
      expect((await sessionOf(current)).isAuthenticated).toBe(true);
      expect((await sessionOf(other)).isAuthenticated).toBe(false);
      expectError(
        await tp.client().post('/api/auth/login', { email: user.email, password: user.password }),
        401,
        'INVALID_CREDENTIALS',
      );
      await signedIn(tp, { email: user.email, password: 'new-password-1' });
    });

    it('updates the phone number and the marketing choice', async () => {
      const client = await signedIn(tp, await makeUser(tp));
      const set = await client.put('/api/account/profile', { phone: '+61412345678', marketingOptIn: true });
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ phone: '+61412345678', marketingOptIn: true, mfa: 'NONE' });
      const unchanged = await client.put('/api/account/profile', {});
      expect(unchanged.body).toMatchObject({ phone: '+61412345678', marketingOptIn: true });
      const cleared = await client.put('/api/account/profile', { phone: '', marketingOptIn: false });
      expect(cleared.body).toMatchObject({ phone: '', marketingOptIn: false });
      expect((await client.get('/api/user-login')).body).toEqual(cleared.body);
    });

    it('GET /api/groups lists the groups the user belongs to', async () => {
      const user = await makeUser(tp);
      const client = await signedIn(tp, user);
      const none = await client.get('/api/groups');
      expect(none.status).toBe(200);
      expect(none.body).toEqual([]);
      const groupid = `G${Math.random().toString(36).slice(2, 12).toUpperCase().padEnd(10, 'X')}`;
      await tp.portal.db.query('INSERT INTO groups (groupid, group_name) VALUES ($1, $2)', [groupid, 'Fleet North']);
      await tp.portal.db.query("INSERT INTO group_members (groupid, user_id, permission) VALUES ($1, $2, 'ADMIN')", [
        groupid,
        user.id,
      ]);
      expect((await client.get('/api/groups')).body).toEqual([
        { groupid, groupName: 'Fleet North', permission: 'ADMIN', deviceCount: 0 },
      ]);
      expect((await (await signedIn(tp, await makeUser(tp))).get('/api/groups')).body).toEqual([]);
    });
  });
}
