/**
 * The route suite: real HTTP against the portal started by the same startPortal as main, on a
 * real database. describeServerSuite runs it on PGlite and again on PostgreSQL; it starts one
 * portal with SMTP mail that the areas of server-suite/ share, and the outbox portal of its own.
 */
import { afterAll, afterEach, beforeAll, describe, expect } from 'vitest';
import { type DbKind, startMailCatcher, startTestPortal } from './helpers';
import type { SuitePortal } from './server-suite/fixtures';
import { describeSystem } from './server-suite/system';
import { describeRequestValidation } from './server-suite/request-validation';
import { describeSignIn } from './server-suite/sign-in';
import { describePasswordReset } from './server-suite/password-reset';
import { describeAccount } from './server-suite/account';
import { describeMfa } from './server-suite/mfa';
import { describeStaffOutbox } from './server-suite/staff-outbox';
import { describeOutboxPortal } from './server-suite/outbox-portal';

export function describeServerSuite(dbKind: DbKind): void {
  describe(`portal with SMTP mail (${dbKind})`, () => {
    // Filled before the first test; the areas read it in their own beforeAll.
    const suite = {} as SuitePortal;

    beforeAll(async () => {
      suite.mail = await startMailCatcher();
      // With the broker hooks, so the document lists every route.
      suite.tp = await startTestPortal({
        db: dbKind,
        smtpUrl: suite.mail.url,
        mqttAuthHookSecret: 'suite-hook-secret-0123',
      });
    });
    afterAll(async () => {
      await suite.tp?.close();
      await suite.mail?.close();
    });
    afterEach(() => suite.tp.clock.reset());

    describeSystem(suite);
    describeRequestValidation(suite);
    describeSignIn(suite);
    describePasswordReset(suite);
    describeAccount(suite);
    describeMfa(suite);
    describeStaffOutbox(suite);

    afterAll(() => {
      // The one deliberate 5xx: the page of a portal without a web build.
      expect(suite.tp.responses.filter((r) => r.status >= 500 && r.path !== '/some/page')).toEqual([]);
      expect(
        suite.tp.logs.lines.filter((l) => (l.level as number) >= 50 && !String(l.msg).startsWith('Client error:')),
      ).toEqual([]);
    });
  });

  describeOutboxPortal(dbKind);
}
