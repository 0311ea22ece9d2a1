/**
 * A real portal on ephemeral ports for a test (the same startPortal as main), on PGlite or a fresh
 * PostgreSQL schema, with a test clock, captured logs and a client per caller.
 */
import { loadConfig, type Config } from '../../src/config';
import { startPortal, type Portal, type PortalOptions } from '../../src/portal';
import { pgliteTemplate, TEST_PORTAL_ENV } from '../suite-setup';
import { ApiClient, type ResponseLogEntry } from './api-client';
import { captureLogs, type LogCapture } from './logs';
import { dropSchema, findPostgres, newSchemaName } from './postgres';
import { TestClock } from './test-clock';

export type DbKind = 'pglite' | 'postgres';

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
