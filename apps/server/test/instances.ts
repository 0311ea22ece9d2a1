/**
 * Real portal processes for the tests and benchmarks of several instances (issue 17): a fresh
 * PostgreSQL database, `node --import tsx apps/server/src/main.ts` started with an INSTANCE_ID
 * against an external broker (see private-broker.ts), a signed-in API client of one instance, and
 * devices provisioned through the staff API (so the broker learns their keys).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';

const ROOT = join(import.meta.dirname, '../../..');
const MAIN = join(ROOT, 'apps/server/src/main.ts');

/** The demo seed's accounts (SEED_DEMO=true). */
export const STAFF = { email: 'staff@portal.local', password: 'staff-portal-2026' };
export const DEMO = { email: 'demo@portal.local', password: 'demo-portal-2026' };

export interface Instance {
  name: string;
  child: ChildProcess;
  base: string;
  output: () => string;
  exited: Promise<number | null>;
}

export interface InstanceOptions {
  /** INSTANCE_ID. */
  name: string;
  databaseUrl: string;
  /** MQTT_URL: the broker with the portal's own user (PrivateBroker.portalUrl). */
  mqttUrl: string;
  /** Variables set over the defaults below (e.g. LOG_LEVEL, MQTT_SHARED_CONNECTIONS). */
  env?: Record<string, string | undefined>;
}

/**
 * Starts one portal process in its own process group (so a signal can go to the group) and
 * resolves when it reports its port over IPC; rejects with its output when it exits first.
 */
export async function startInstance({ name, databaseUrl, mqttUrl, env = {} }: InstanceOptions): Promise<Instance> {
  let text = '';
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      MQTT_URL: mqttUrl,
      MQTT_DEVICE_AUTH: 'dynsec',
      INSTANCE_ID: name,
      MQTT_SHARED_CONNECTIONS: '4',
      INGEST_HOLD_MS: '0',
      SEED_DEMO: 'true',
      LOG_LEVEL: 'info',
      WEB_DIST: '/nonexistent-web-dist',
      DATA_DIR: 'memory://',
      ...env,
    },
  });
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    child.on('message', (message: { type?: string; port?: number }) => {
      if (message.type === 'portal-ready') resolve(message.port!);
    });
    void exited.then((code) => reject(new Error(`${name} exited with ${code}: ${text}`)));
  });
  return { name, child, base: `http://127.0.0.1:${port}`, output: () => text, exited };
}

/** SIGKILL unless it has exited; resolves once it has. */
export async function killInstance(instance: Instance): Promise<void> {
  if (instance.child.exitCode === null && instance.child.signalCode === null) instance.child.kill('SIGKILL');
  await instance.exited;
}

export type Api = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: Record<string, unknown> | null }>;

/** A signed-in API client of one instance (throws when the sign-in is refused). */
export async function signIn(instance: Instance, account: { email: string; password: string }): Promise<Api> {
  const call = (method: string, path: string, body?: unknown, cookie = '') =>
    fetch(`${instance.base}${path}`, {
      method,
      headers: {
        'x-requested-with': 'portal',
        ...(cookie ? { cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const login = await call('POST', '/api/auth/login', account);
  if (login.status !== 200)
    throw new Error(`sign-in of ${account.email} on ${instance.name}: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return async (method, path, body) => {
    const answer = await call(method, path, body, cookie);
    const text = await answer.text();
    return { status: answer.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
  };
}

export interface ProvisionedDevice {
  id: string;
  key: string;
  setupPassword: string;
}

/** Provisions an ORB-C1 through a staff API client; answers its key and setup password. */
export async function provisionDevice(staff: Api, prefix = 'MI'): Promise<ProvisionedDevice> {
  const id = `${prefix}${randomBytes(5).toString('hex').toUpperCase()}`.slice(0, 9);
  const made = await staff('POST', `/api/prov-portal-edit-device/${id}`, { model: 'ORB-C1' });
  if (made.status !== 201) throw new Error(`provisioning ${id}: ${made.status} ${JSON.stringify(made.body)}`);
  return { id, key: made.body!.deviceKey as string, setupPassword: made.body!.setupPassword as string };
}

export interface TempDatabase {
  name: string;
  url: string;
  /** Drops it (after its clients have gone; retried briefly while their connections close). */
  drop(): Promise<void>;
}

/** CREATE DATABASE `{prefix}_{random}` on the server of `adminUrl`. */
export async function createDatabase(adminUrl: string, prefix: string): Promise<TempDatabase> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: adminUrl.replace(/\/[^/]*$/, `/${name}`),
    async drop() {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      try {
        for (let attempt = 0; attempt < 10; attempt += 1) {
          const dropped = await admin.query(`DROP DATABASE IF EXISTS ${name}`).then(
            () => true,
            () => false,
          );
          if (dropped) return;
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
      } finally {
        await admin.end();
      }
    },
  };
}
