/** The codes a second sign-in step asks for: TOTP codes at the portal's clock, and SMS codes read from the outbox. */
import { authenticator } from 'otplib';
import type { Clock } from '../../src/clock';
import { latestOutboxMessages } from '../../src/modules/mail/mail.repository';
import type { TestPortal } from './test-portal';

/** The current TOTP code of `secret` at the portal's clock. */
export function totpCode(secret: string, clock: Clock): string {
  return authenticator.clone({ epoch: clock.now().getTime() }).generate(secret);
}

/** A 6-digit code that is not the current TOTP code (nor the neighbouring ones). */
export function wrongTotpCode(secret: string, clock: Clock): string {
  const near = [-30_000, 0, 30_000].map((d) =>
    authenticator.clone({ epoch: clock.now().getTime() + d }).generate(secret),
  );
  for (let n = 0; ; n += 1) {
    const code = String(n).padStart(6, '0');
    if (!near.includes(code)) return code;
  }
}

/** The newest 6-digit code sent by SMS to `phone` (read from the outbox table). */
export async function lastSmsCode(tp: TestPortal, phone: string): Promise<string> {
  const rows = await latestOutboxMessages(tp.portal.db, 50);
  const sms = rows.find((r) => r.kind === 'sms' && r.recipient === phone);
  const code = sms ? /\b(\d{6})\b/.exec(sms.body)?.[1] : undefined;
  if (!code) throw new Error(`no SMS code for ${phone}`);
  return code;
}
