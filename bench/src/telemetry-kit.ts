/**
 * Shared parts of the telemetry benchmarks (ingest, data-query, downsample, storage, group data
 * and metrics, home map): a portal on PGlite (a temporary data directory) or PostgreSQL (a fresh
 * schema, dropped afterwards), run on each store in turn, devices provisioned through the devices
 * service, bench users signed in over HTTP, realistic records of 20 keys from the simulator's
 * models, and a clock the loaders can move.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { DeviceRecord } from '@portal/core';
import { startPortal, type Portal } from '../../apps/server/src/portal';
import { loadConfig } from '../../apps/server/src/config';
import { dropSchema, firstReachablePostgres, postgresCandidates } from '../../apps/server/test/dev-postgres';
import type { RecordSource } from './records';
import type { BenchResult } from './run';

export { RECORD_KEYS, RecordSource } from './records';

export type Store = 'pglite' | 'postgres';

const PG_CANDIDATES = postgresCandidates(process.env.BENCH_DATABASE_URL);

let pgUrl: Promise<string> | undefined;

/** A reachable PostgreSQL URL (throws when there is none). */
export function findPostgres(): Promise<string> {
  pgUrl ??= firstReachablePostgres(PG_CANDIDATES).then((url) => {
    if (!url) throw new Error(`PostgreSQL is not reachable at ${PG_CANDIDATES.join(' or ')}`);
    return url;
  });
  return pgUrl;
}

/** A clock the loaders move (records older than 7 days are refused relative to it). */
export class BenchClock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  /** Makes `now()` read `epochSeconds` (and run on from there). */
  setSeconds(epochSeconds: number): void {
    this.offsetMs = epochSeconds * 1000 - Date.now();
  }
}

export interface BenchPortal {
  portal: Portal;
  store: Store;
  clock: BenchClock;
  /** PostgreSQL only: the schema of this run. */
  schema: string | null;
  close(): Promise<void>;
}

export interface BenchPortalOptions {
  /** An external broker (MQTT_URL) instead of the embedded Aedes. */
  mqttUrl?: string;
}

/** A portal on a fresh database (no demo seed); close() stops it and removes its data. */
export async function startBenchPortal(store: Store, options: BenchPortalOptions = {}): Promise<BenchPortal> {
  const databaseUrl = store === 'postgres' ? await findPostgres() : undefined;
  const schema = store === 'postgres' ? `bench_${randomBytes(5).toString('hex')}` : null;
  const dataDir = store === 'pglite' ? mkdtempSync(join(tmpdir(), 'portal-bench-')) : null;
  const config = loadConfig({
    PORT: '0',
    MQTT_PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir ?? 'memory://',
    DATABASE_URL: databaseUrl,
    // The benchmarks load millions of records and rebuild their rollups in single statements.
    DB_STATEMENT_TIMEOUT_MS: '0',
    MQTT_URL: options.mqttUrl,
    // The machine's Mosquitto allows anonymous clients; the benchmark's devices use it so.
    MQTT_ALLOW_ANONYMOUS: 'true',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    WEB_DIST: '/nonexistent-web-dist',
    RATE_LIMIT_PER_MINUTE: '100000',
  });
  const clock = new BenchClock();
  const cleanup = async () => {
    if (process.env.BENCH_KEEP_SCHEMA === '1' && schema) {
      progress(`kept PostgreSQL schema ${schema} (BENCH_KEEP_SCHEMA)`);
      return;
    }
    if (databaseUrl && schema) await dropSchema(databaseUrl, schema);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  let portal: Portal;
  try {
    portal = await startPortal(config, {
      clock,
      ...(schema ? { dbSchema: schema } : {}),
      ...(options.mqttUrl ? { mqttShareGroup: `bench${randomBytes(3).toString('hex')}` } : {}),
    });
  } catch (error) {
    await cleanup();
    throw error;
  }
  return {
    portal,
    store,
    clock,
    schema,
    async close() {
      await portal.close().catch(() => undefined);
      await cleanup();
    },
  };
}

export interface BenchDevice {
  id: string;
  key: string;
}

/** `count` ORB-C1 devices made through the devices service (as the provisioning API does). */
export async function provisionDevices(bp: BenchPortal, count: number, prefix = 'B'): Promise<BenchDevice[]> {
  const devices: BenchDevice[] = [];
  const tag = randomBytes(2)
    .toString('hex')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '0');
  const ids = Array.from({ length: count }, (_, i) =>
    `${prefix}${tag}${String(i).padStart(9 - prefix.length - tag.length, '0')}`.slice(0, 9),
  );
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      const made = await bp.portal.app.services.devices.createDevice(id, { model: 'ORB-C1' }, null);
      if (!made) throw new Error(`device ${id} exists already`);
      devices.push({ id, key: made.deviceKey });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return devices.sort((a, b) => a.id.localeCompare(b.id));
}

/** A new user of no staff group, made through the auth service: its id and sign-in. */
export async function benchUser(bp: BenchPortal): Promise<{ id: string; email: string; password: string }> {
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
  const password = `bench-${randomBytes(8).toString('hex')}`;
  await bp.portal.app.services.auth.ensureUser({ email, password, userGroups: [] });
  const [user] = await bp.portal.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email]);
  if (!user) throw new Error('bench user missing');
  return { id: user.id, email, password };
}

/** Signs `user` in over HTTP at `base`; answers the Cookie header of the session. */
export async function signInCookie(base: string, user: { email: string; password: string }): Promise<string> {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'portal' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  if (login.status !== 200) throw new Error(`bench sign-in failed: ${login.status} ${await login.text()}`);
  return login.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}

/** A user who is ADMIN of the given devices, signed in over HTTP: returns a GET helper. */
export async function signedInAdmin(
  bp: BenchPortal,
  deviceIds: string[],
): Promise<(path: string) => Promise<{ status: number; ms: number; bytes: number; body: string }>> {
  const user = await benchUser(bp);
  for (let i = 0; i < deviceIds.length; i += 1000) {
    await bp.portal.db.query(
      `INSERT INTO device_users (device_id, user_id, permission, created_at)
       SELECT d, $2, 'ADMIN', now() FROM unnest($1::text[]) AS d`,
      [deviceIds.slice(i, i + 1000), user.id],
    );
  }
  const base = `http://127.0.0.1:${bp.portal.port}`;
  const cookie = await signInCookie(base, user);
  return async (path: string) => {
    const t0 = performance.now();
    const res = await fetch(`${base}${path}`, { headers: { cookie, 'x-requested-with': 'portal' } });
    const body = await res.text();
    return { status: res.status, ms: performance.now() - t0, bytes: body.length, body };
  };
}

/** The p-th percentile (0-100) of a list, nearest rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? NaN;
}

/** Runs `measure` on each store of BENCH_STORES (PostgreSQL, then PGlite, by default) in turn. */
export async function onEachStore(measure: (store: Store) => Promise<BenchResult[]>): Promise<BenchResult[]> {
  const stores = (process.env.BENCH_STORES ?? 'postgres,pglite').split(',') as Store[];
  const results: BenchResult[] = [];
  for (const store of stores) results.push(...(await measure(store)));
  return results;
}

export const round1 = (n: number) => Math.round(n * 10) / 10;
export const round2 = (n: number) => Math.round(n * 100) / 100;

/** One line of progress on stderr (stdout carries the JSON document only). */
export function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/**
 * Feeds records through the telemetry service's ingest path (the writer every MQTT and HTTP
 * message goes through: validation, records, events, rollups, latest values, contact), in time
 * order, moving the portal's clock with the records so the 7-day rule accepts old times.
 * `recordsAt(device, ts)` builds one record; messages carry `perMessage` records.
 */
export async function ingestHistory(
  bp: BenchPortal,
  devices: BenchDevice[],
  options: {
    from: number;
    to: number;
    intervalS: number;
    perMessage: number;
    sources: Map<string, RecordSource>;
    onProgress?: (stored: number) => void;
  },
): Promise<number> {
  const telemetry = bp.portal.app.services.telemetry;
  const windowS = options.intervalS * options.perMessage;
  let stored = 0;
  for (let start = options.from; start < options.to; start += windowS) {
    const end = Math.min(options.to, start + windowS);
    bp.clock.setSeconds(end + 1);
    const receivedAt = bp.clock.now();
    const messages = devices.map((device) => {
      const source = options.sources.get(device.id)!;
      const body: DeviceRecord[] = [];
      for (let ts = start; ts < end; ts += options.intervalS) body.push(source.at(ts));
      return telemetry.ingest({ deviceId: device.id, kind: 'data', body, basic: false, receivedAt, source: 'http' });
    });
    for (const outcome of await Promise.all(messages)) {
      if (outcome.refused.length > 0)
        throw new Error(`ingest refused records: ${outcome.refused.slice(0, 3).join('; ')}`);
      stored += outcome.stored;
    }
    options.onProgress?.(stored);
  }
  bp.clock.offsetMs = 0;
  return stored;
}

/**
 * p95 of each of `runs` runs of `calls` sequential calls (after `warmup` calls), each run's p50
 * and p95 reported as it ends; `call` answers the milliseconds one call took.
 */
export async function p95Runs(
  label: string,
  calls: number,
  call: () => Promise<number>,
  { warmup = 3, runs = 3 }: { warmup?: number; runs?: number } = {},
): Promise<number[]> {
  for (let w = 0; w < warmup; w += 1) await call();
  const p95s: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const ms: number[] = [];
    for (let c = 0; c < calls; c += 1) ms.push(await call());
    p95s.push(percentile(ms, 95));
    progress(`${label} run ${run + 1}: p50 ${round2(percentile(ms, 50))} ms, p95 ${round2(percentile(ms, 95))} ms`);
  }
  return p95s;
}
