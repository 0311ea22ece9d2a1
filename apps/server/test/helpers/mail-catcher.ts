/** A real SMTP server that catches the portal's mail, parses it, and finds the links in it. */
import { EventEmitter } from 'node:events';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  raw: string;
}

function decodeQuotedPrintable(text: string): string {
  const bytes = Buffer.from(
    text
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );
  return bytes.toString('utf8');
}

function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_m, enc: string, data: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );
}

/** Parses a single-part text message as nodemailer writes it. */
export function parseMail(raw: string, envelopeFrom: string, envelopeTo: string[]): CaughtMail {
  const split = raw.indexOf('\r\n\r\n');
  const headerText = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  let body = raw.slice(split + 4);
  const headers = new Map<string, string>();
  for (const line of headerText.split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers.set(line.slice(0, i).toLowerCase(), line.slice(i + 1).trim());
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') body = decodeQuotedPrintable(body);
  else if (encoding === 'base64') body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return {
    from: envelopeFrom,
    to: envelopeTo,
    subject: decodeHeader(headers.get('subject') ?? ''),
    text: body.replace(/\r\n/g, '\n').trimEnd(),
    raw,
  };
}

export interface MailCatcher {
  url: string;
  messages: CaughtMail[];
  /** Resolves with the first message (already caught or arriving) that matches. */
  waitFor(predicate: (mail: CaughtMail) => boolean, timeoutMs?: number): Promise<CaughtMail>;
  to(address: string): CaughtMail[];
  close(): Promise<void>;
}

export async function startMailCatcher(): Promise<MailCatcher> {
  const messages: CaughtMail[] = [];
  const events = new EventEmitter();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const mail = parseMail(
          Buffer.concat(chunks).toString('utf8'),
          from,
          session.envelope.rcptTo.map((r) => r.address),
        );
        messages.push(mail);
        events.emit('mail', mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to: (address) => messages.filter((m) => m.to.includes(address)),
    waitFor(predicate, timeoutMs = 10_000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          events.off('mail', onMail);
          reject(new Error('no matching mail arrived'));
        }, timeoutMs);
        const onMail = (mail: CaughtMail) => {
          if (!predicate(mail)) return;
          clearTimeout(timer);
          events.off('mail', onMail);
          resolve(mail);
        };
        events.on('mail', onMail);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The code at the end of the first link in a mail to `{origin}/{path}/{code}`. */
export function linkIn(mail: { text: string }, path: 'verify' | 'resetpassword'): { url: string; code: string } {
  const match = new RegExp(`(https?://\\S+)/${path}/([A-Za-z0-9_-]+)`).exec(mail.text);
  if (!match) throw new Error(`no /${path}/ link in: ${mail.text}`);
  return { url: `${match[1]}/${path}/${match[2]}`, code: match[2]! };
}
