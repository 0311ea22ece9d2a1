/**
 * Shared test factories: a real portal on an ephemeral port (same startPortal as main), a
 * cookie-jar HTTP client, a real SMTP server that catches mail, users made through the
 * repository, and PostgreSQL discovery for the second run of the suite.
 */
import http from 'node:http';
import { describe, it } from 'vitest';
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { SMTPServer } from 'smtp-server';
import { authenticator } from 'otplib';
import type { BrandId, UserGroup } from '@portal/core';
import { loadConfig, type Config } from '../src/config';
import { startPortal, type Portal, type PortalOptions } from '../src/portal';
import type { Clock } from '../src/clock';
import { hashPassword } from '../src/security';
import { findUserByEmail, insertUser, type User } from '../src/modules/auth/auth.repository';
import { latestOutboxMessages } from '../src/modules/mail/mail.repository';
import { dropSchema, firstReachablePostgres, postgresCandidates } from './dev-postgres';
import { checkResponse } from './openapi/response-contract';
import { pgliteTemplate, TEST_PORTAL_ENV } from './suite-setup';

export type DbKind = 'pglite' | 'postgres';

// ---------------------------------------------------------------- clock

/** Real time plus an offset the test moves forward. */
export class TestClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
  reset(): void {
    this.offsetMs = 0;
  }
}

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

// ---------------------------------------------------------------- PostgreSQL

export const PG_CANDIDATES = postgresCandidates(process.env.TEST_DATABASE_URL);

let pgUrl: Promise<string | null> | undefined;

/** A reachable PostgreSQL URL for tests, or null. */
export function findPostgres(): Promise<string | null> {
  pgUrl ??= firstReachablePostgres(PG_CANDIDATES);
  return pgUrl;
}

export { dropSchema };

/**
 * Declares `suite` when PostgreSQL is reachable. Otherwise, under REQUIRE_SERVICES=1 (CI), a
 * test named `title` that fails saying so; else a skipped one, and a line in the output.
 */
export async function describeWhenPostgres(title: string, suite: () => void): Promise<void> {
  if (await findPostgres()) return suite();
  const tried = `tried ${PG_CANDIDATES.join(', ')}; set TEST_DATABASE_URL`;
  if (process.env.REQUIRE_SERVICES === '1') {
    describe(title, () => {
      it('has PostgreSQL (REQUIRE_SERVICES=1)', () => {
        throw new Error(`PostgreSQL is not reachable (${tried})`);
      });
    });
    return;
  }
  console.log(`PostgreSQL is not reachable (${tried}): ${title} is skipped.`);
  describe.skip(`${title}: PostgreSQL not reachable`, () => it('skipped', () => undefined));
}

export const newSchemaName = () => `t_${randomBytes(6).toString('hex')}`;

// ---------------------------------------------------------------- logs

export interface LogCapture {
  stream: Writable;
  lines: Record<string, unknown>[];
}

export function captureLogs(): LogCapture {
  const lines: Record<string, unknown>[] = [];
  let partial = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      partial += chunk.toString('utf8');
      const parts = partial.split('\n');
      partial = parts.pop() ?? '';
      for (const part of parts) if (part.trim()) lines.push(JSON.parse(part) as Record<string, unknown>);
      done();
    },
  });
  return { stream, lines };
}

// ---------------------------------------------------------------- portal

export interface TestPortalOptions {
  /** MAP_TILE_URL. */
  mapTileUrl?: string;
  db: DbKind;
  smtpUrl?: string;
  rateLimitPerMinute?: number;
  webDist?: string;
  publicUrl?: string;
  /** BRAND_HOSTS (a JSON object of brand id -> origin). */
  brandHosts?: string;
  /** BRAND_OVERRIDES (a JSON object of brand id -> brand fields). */
  brandOverrides?: string;
  seed?: boolean;
  authLimits?: PortalOptions['authLimits'];
  /** Ingest queue and writer options (a small queue to exercise backpressure). */
  telemetry?: PortalOptions['telemetry'];
  /** An external MQTT broker instead of the embedded one, and its shared-subscription group. */
  mqttUrl?: string;
  mqttShareGroup?: string;
  /** MQTT_AUTH_HOOK_SECRET: the broker HTTP hooks (/api/mqtt-auth/...) are registered. */
  mqttAuthHookSecret?: string;
  /** DB_STATEMENT_TIMEOUT_MS (PostgreSQL). */
  statementTimeoutMs?: number;
}

/** One answer a client received; route is the document's path template of the operation it reached. */
export interface ResponseLogEntry {
  method: string;
  path: string;
  status: number;
  route?: string | undefined;
  contentType?: string;
}

export interface TestPortal {
  portal: Portal;
  /** http://127.0.0.1:{port} */
  base: string;
  port: number;
  clock: TestClock;
  logs: LogCapture;
  /** A fresh client with its own cookie jar. */
  client(): ApiClient;
  /** Every response any client of this portal received (to assert that nothing answered 5xx). */
  responses: ResponseLogEntry[];
  close(): Promise<void>;
}

export async function startTestPortal(options: TestPortalOptions): Promise<TestPortal> {
  let databaseUrl: string | undefined;
  let schema: string | undefined;
  if (options.db === 'postgres') {
    databaseUrl = (await findPostgres()) ?? undefined;
    if (!databaseUrl) throw new Error('PostgreSQL is not reachable');
    schema = newSchemaName();
  }
  const config = loadConfig({
    ...TEST_PORTAL_ENV,
    PORT: '0',
    MQTT_PORT: '0',
    MQTT_URL: options.mqttUrl,
    // The machine's Mosquitto allows anonymous clients (the private broker of issue 17 does not).
    MQTT_ALLOW_ANONYMOUS: 'true',
    HOST: '127.0.0.1',
    DATA_DIR: 'memory://',
    DATABASE_URL: databaseUrl,
    SMTP_URL: options.smtpUrl,
    PUBLIC_URL: options.publicUrl,
    BRAND_HOSTS: options.brandHosts,
    BRAND_OVERRIDES: options.brandOverrides,
    SEED_DEMO: options.seed === false ? 'false' : 'true',
    LOG_LEVEL: 'info',
    WEB_DIST: options.webDist ?? '/nonexistent-web-dist',
    RATE_LIMIT_PER_MINUTE: String(options.rateLimitPerMinute ?? 10_000),
    MAP_TILE_URL: options.mapTileUrl,
    MQTT_AUTH_HOOK_SECRET: options.mqttAuthHookSecret,
    DB_STATEMENT_TIMEOUT_MS: options.statementTimeoutMs === undefined ? undefined : String(options.statementTimeoutMs),
  });
  return startPortalForTest(
    config,
    {
      ...(schema ? { dbSchema: schema } : {}),
      ...(options.authLimits ? { authLimits: options.authLimits } : {}),
      ...(options.telemetry ? { telemetry: options.telemetry } : {}),
      ...(options.mqttShareGroup ? { mqttShareGroup: options.mqttShareGroup } : {}),
    },
    async () => {
      if (databaseUrl && schema) await dropSchema(databaseUrl, schema);
    },
  );
}

/**
 * The configuration of a quiet test portal: in-memory database, ephemeral ports, no demo seed,
 * warnings only; `env` adds or overrides variables.
 */
export function quietTestConfig(env: NodeJS.ProcessEnv = {}): Config {
  return loadConfig({
    ...TEST_PORTAL_ENV,
    PORT: '0',
    MQTT_PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: 'memory://',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    WEB_DIST: '/nonexistent-web-dist',
    RATE_LIMIT_PER_MINUTE: '10000',
    ...env,
  });
}

/**
 * A portal started from `config` on a test clock with its logs captured, as a TestPortal;
 * `afterClose` runs once it closed (e.g. dropping its schema).
 */
export async function startPortalForTest(
  config: Config,
  options: Omit<PortalOptions, 'clock' | 'logStream'> = {},
  afterClose?: () => Promise<void>,
): Promise<TestPortal> {
  const clock = new TestClock();
  const logs = captureLogs();
  const portal = await startPortal(config, {
    clock,
    logStream: logs.stream,
    ...(config.databaseUrl ? {} : { pgliteTemplate: pgliteTemplate() }),
    ...options,
  });
  const base = `http://127.0.0.1:${portal.port}`;
  const responses: TestPortal['responses'] = [];
  return {
    portal,
    base,
    port: portal.port,
    clock,
    logs,
    responses,
    client: () => new ApiClient(base, responses),
    async close() {
      await portal.close();
      await afterClose?.();
    },
  };
}

// ---------------------------------------------------------------- users

let userCounter = 0;

/** A unique address for a test. */
export function uniqueEmail(label = 'user'): string {
  userCounter += 1;
  return `${label}-${userCounter}-${randomBytes(3).toString('hex')}@example.com`;
}

export interface MadeUser {
  id: string;
  email: string;
  password: string;
}

/** Inserts a user through the repository (verified unless told otherwise). */
export async function makeUser(
  tp: TestPortal,
  overrides: { email?: string; password?: string; verified?: boolean; userGroups?: UserGroup[]; brand?: BrandId } = {},
): Promise<MadeUser> {
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? `pw-${randomBytes(6).toString('hex')}`;
  const user = await insertUser(tp.portal.db, {
    id: randomBytes(12).toString('base64url'),
    email,
    passwordHash: await hashPassword(password, TEST_PORTAL_ENV.PASSWORD_HASH_COST),
    emailVerified: overrides.verified ?? true,
    marketingOptIn: false,
    userGroups: overrides.userGroups ?? [],
    brand: overrides.brand ?? 'default',
    createdAt: tp.clock.now(),
  });
  return { id: user.id, email, password };
}

export async function userRow(tp: TestPortal, email: string): Promise<User> {
  const user = await findUserByEmail(tp.portal.db, email);
  if (!user) throw new Error(`no user ${email}`);
  return user;
}

/** A signed-in client for `user`. */
export async function signedIn(tp: TestPortal, user: { email: string; password: string }): Promise<ApiClient> {
  const client = tp.client();
  const res = await client.post('/api/auth/login', { email: user.email, password: user.password });
  if (res.status !== 200 || (res.body as { status?: string }).status !== 'SIGNED_IN') {
    throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  }
  return client;
}

// ---------------------------------------------------------------- HTTP client with a cookie jar

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
    private readonly log: TestPortal['responses'],
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

// ---------------------------------------------------------------- a real SMTP server

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

// ---------------------------------------------------------------- outbox

/** The newest 6-digit code sent by SMS to `phone` (read from the outbox table). */
export async function lastSmsCode(tp: TestPortal, phone: string): Promise<string> {
  const rows = await latestOutboxMessages(tp.portal.db, 50);
  const sms = rows.find((r) => r.kind === 'sms' && r.recipient === phone);
  const code = sms ? /\b(\d{6})\b/.exec(sms.body)?.[1] : undefined;
  if (!code) throw new Error(`no SMS code for ${phone}`);
  return code;
}
