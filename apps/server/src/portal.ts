/**
 * startPortal: opens the database, migrates, seeds when asked, builds the app and listens.
 * main.ts and the tests start the portal through this one function.
 */
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { withBrandOverrides } from '@portal/core';
import { buildApp, type AppOptions } from './app';
import { ConfigError, type Config } from './config';
import { openDatabase, type Db } from './db/db';
import { migrate } from './db/migrate';
import { seedDemo } from './seed';
import { portalBrokerUser } from './modules/mqtt-auth/mqtt-auth.service';
import { startEmbeddedBroker } from './ingest/mqtt-embedded';
import { connectExternalBroker } from './ingest/mqtt-external';
import type { MqttIngest } from './ingest/mqtt-device-messages';
import { connectDynsec, type DynsecClient } from './modules/broker/broker-accounts.service';
import { anonymousCanPublish, brokerUrlUser } from './modules/broker/broker-check';

export interface Portal {
  /** The address to open: PUBLIC_URL, else http://localhost:{port}. */
  url: string;
  port: number;
  /** The embedded MQTT broker's port; null when MQTT_URL names an external broker. */
  mqttPort: number | null;
  app: FastifyInstance;
  db: Db;
  /** Stops accepting requests, finishes background work, then closes the database. */
  close(): Promise<void>;
}

/** Options that only tests and tools set (the environment cannot). */
export type PortalOptions = Omit<
  AppOptions,
  | 'db'
  | 'publicUrl'
  | 'brandHosts'
  | 'smtpUrl'
  | 'mailFrom'
  | 'supportEmail'
  | 'webDist'
  | 'trustProxy'
  | 'brands'
  | 'rateLimitPerMinute'
  | 'redisUrl'
  | 'logLevel'
  | 'passwordHashCost'
> & {
  /** PostgreSQL only: work in this schema (tests isolate runs with it). */
  dbSchema?: string;
  /** PGlite only: a new database starts from this dumped data directory (tests: a migrated one). */
  pgliteTemplate?: string;
  /** External broker only: the shared-subscription group (default 'portal'; tests isolate runs with it). */
  mqttShareGroup?: string;
  /** External broker only: parallel subscriber connections (default MQTT_SHARED_CONNECTIONS). */
  mqttConnections?: number;
};

/** One line for a failed listen, naming the variable to change (a ConfigError: starting again cannot help). */
function listenError(error: unknown, variable: string, port: number): Error {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') return new ConfigError(`Port ${port} is already in use: set ${variable} to a free port.`);
  if (code === 'EACCES')
    return new ConfigError(`Port ${port} needs privileges this process lacks: set ${variable} to a port above 1023.`);
  if (code === 'EADDRNOTAVAIL') return new ConfigError(`The address to listen on is not available: check HOST.`);
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Before an external broker is used: with MQTT_DEVICE_AUTH=dynsec, the connection that keeps the
 * devices' accounts (and the portal user's own role); then, unless MQTT_ALLOW_ANONYMOUS, the
 * check that a client without credentials cannot publish device data.
 */
async function prepareExternalBroker(config: Config, url: string): Promise<DynsecClient | undefined> {
  let accounts: DynsecClient | undefined;
  if (config.mqttDeviceAuth === 'dynsec') {
    const user = brokerUrlUser(url).username;
    if (!user)
      throw new ConfigError(
        "MQTT_DEVICE_AUTH=dynsec: MQTT_URL must name the dynamic security plugin's admin user (mqtt://user:password@host:port).",
      );
    accounts = await connectDynsec(url);
    try {
      await accounts.ensureServerRole(user);
    } catch (error) {
      await accounts.close();
      throw error;
    }
  }
  try {
    if (!config.mqttAllowAnonymous && (await anonymousCanPublish(url)))
      throw new ConfigError(
        "The MQTT broker at MQTT_URL lets a client without credentials publish to dev/+/data, so any device could be impersonated. Give the broker device authentication (README, 'Running several instances'), or set MQTT_ALLOW_ANONYMOUS=true to start anyway.",
      );
  } catch (error) {
    await accounts?.close();
    throw error;
  }
  return accounts;
}

export async function startPortal(config: Config, options: PortalOptions = {}): Promise<Portal> {
  const { dbSchema, pgliteTemplate, mqttShareGroup, mqttConnections, ...appOptions } = options;
  const db = await openDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    schema: dbSchema,
    pgliteTemplate,
    statementTimeoutMs: config.statementTimeoutMs,
  });
  let app: FastifyInstance | undefined;
  let mqttIngest: MqttIngest | undefined;
  let brokerAccounts: DynsecClient | undefined;
  try {
    await migrate(db);
    if (config.mqttUrl) brokerAccounts = await prepareExternalBroker(config, config.mqttUrl);
    app = await buildApp({
      ...(brokerAccounts ? { brokerAccounts } : {}),
      // Before appOptions: a test gives the hooks a portal user without an MQTT_URL to connect to.
      ...(config.mqttAuthHookSecret
        ? { mqttAuthHooks: { secret: config.mqttAuthHookSecret, portalUser: portalBrokerUser(config.mqttUrl) } }
        : {}),
      ...appOptions,
      telemetry: { derivedHoldMs: config.ingestHoldMs, ...appOptions.telemetry },
      db,
      publicUrl: config.publicUrl,
      brandHosts: config.brandHosts,
      smtpUrl: config.smtpUrl,
      mailFrom: config.mailFrom,
      supportEmail: config.supportEmail,
      webDist: config.webDist,
      trustProxy: config.trustProxy,
      brands: withBrandOverrides(config.brandOverrides),
      rateLimitPerMinute: config.rateLimitPerMinute,
      redisUrl: config.redisUrl,
      logLevel: config.logLevel,
      passwordHashCost: config.passwordHashCost,
      mapTiles: config.mapTiles,
      firmwareVersions: config.firmwareVersions,
      currency: config.currency,
      billing: { provider: config.billingProvider, ...appOptions.billing },
    });
    // Derived rows a stopped process held back are rebuilt before any ingest starts.
    await app.services.telemetry.recoverDerived();
    if (config.seedDemo) await seedDemo(app.services);
    await app.ready();
    try {
      await app.listen({ port: config.port, host: config.host });
    } catch (error) {
      throw listenError(error, 'PORT', config.port);
    }
    const { telemetry, delivery } = app.services;
    if (config.mqttUrl) {
      mqttIngest = await connectExternalBroker({
        url: config.mqttUrl,
        shareGroup: mqttShareGroup ?? 'portal',
        connections: mqttConnections ?? config.mqttSharedConnections,
        telemetry,
        delivery,
        log: app.log,
        listen: (channel, onNotify) => db.listen(channel, onNotify),
        instanceId: config.instanceId,
      });
    } else {
      try {
        mqttIngest = await startEmbeddedBroker({
          port: config.mqttPort,
          host: config.host,
          limits: { maxPacketBytes: config.mqttMaxPacketBytes, connectTimeoutMs: config.mqttConnectTimeoutMs },
          telemetry,
          delivery,
          log: app.log,
        });
      } catch (error) {
        throw listenError(error, 'MQTT_PORT', config.mqttPort);
      }
    }
  } catch (error) {
    await mqttIngest?.close().catch(() => undefined);
    await brokerAccounts?.close();
    await app?.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw error;
  }

  const port = (app.server.address() as AddressInfo).port;
  const url = config.publicUrl ?? `http://localhost:${port}`;
  const started = app;
  const mqtt = mqttIngest;
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    mqttPort: mqtt.port,
    app: started,
    db,
    close() {
      closing ??= (async () => {
        // Devices first (no new messages), then HTTP and the ingest queue, then the database.
        await mqtt.close().catch(() => undefined);
        await started.close();
        await brokerAccounts?.close();
        await db.close();
      })();
      return closing;
    },
  };
}
