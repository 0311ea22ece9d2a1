/**
 * Outgoing mail and SMS behind two small interfaces. Mail goes through SMTP (nodemailer) when
 * SMTP_URL is set; otherwise it is logged and kept in the outbox table, readable by staff.
 * The built-in SMS sender always writes to the outbox (no SMS provider is configured yet).
 */
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import type { OutboxMessage } from '@portal/core';
import { insertOutboxMessage, latestOutboxMessages } from './mail.repository';

export interface OutboxService {
  /** The last 50 messages kept in the outbox, newest first. */
  latest(): Promise<OutboxMessage[]>;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Where a reply goes when not to the sender (a support request: the user who sent it). */
  replyTo?: string;
}

export interface Mailer {
  /** Where mail goes, for the start-up banner and logs. */
  readonly description: string;
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export interface SmsMessage {
  to: string;
  text: string;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

interface OutboxDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
}

export const OUTBOX_LIMIT = 50;

/** A mailer that keeps each message in the outbox and logs its text. */
export function createOutboxMailer(deps: OutboxDeps): Mailer {
  return {
    description: 'outbox',
    async send(message) {
      await insertOutboxMessage(deps.db, {
        kind: 'mail',
        recipient: message.to,
        subject: message.subject,
        body: message.replyTo ? `Reply-To: ${message.replyTo}\n\n${message.text}` : message.text,
        createdAt: deps.clock.now(),
      });
      deps.log.info(
        { mail: { to: message.to, subject: message.subject } },
        `Mail to ${message.to}: ${message.subject}\n${message.text}`,
      );
    },
    async close() {},
  };
}

/** A mailer that sends through the SMTP server at `smtpUrl`. */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl, { from });
  const host = new URL(smtpUrl).host;
  return {
    description: `SMTP ${host}`,
    async send(message) {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.replyTo ? { replyTo: message.replyTo } : {}),
      });
    },
    async close() {
      transport.close();
    },
  };
}

/** The built-in SMS sender: keeps each SMS in the outbox (no SMS provider is configured yet). */
export function createOutboxSmsSender(deps: OutboxDeps): SmsSender {
  return {
    async send(message) {
      await insertOutboxMessage(deps.db, {
        kind: 'sms',
        recipient: message.to,
        subject: '',
        body: message.text,
        createdAt: deps.clock.now(),
      });
      // The text holds a sign-in code: it stays in the outbox (staff only), not in the log.
      deps.log.info({ sms: { to: message.to } }, `SMS to ${message.to} kept in the outbox`);
    },
  };
}

/** The outbox as staff read it: the last 50 messages, newest first. */
export function createOutboxService(deps: { db: Db }): OutboxService {
  return {
    async latest(): Promise<OutboxMessage[]> {
      const rows = await latestOutboxMessages(deps.db, OUTBOX_LIMIT);
      return rows.map((row) => ({
        id: row.id,
        kind: row.kind,
        to: row.recipient,
        subject: row.subject,
        body: row.body,
        createdAt: row.created_at.toISOString(),
      }));
    },
  };
}
