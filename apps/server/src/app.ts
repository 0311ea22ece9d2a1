/**
 * buildApp: the whole HTTP application (plugins, services, routes) on a given database.
 * It never listens; portal.ts does, for both main.ts and the tests.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { AddressInfo } from 'node:net';
import type { DestinationStream } from 'pino';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import {
  BRANDS,
  brandOverridesOf,
  DEFAULT_CURRENCY,
  DEFAULT_FIRMWARE_VERSIONS,
  DEFAULT_MAP_TILES,
  tileImageSource,
  type BrandConfig,
  type BrandHosts,
  type BrandId,
  type MapTiles,
} from '@portal/core';
import type { Db } from './db/db';
import { systemClock, type Clock } from './clock';
import { createBackgroundTasks } from './background';
import { DEFAULT_SUPPORT_EMAIL, type TrustProxy } from './config';
import { registerDatabase } from './plugins/database';
import { ADDRESS_TOO_LONG_MESSAGE, MAX_PARAM_LENGTH, registerErrorHandling } from './plugins/errors';
import { registerCsrf } from './plugins/csrf';
import { registerAuth } from './plugins/auth';
import { registerRequestContext } from './plugins/request-context';
import { registerGuardPlacement } from './plugins/route-security';
import { createPublicAddresses } from './public-addresses';
import { perMinute, registerRateLimit } from './plugins/rate-limit';
import { registerSwagger } from './plugins/swagger';
import { registerStatic } from './plugins/static';
import { registerCompression } from './plugins/compression';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerStorableInput } from './plugins/storable-input';
import { answerClientError } from './plugins/http-parse-errors';
import type { PasswordHashCost } from './security';
import { createAuthService, DEFAULT_AUTH_LIMITS, type AuthLimits, type AuthService } from './modules/auth/auth.service';
import { registerAuthRoutes } from './modules/auth/auth.routes';
import { createMfaService } from './modules/auth/mfa.service';
import { createAccountService, type AccountService } from './modules/account/account.service';
import { registerAccountRoutes } from './modules/account/account.routes';
import { createGroupsService } from './modules/groups/groups.service';
import { registerGroupsRoutes } from './modules/groups/groups.routes';
import { createGroupDataService } from './modules/groups/group-data.service';
import { createGroupMetricsService } from './modules/groups/group-metrics.service';
import { registerGroupMetricsRoutes } from './modules/groups/group-metrics.routes';
import { createViewsService } from './modules/views/views.service';
import { registerViewsRoutes } from './modules/views/views.routes';
import { createSearchService } from './modules/search/search.service';
import { registerSearchRoutes } from './modules/search/search.routes';
import {
  createOutboxMailer,
  createOutboxService,
  createOutboxSmsSender,
  createSmtpMailer,
  type Mailer,
  type SmsSender,
} from './modules/mail/mail.service';
import { registerMailRoutes } from './modules/mail/mail.routes';
import { createClientErrorsService } from './modules/client-errors/client-errors.service';
import { registerClientErrorsRoutes } from './modules/client-errors/client-errors.routes';
import { createHealthService } from './modules/health/health.service';
import { registerHealthRoutes } from './modules/health/health.routes';
import { registerSiteRoutes } from './modules/site/site.routes';
import { registerRobotsRoute } from './modules/site/robots';
import { createAccessService, type AccessService } from './modules/access/access.service';
import { createDeliveryService, type DeliveryOptions, type DeliveryService } from './modules/delivery/delivery.service';
import { createCommandsService } from './modules/delivery/commands.service';
import { registerDeliveryRoutes } from './modules/delivery/delivery.routes';
import { createDeviceLogService } from './modules/device-log/device-log.service';
import { createDevicesService } from './modules/devices/devices.service';
import { createDeviceRegistry, type DeviceRegistry } from './modules/devices/devices.registry';
import type { BrokerAccounts } from './modules/broker/broker-accounts.service';
import { registerDevicesRoutes } from './modules/devices/devices.routes';
import {
  createTelemetryService,
  type TelemetryOptions,
  type TelemetryService,
} from './modules/telemetry/telemetry.service';
import { registerTelemetryRoutes } from './modules/telemetry/telemetry.routes';
import { createDeviceConfigService } from './modules/device-config/device-config.service';
import { registerDeviceConfigRoutes } from './modules/device-config/device-config.routes';
import { createAlertsService, type AlertsOptions, type AlertsService } from './modules/alerts/alerts.service';
import { registerAlertsRoutes } from './modules/alerts/alerts.routes';
import { createImagesService } from './modules/images/images.service';
import { createWidgetImagesService } from './modules/widget-images/widget-images.service';
import { registerWidgetImagesRoutes } from './modules/widget-images/widget-images.routes';
import { createUserBrandImageService } from './modules/user-brand-image/user-brand-image.service';
import { registerUserBrandImageRoutes } from './modules/user-brand-image/user-brand-image.routes';
import { createSupportService } from './modules/support/support.service';
import { registerSupportRoutes } from './modules/support/support.routes';
import { createBillingService, type BillingOptions, type BillingService } from './modules/billing/billing.service';
import { registerBillingRoutes } from './modules/billing/billing.routes';
import { createPaymentProvider, type PaymentProviderId } from './modules/billing/billing.provider';
import { createApiCredentialsService } from './modules/api-credentials/api-credentials.service';
import { registerApiCredentialsRoutes } from './modules/api-credentials/api-credentials.routes';
import { registerBearerAuth } from './modules/api-credentials/bearer';
import { createVirtualDevicesService } from './modules/devices/virtual-devices.service';
import { registerVirtualDevicesRoutes } from './modules/devices/virtual-devices.routes';
import { createStaffService } from './modules/staff/staff.service';
import { registerStaffRoutes } from './modules/staff/staff.routes';
import { createProvisioningService } from './modules/provisioning/provisioning.service';
import { createProvDevicesService } from './modules/provisioning/prov-devices.service';
import { registerProvisioningRoutes } from './modules/provisioning/provisioning.routes';
import { registerIngestRoutes } from './ingest/http';
import { createMqttAuthService, type MqttAuthHooksOptions } from './modules/mqtt-auth/mqtt-auth.service';
import { registerMqttAuthRoutes } from './modules/mqtt-auth/mqtt-auth.routes';

/** Default body limit of every route: the API takes small JSON bodies only. */
export const BODY_LIMIT = 64 * 1024;

export interface AppOptions {
  db: Db;
  clock?: Clock;
  /** PUBLIC_URL: the public base URL of links that leave the portal; unset: http://localhost:{listening port}. */
  publicUrl?: string | undefined;
  /** BRAND_HOSTS: the origins of brands whose hosts are not a prefix of PUBLIC_URL. */
  brandHosts?: BrandHosts;
  smtpUrl?: string | undefined;
  mailFrom?: string;
  /** Where support requests go (SUPPORT_EMAIL); DEFAULT_SUPPORT_EMAIL by default. */
  supportEmail?: string;
  /** Replaces the mailer chosen from smtpUrl (tests). */
  mailer?: Mailer;
  smsSender?: SmsSender;
  /** Built web app; null or missing: pages answer 503. */
  webDist?: string | null;
  trustProxy?: TrustProxy;
  brands?: Readonly<Record<BrandId, BrandConfig>>;
  /** Requests per minute per client address on each sign-in family route. */
  rateLimitPerMinute?: number;
  /** REDIS_URL: request-limit counters in Redis instead of the database. */
  redisUrl?: string | undefined;
  authLimits?: Partial<AuthLimits>;
  /** PASSWORD_HASH_COST: scrypt's work factors for new password hashes ('standard' by default). */
  passwordHashCost?: PasswordHashCost;
  /** Ingest queue, retention and delivery settings (tests). */
  telemetry?: Partial<TelemetryOptions & DeliveryOptions>;
  /** Alert timer (tests: tickMs 0, and they call services.alerts.tick()). */
  alerts?: Partial<AlertsOptions>;
  logLevel?: string;
  /** Where map tiles come from (MAP_TILE_URL); OpenStreetMap's by default. */
  mapTiles?: MapTiles;
  /** The known firmware a firmware update may name (FIRMWARE_VERSIONS); DEFAULT_FIRMWARE_VERSIONS by default. */
  firmwareVersions?: readonly string[];
  /** Where logs go (default stdout). */
  logStream?: DestinationStream;
  /** The payment provider (BILLING_PROVIDER) and the billing sweep timer (tests: sweepMs 0, and they call services.billing.sweep()). */
  billing?: Partial<BillingOptions & { provider: PaymentProviderId }>;
  /** The currency prices and revenue are in (CURRENCY); DEFAULT_CURRENCY by default. */
  currency?: string;
  /** MQTT_AUTH_HOOK_SECRET and the portal's broker user: the HTTP hooks of an external broker; none when unset. */
  mqttAuthHooks?: MqttAuthHooksOptions;
  /** Device accounts at an external broker (MQTT_DEVICE_AUTH=dynsec); none by default. */
  brokerAccounts?: BrokerAccounts;
}

export interface AppServices {
  auth: AuthService;
  account: AccountService;
  mailer: Mailer;
  access: AccessService;
  /** The devices table as tests and tools read and write it (create, key check, summary). */
  devices: DeviceRegistry;
  telemetry: TelemetryService;
  delivery: DeliveryService;
  alerts: AlertsService;
  billing: BillingService;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
  }
}

const CODE_IN_PATH = /^(\/api\/auth\/(?:verify|reset)\/)[^/?#]+/;
/** The broker hooks' secret when a broker sends it in the query (MQTT_AUTH_HOOK_SECRET). */
const SECRET_IN_QUERY = /([?&]secret=)[^&#]*/g;

/** Request log line: method, path (link codes and secrets masked), host and client address; never headers. */
function serializeRequest(request: { method: string; url: string; host?: string; ip?: string }) {
  return {
    method: request.method,
    url: request.url.replace(CODE_IN_PATH, '$1[redacted]').replace(SECRET_IN_QUERY, '$1[redacted]'),
    host: request.host,
    remoteAddress: request.ip,
  };
}

/** pino-pretty in a terminal: local time, no pid or host name, each entry on one line. */
const PRETTY_LOGS = { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true };

function loggerOptions(options: AppOptions): FastifyServerOptions['logger'] {
  return {
    level: options.logLevel ?? 'info',
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        '*.password',
        '*.currentPassword',
        '*.newPassword',
        '*.totpSecret',
        '*.passwordHash',
      ],
      censor: '[redacted]',
    },
    serializers: { req: serializeRequest },
    // The given stream (tests); one readable line per entry in a terminal; JSON lines otherwise
    // (a pipe, a log collector, CI).
    ...(options.logStream
      ? { stream: options.logStream }
      : process.stdout.isTTY
        ? { transport: { target: 'pino-pretty', options: PRETTY_LOGS } }
        : {}),
  };
}

/** A hop count becomes a function: Fastify's types take booleans, addresses or a function. */
function trustProxySetting(
  trust: TrustProxy | undefined,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust ?? false;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(options),
    trustProxy: trustProxySetting(options.trustProxy),
    bodyLimit: BODY_LIMIT,
    forceCloseConnections: true,
    clientErrorHandler: answerClientError,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Errors raised by the router before any route (malformed URL, over-long parameter; a GET or
    // HEAD the web app's wildcard took instead comes to the not-found handler: plugins/errors.ts).
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode ?? 400;
      void (reply as FastifyReply).code(status).send({
        message: status === 414 ? ADDRESS_TOO_LONG_MESSAGE : 'The address is malformed.',
        code: 'BAD_REQUEST',
      });
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // An empty body with a JSON content type reads as "no body" (a POST with no payload).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    return parseJson(request, text, done);
  });

  const db = options.db;
  const clock = options.clock ?? systemClock;
  const brands = options.brands ?? BRANDS;
  // The origin of each brand's links, from configuration (mails, labels, the request's own brand).
  const addresses = createPublicAddresses({
    brands,
    publicUrl: options.publicUrl,
    localUrl: () => `http://localhost:${(app.server.address() as AddressInfo | null)?.port ?? 80}`,
    ...(options.brandHosts ? { brandHosts: options.brandHosts } : {}),
  });
  const background = createBackgroundTasks(app.log);
  const outboxDeps = { db, clock, log: app.log };
  const mailer =
    options.mailer ??
    (options.smtpUrl
      ? createSmtpMailer(options.smtpUrl, options.mailFrom ?? 'Portal <no-reply@portal.local>')
      : createOutboxMailer(outboxDeps));
  const sms = options.smsSender ?? createOutboxSmsSender(outboxDeps);

  // Wiring goes one way: each service is made from those above it. The one hook (onSignup) is
  // an event auth raises for the devices service (invitations waiting for the new address).
  const authLimits = { ...DEFAULT_AUTH_LIMITS, ...options.authLimits };
  const mfa = createMfaService({ db, clock, sms, limits: authLimits });
  const auth = createAuthService({
    db,
    clock,
    mailer,
    log: app.log,
    background,
    limits: authLimits,
    mfa,
    addresses,
    ...(options.passwordHashCost ? { passwordHashCost: options.passwordHashCost } : {}),
    onSignup: async (user) => {
      await devices.users.applyInvites(user.id, user.email);
      await groups.applyInvites(user.id, user.email);
    },
  });
  const access = createAccessService({ db, clock });
  const deviceLog = createDeviceLogService({ db, clock });
  const groups = createGroupsService({ db, clock, mailer, addresses, log: app.log, access });
  const delivery = createDeliveryService({
    db,
    clock,
    log: app.log,
    deviceLog,
    ...(options.telemetry ? { options: options.telemetry } : {}),
  });
  const registry = createDeviceRegistry({ db, clock, brokerAccounts: options.brokerAccounts });
  const alerts = createAlertsService({
    db,
    clock,
    access,
    deviceLog,
    mailer,
    sms,
    log: app.log,
    addresses,
    ...(options.alerts ? { options: options.alerts } : {}),
  });
  const telemetry = createTelemetryService({
    onStored: (stored) => alerts.recordsStored(stored),
    db,
    clock,
    devices: registry,
    access,
    delivery,
    deviceLog,
    log: app.log,
    ...(options.telemetry ? { options: options.telemetry } : {}),
  });
  const groupData = createGroupDataService({ db, access, clock, telemetry });
  const groupMetrics = createGroupMetricsService({ db, access, telemetry });
  const views = createViewsService({ db, clock, groups });
  const search = createSearchService({ access, groups });
  const images = createImagesService({ db, clock });
  const devices = createDevicesService({
    db,
    clock,
    mailer,
    log: app.log,
    mfa,
    access,
    groups,
    images,
    readings: telemetry,
  });
  const deviceConfig = createDeviceConfigService({
    db,
    clock,
    access,
    registry,
    devices: devices.settings,
    delivery,
    deviceLog,
    firmwareVersions: options.firmwareVersions ?? DEFAULT_FIRMWARE_VERSIONS,
  });
  const account = createAccountService({ db, clock, sms, auth, mfa });
  const apiCredentials = createApiCredentialsService({ db, clock, auth });
  const support = createSupportService({
    clock,
    access,
    devices: registry,
    deviceLog,
    mailer,
    log: app.log,
    supportEmail: options.supportEmail ?? DEFAULT_SUPPORT_EMAIL,
  });
  const staff = createStaffService({ db, clock, deviceLog, currency: options.currency ?? DEFAULT_CURRENCY });
  const outbox = createOutboxService({ db });
  const clientErrors = createClientErrorsService();
  const health = createHealthService({ db });
  const billing = createBillingService({
    db,
    clock,
    access,
    provider: createPaymentProvider(options.billing?.provider ?? 'invoicing'),
    currency: options.currency ?? DEFAULT_CURRENCY,
    log: app.log,
    options: { ...(options.billing?.sweepMs !== undefined ? { sweepMs: options.billing.sweepMs } : {}) },
  });
  app.decorate('services', {
    auth,
    account,
    mailer,
    access,
    devices: registry,
    telemetry,
    delivery,
    alerts,
    billing,
  });
  telemetry.startRetention();
  alerts.start();
  billing.start();

  const rateLimit = perMinute(options.rateLimitPerMinute ?? 20);

  registerDatabase(app, db);
  const mapTiles = options.mapTiles ?? DEFAULT_MAP_TILES;
  const tileSource = tileImageSource(mapTiles.url);
  registerSecurityHeaders(app, tileSource ? [tileSource] : []);
  registerStorableInput(app);
  registerRequestContext(app, addresses);
  // Credentials before content: every route's guards run onRequest, after these global onRequest
  // hooks (address text, CSRF header, session, API key) and before the body is read or validated.
  registerGuardPlacement(app);
  registerCsrf(app);
  await registerAuth(app, auth);
  await registerRateLimit(app, { db, redisUrl: options.redisUrl });
  // API keys (Authorization: Bearer): after the session and the rate-limit plugin, before any route.
  registerBearerAuth(app, apiCredentials);
  // The web app's files before compression: they leave as the build compressed them. Every route
  // declared after it (the API, the OpenAPI document) is compressed over 1 kB.
  const fallback = await registerStatic(app, options.webDist ?? null, brandOverridesOf(brands));
  await registerCompression(app);
  await registerSwagger(app);
  registerErrorHandling(app, { fallback });

  registerHealthRoutes(app, health);
  registerSiteRoutes(app, { mapTiles });
  registerRobotsRoute(app);
  registerAuthRoutes(app, auth, mfa, rateLimit);
  registerAccountRoutes(app, account, rateLimit);
  registerGroupsRoutes(app, groups, groupData);
  registerGroupMetricsRoutes(app, groupMetrics);
  registerViewsRoutes(app, views);
  registerSearchRoutes(app, search);
  registerMailRoutes(app, outbox);
  registerClientErrorsRoutes(app, clientErrors, rateLimit);
  registerDevicesRoutes(app, devices);
  registerWidgetImagesRoutes(app, createWidgetImagesService({ db, clock, access, images }));
  registerUserBrandImageRoutes(app, createUserBrandImageService({ db, images }));
  registerTelemetryRoutes(app, telemetry, deviceConfig);
  registerDeliveryRoutes(app, createCommandsService({ access, delivery }));
  registerDeviceConfigRoutes(app, deviceConfig);
  registerAlertsRoutes(app, alerts, rateLimit);
  registerSupportRoutes(app, support);
  registerBillingRoutes(app, billing);
  registerApiCredentialsRoutes(app, apiCredentials);
  registerVirtualDevicesRoutes(
    app,
    createVirtualDevicesService({ db, clock, groups, brokerAccounts: options.brokerAccounts }),
  );
  registerStaffRoutes(app, staff);
  registerProvisioningRoutes(
    app,
    createProvisioningService({ db, clock, addresses }),
    createProvDevicesService({ db, clock, addresses, devices: registry, delivery }),
  );
  await registerIngestRoutes(app, telemetry, delivery);
  if (options.mqttAuthHooks) {
    await registerMqttAuthRoutes(app, createMqttAuthService({ registry, options: options.mqttAuthHooks }));
  }

  app.addHook('onClose', async () => {
    await telemetry.close();
    await alerts.close();
    await billing.close();
    await delivery.close();
    await background.drain();
    await mailer.close();
  });
  return app;
}
