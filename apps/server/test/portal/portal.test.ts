/** Configuration, start-up errors and the process entry (main.ts) as a user runs it. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/db';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EX_CONFIG } from '../../../../scripts/restart-policy.mjs';
import { loadConfig } from '../../src/config';
import { CONFIG_VARIABLES } from '../../src/config-variables';
import { startPortal } from '../../src/portal';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

describe('configuration', () => {
  it('has defaults for everything', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      publicUrl: undefined,
      databaseUrl: undefined,
      smtpUrl: undefined,
      mailFrom: 'Portal <no-reply@portal.local>',
      supportEmail: 'support@portal.local',
      seedDemo: true,
      logLevel: 'info',
      trustProxy: false,
      brandOverrides: {},
      brandHosts: {},
      rateLimitPerMinute: 20,
    });
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.webDist).toMatch(/apps\/web\/dist$/);
  });

  it('parses every variable', () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_URL: 'https://portal.example.com/',
      DATA_DIR: 'memory://',
      DATABASE_URL: 'postgres://u@db:5432/portal',
      DB_STATEMENT_TIMEOUT_MS: '5000',
      SMTP_URL: 'smtp://mail:25',
      MAIL_FROM: 'Ops <ops@example.com>',
      SUPPORT_EMAIL: 'Help@Example.com',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/srv/web',
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
      BRAND_OVERRIDES: '{"tank":{"footerText":"Tanks Ltd"}}',
      BRAND_HOSTS: '{"tank":"https://Portal.TankCo.example/","pump":"http://pumps.example:8080"}',
      RATE_LIMIT_PER_MINUTE: '50',
      MQTT_PORT: '0',
      MQTT_URL: 'mqtt://broker:1883',
      MQTT_SHARED_CONNECTIONS: '32',
      MQTT_DEVICE_AUTH: 'dynsec',
      MQTT_ALLOW_ANONYMOUS: 'true',
      INSTANCE_ID: 'portal-1',
      MQTT_AUTH_HOOK_SECRET: 'hook-secret-0123456789abcdef',
      MQTT_MAX_PACKET_BYTES: '100000',
      MQTT_CONNECT_TIMEOUT_MS: '2000',
      INGEST_HOLD_MS: '0',
      MAP_TILE_URL: 'https://tiles.example.com/{z}/{x}/{y}.png',
      MAP_TILE_ATTRIBUTION: 'Example Tiles',
      FIRMWARE_VERSIONS: 'SFW003-1.2.3, SFW004-2.0.0',
      BILLING_PROVIDER: 'invoicing',
      CURRENCY: 'eur',
      PASSWORD_HASH_COST: 'test',
      NODE_ENV: 'test',
    });
    expect(config).toEqual({
      port: 0,
      host: '127.0.0.1',
      publicUrl: 'https://portal.example.com',
      dataDir: 'memory://',
      databaseUrl: 'postgres://u@db:5432/portal',
      statementTimeoutMs: 5000,
      smtpUrl: 'smtp://mail:25',
      mailFrom: 'Ops <ops@example.com>',
      supportEmail: 'help@example.com',
      seedDemo: false,
      logLevel: 'warn',
      webDist: '/srv/web',
      trustProxy: ['10.0.0.0/8', '127.0.0.1'],
      brandOverrides: { tank: { footerText: 'Tanks Ltd' } },
      brandHosts: { tank: 'https://portal.tankco.example', pump: 'http://pumps.example:8080' },
      rateLimitPerMinute: 50,
      mqttPort: 0,
      mqttUrl: 'mqtt://broker:1883',
      mqttSharedConnections: 32,
      mqttDeviceAuth: 'dynsec',
      mqttAllowAnonymous: true,
      instanceId: 'portal-1',
      mqttAuthHookSecret: 'hook-secret-0123456789abcdef',
      mqttMaxPacketBytes: 100_000,
      mqttConnectTimeoutMs: 2000,
      ingestHoldMs: 0,
      mapTiles: { url: 'https://tiles.example.com/{z}/{x}/{y}.png', attribution: 'Example Tiles' },
      firmwareVersions: ['SFW003-1.2.3', 'SFW004-2.0.0'],
      billingProvider: 'invoicing',
      currency: 'EUR',
      passwordHashCost: 'test',
    });
    expect(() => loadConfig({ MAP_TILE_URL: 'javascript:alert(1)' })).toThrow(/MAP_TILE_URL/);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
  });

  it.each([
    [{ PORT: 'eighty' }, 'Invalid configuration: PORT must be a number.'],
    [{ PORT: '70000' }, 'Invalid configuration: PORT must be 0-65535.'],
    [{ PUBLIC_URL: 'portal.example.com' }, /^Invalid configuration: PUBLIC_URL must be an http\(s\) URL/],
    [{ DATABASE_URL: 'mysql://x' }, 'Invalid configuration: DATABASE_URL must start with postgres://.'],
    [{ SMTP_URL: 'mail.example.com' }, 'Invalid configuration: SMTP_URL must start with smtp:// or smtps://.'],
    [{ SEED_DEMO: 'maybe' }, 'Invalid configuration: SEED_DEMO must be true or false.'],
    [
      { SUPPORT_EMAIL: 'help desk' },
      'Invalid configuration: SUPPORT_EMAIL must be one e-mail address such as support@example.com.',
    ],
    [{ LOG_LEVEL: 'loud' }, /^Invalid configuration: LOG_LEVEL /],
    [{ BRAND_OVERRIDES: '{not json' }, 'Invalid configuration: BRAND_OVERRIDES must be a JSON object.'],
    [{ BRAND_OVERRIDES: '{"nobrand":{}}' }, /^Invalid configuration: BRAND_OVERRIDES /],
    [{ BRAND_HOSTS: '{not json' }, 'Invalid configuration: BRAND_HOSTS must be a JSON object.'],
    [{ BRAND_HOSTS: '["https://tank.example"]' }, /^Invalid configuration: BRAND_HOSTS must map brand ids/],
    [{ BRAND_HOSTS: '{"tanker":"https://tank.example"}' }, /^Invalid configuration: BRAND_HOSTS /],
    [{ BRAND_HOSTS: '{"__proto__":"https://tank.example"}' }, /^Invalid configuration: BRAND_HOSTS /],
    [
      { BRAND_HOSTS: '{"tank":"ftp://tank.example"}' },
      /^Invalid configuration: BRAND_HOSTS must map brand ids to http\(s\) origins/,
    ],
    [{ BRAND_HOSTS: '{"tank":"https://tank.example/portal"}' }, /^Invalid configuration: BRAND_HOSTS .*origins/],
    [{ BRAND_HOSTS: '{"tank":"https://user:pw@tank.example"}' }, /^Invalid configuration: BRAND_HOSTS .*origins/],
    [{ BRAND_HOSTS: '{"tank":"tank.example"}' }, /^Invalid configuration: BRAND_HOSTS .*origins/],
    [{ BRAND_HOSTS: '{"tank":7}' }, /^Invalid configuration: BRAND_HOSTS /],
    [{ RATE_LIMIT_PER_MINUTE: '0' }, 'Invalid configuration: RATE_LIMIT_PER_MINUTE must be at least 1.'],
    [{ MQTT_SHARED_CONNECTIONS: '0' }, 'Invalid configuration: MQTT_SHARED_CONNECTIONS must be 1-1000.'],
    [{ MQTT_DEVICE_AUTH: 'acl' }, 'Invalid configuration: MQTT_DEVICE_AUTH must be broker or dynsec.'],
    [{ INSTANCE_ID: 'a b' }, 'Invalid configuration: INSTANCE_ID must be 1-40 letters, digits, - or _.'],
    [{ INGEST_HOLD_MS: '-1' }, 'Invalid configuration: INGEST_HOLD_MS must be 0-60000.'],
    [
      { FIRMWARE_VERSIONS: 'SFW003-1.2.3,latest' },
      /^Invalid configuration: FIRMWARE_VERSIONS 'latest' is not a firmware string/,
    ],
    [{ CURRENCY: 'XYZ1' }, /^Invalid configuration: CURRENCY must be an ISO 4217 currency code/],
    [{ BILLING_PROVIDER: 'stripe' }, /^Invalid configuration: BILLING_PROVIDER must be one of invoicing/],
  ])('refuses %o with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('documents every variable it reads', () => {
    expect(CONFIG_VARIABLES.map((v) => v.name).sort()).toEqual(
      [
        'PORT',
        'HOST',
        'PUBLIC_URL',
        'DATA_DIR',
        'DATABASE_URL',
        'DB_STATEMENT_TIMEOUT_MS',
        'SMTP_URL',
        'MAIL_FROM',
        'SUPPORT_EMAIL',
        'SEED_DEMO',
        'LOG_LEVEL',
        'WEB_DIST',
        'TRUST_PROXY',
        'BRAND_OVERRIDES',
        'BRAND_HOSTS',
        'RATE_LIMIT_PER_MINUTE',
        'REDIS_URL',
        'MQTT_PORT',
        'MQTT_URL',
        'MQTT_SHARED_CONNECTIONS',
        'MQTT_DEVICE_AUTH',
        'MQTT_ALLOW_ANONYMOUS',
        'INSTANCE_ID',
        'MQTT_AUTH_HOOK_SECRET',
        'MQTT_MAX_PACKET_BYTES',
        'MQTT_CONNECT_TIMEOUT_MS',
        'INGEST_HOLD_MS',
        'MAP_TILE_URL',
        'MAP_TILE_ATTRIBUTION',
        'FIRMWARE_VERSIONS',
        'BILLING_PROVIDER',
        'CURRENCY',
        'PASSWORD_HASH_COST',
      ].sort(),
    );
  });
});

/** Runs main.ts as `npm start` would, until `until` matches the output or the process exits. */
function runMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const output = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stdout);
        if (match) resolve(match);
      };
      child.stdout.on('data', check);
      void exited.then(() => reject(new Error(`exited before ${pattern}: ${stdout} ${stderr}`)));
      check();
    });
  return { child, exited, output, text: () => ({ stdout, stderr }) };
}

async function takePort(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('start-up', () => {
  it('a taken port is one line naming PORT (startPortal)', async () => {
    const taken = await takePort();
    try {
      const config = loadConfig({
        PORT: String(taken.port),
        MQTT_PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: 'memory://',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'silent',
      });
      await expect(startPortal(config)).rejects.toThrow(
        `Port ${taken.port} is already in use: set PORT to a free port.`,
      );
    } finally {
      await taken.close();
    }
  });

  it('a PGlite directory is used by one portal at a time, and keeps its data across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-data-'));
    try {
      const first = await openDatabase({ dataDir: dir });
      await first.exec('CREATE TABLE kept (v text)');
      await first.query("INSERT INTO kept VALUES ('still here')");
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(
        `The database in ${dir} is in use by another portal (pid ${process.pid}): stop it or set DATA_DIR to another directory.`,
      );
      await first.close();
      const second = await openDatabase({ dataDir: dir });
      expect(await second.query('SELECT v FROM kept')).toEqual([{ v: 'still here' }]);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('main.ts prints the URL and the accounts, answers, and stops cleanly on SIGTERM', async () => {
    const run = runMain({ PORT: '0', MQTT_PORT: '0', HOST: '127.0.0.1', DATA_DIR: 'memory://' });
    try {
      const [, url] = await run.output(/Portal is running at (http:\/\/localhost:\d+)/);
      await run.output(/API reference/);
      const { stdout } = run.text();
      expect(stdout).toContain('demo@portal.local / demo-portal-2026');
      expect(stdout).toContain('staff@portal.local / staff-portal-2026');
      expect(stdout).toContain(
        `Mail is not configured (SMTP_URL): messages are logged and kept in the outbox, readable by staff at ${url}/api/outbox`,
      );
      const port = new URL(url!).port;
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(await health.json()).toEqual({ status: 'ok' });
      const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-requested-with': 'portal' },
        body: JSON.stringify({ email: 'demo@portal.local', password: 'demo-portal-2026' }),
      });
      expect(login.status).toBe(200);
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  it('main.ts on a taken port prints one line and exits 78 (EX_CONFIG: npm start does not restart it)', async () => {
    const taken = await takePort();
    try {
      const run = runMain({
        PORT: String(taken.port),
        MQTT_PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: 'memory://',
        SEED_DEMO: 'false',
      });
      expect(await run.exited).toBe(EX_CONFIG);
      const { stderr, stdout } = run.text();
      expect(stderr.trim()).toBe(`Port ${taken.port} is already in use: set PORT to a free port.`);
      expect(stdout.trim()).toBe('');
    } finally {
      await taken.close();
    }
  });

  it('main.ts with a bad variable prints one line and exits 78 (EX_CONFIG)', async () => {
    const run = runMain({ PORT: 'eighty' });
    expect(await run.exited).toBe(EX_CONFIG);
    expect(run.text().stderr.trim()).toBe('Invalid configuration: PORT must be a number.');
  });
});
