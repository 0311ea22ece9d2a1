import type { Db } from '../../db/db';

export interface OutboxRow {
  id: number;
  kind: 'mail' | 'sms';
  recipient: string;
  subject: string;
  body: string;
  created_at: Date;
}

export async function insertOutboxMessage(
  db: Db,
  message: { kind: 'mail' | 'sms'; recipient: string; subject: string; body: string; createdAt: Date },
): Promise<void> {
  await db.query('INSERT INTO outbox (kind, recipient, subject, body, created_at) VALUES ($1, $2, $3, $4, $5)', [
    message.kind,
    message.recipient,
    message.subject,
    message.body,
    message.createdAt,
  ]);
}

export function latestOutboxMessages(db: Db, limit: number): Promise<OutboxRow[]> {
  return db.query<OutboxRow>(
    'SELECT id, kind, recipient, subject, body, created_at FROM outbox ORDER BY id DESC LIMIT $1',
    [limit],
  );
}
