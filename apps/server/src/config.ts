/**
 * Configuration: every environment variable the server reads, parsed and validated once at start.
 * The variables' catalogue (names, defaults, meanings: the README's table) is config-variables.ts.
 */
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { z } from 'zod';
import {
  BRAND_IDS,
  DEFAULT_BILLING_PROVIDER,
  DEFAULT_CURRENCY,
  DEFAULT_FIRMWARE_VERSIONS,
  DEFAULT_MAP_TILES,
  isBrandId,
  isKnownCurrency,
  isTileUrlTemplate,
  isValidEmail,
  normaliseEmail,
  parseFirmwareList,
  type BrandConfig,
  type BrandHosts,
  type BrandId,
  type MapTiles,
} from '@portal/core';

import { PAYMENT_PROVIDER_IDS, type PaymentProviderId } from './modules/billing/billing.provider';
import type { PasswordHashCost } from './security';
import { DEFAULT_MQTT_MAX_PACKET_BYTES, DEFAULT_SUPPORT_EMAIL, MIN_MQTT_MAX_PACKET_BYTES } from './config-variables';

export { DEFAULT_SUPPORT_EMAIL } from './config-variables';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export type TrustProxy = boolean | number | string[];
export type BrandOverrides = Partial<Record<BrandId, Partial<Omit<BrandConfig, 'id'>>>>;

export interface Config {
  port: number;
  host: string;
  publicUrl: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL's statement_timeout in ms (0: none). */
  statementTimeoutMs: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The address support requests are mailed to (SUPPORT_EMAIL). */
  supportEmail: string;
  seedDemo: boolean;
  logLevel: string;
  webDist: string;
  trustProxy: TrustProxy;
  brandOverrides: BrandOverrides;
  /** BRAND_HOSTS: the origins of brands whose hosts are not a prefix of PUBLIC_URL. */
  brandHosts: BrandHosts;
  rateLimitPerMinute: number;
  redisUrl: string | undefined;
  mqttPort: number;
  mqttUrl: string | undefined;
  mqttSharedConnections: number;
  mqttDeviceAuth: 'broker' | 'dynsec';
  mqttAllowAnonymous: boolean;
  instanceId: string | undefined;
  /** MQTT_AUTH_HOOK_SECRET: the broker HTTP hooks are on when set. */
  mqttAuthHookSecret: string | undefined;
  mqttMaxPacketBytes: number;
  mqttConnectTimeoutMs: number;
  ingestHoldMs: number;
  mapTiles: MapTiles;
  /** The firmware strings a firmware update may name (FIRMWARE_VERSIONS). */
  firmwareVersions: string[];
  /** The payment provider (BILLING_PROVIDER). */
  billingProvider: PaymentProviderId;
  /** The currency of prices and invoices (CURRENCY). */
  currency: string;
  /** PASSWORD_HASH_COST: 'test' only under NODE_ENV=test. */
  passwordHashCost: PasswordHashCost;
}

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/** A whole number from `min` to `max` ('must be min-max' otherwise), `fallback` when unset or blank. */
const wholeNumber = (min: number, max: number, fallback: number) =>
  z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ message: 'must be a number' })
      .int('must be a whole number')
      .min(min, `must be ${min}-${max}`)
      .max(max, `must be ${min}-${max}`)
      .default(fallback),
  );

const optionalText = z.preprocess(blankToUndefined, z.string().optional());

const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const BrandFieldsSchema = z.record(z.string(), z.unknown());
const BrandOverridesSchema = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
      return z.NEVER;
    }
  })
  .pipe(
    z.partialRecord(z.enum(BRAND_IDS), BrandFieldsSchema, { message: 'must map brand ids to objects of brand fields' }),
  )
  .transform((v) => v as BrandOverrides);

/** An http(s) origin (scheme, host, optional port; no path, query or credentials), without a trailing slash. */
const HttpOriginSchema = z.string().transform((text, ctx) => {
  let url: URL | null = null;
  try {
    url = new URL(text.trim());
  } catch {
    url = null;
  }
  if (
    !url ||
    !['http:', 'https:'].includes(url.protocol) ||
    url.username !== '' ||
    url.password !== '' ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    ctx.addIssue({
      code: 'custom',
      message: 'must map brand ids to http(s) origins such as https://portal.tankco.example',
    });
    return z.NEVER;
  }
  return url.origin;
});
const BrandHostsSchema = z
  .string()
  .transform((text, ctx) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
      return z.NEVER;
    }
    // Every own key, '__proto__' too (which a record schema passes over), must be a brand id.
    const unknown =
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.keys(value).filter((key) => !isBrandId(key))
        : [];
    if (unknown.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `names no brand: ${unknown.join(', ')} (brands: ${BRAND_IDS.join(', ')})`,
      });
      return z.NEVER;
    }
    return value;
  })
  .pipe(
    z.partialRecord(z.enum(BRAND_IDS), HttpOriginSchema, {
      message: `must map brand ids (${BRAND_IDS.join(', ')}) to http(s) origins`,
    }),
  )
  .transform((v) => v as BrandHosts);

const TrustProxySchema = z.string().transform((text): TrustProxy => {
  const value = text.trim();
  if (value === 'true') return true;
  if (value === 'false' || value === '') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
});

const EnvSchema = z.object({
  PORT: wholeNumber(0, 65535, 8080),
  HOST: z.preprocess(blankToUndefined, z.string().default('0.0.0.0')),
  PUBLIC_URL: z.preprocess(
    blankToUndefined,
    z
      .url({ protocol: /^https?$/, message: 'must be an http(s) URL such as https://portal.example.com' })
      .transform((u) => u.replace(/\/+$/, ''))
      .optional(),
  ),
  DATA_DIR: z.preprocess(blankToUndefined, z.string().default('./data')),
  DATABASE_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres://')
      .optional(),
  ),
  DB_STATEMENT_TIMEOUT_MS: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ message: 'must be a number of milliseconds' })
      .int('must be a whole number of milliseconds')
      .min(0, 'must be from 0 to 3600000')
      .max(3_600_000, 'must be from 0 to 3600000')
      .default(30_000),
  ),
  SMTP_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
  ),
  MAIL_FROM: z.preprocess(blankToUndefined, z.string().default('Portal <no-reply@portal.local>')),
  SUPPORT_EMAIL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .transform((text) => normaliseEmail(text))
      .refine(isValidEmail, 'must be one e-mail address such as support@example.com')
      .default(DEFAULT_SUPPORT_EMAIL),
  ),
  SEED_DEMO: z.preprocess(blankToUndefined, booleanText.default(true)),
  LOG_LEVEL: z.preprocess(
    blankToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  WEB_DIST: optionalText,
  TRUST_PROXY: z.preprocess(blankToUndefined, TrustProxySchema.default(false)),
  BRAND_OVERRIDES: z.preprocess(blankToUndefined, BrandOverridesSchema.default({})),
  BRAND_HOSTS: z.preprocess(blankToUndefined, BrandHostsSchema.default({})),
  MAP_TILE_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine(isTileUrlTemplate, 'must be an http(s) tile URL template with {z}, {x} and {y}')
      .default(DEFAULT_MAP_TILES.url),
  ),
  MAP_TILE_ATTRIBUTION: z.preprocess(
    blankToUndefined,
    z.string().max(500, 'must be at most 500 characters').optional(),
  ),
  FIRMWARE_VERSIONS: z.preprocess(
    blankToUndefined,
    z
      .string()
      .transform((text, ctx) => {
        try {
          return parseFirmwareList(text);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: (error as Error).message });
          return z.NEVER;
        }
      })
      .default([...DEFAULT_FIRMWARE_VERSIONS]),
  ),
  BILLING_PROVIDER: z.preprocess(
    blankToUndefined,
    z
      .enum(PAYMENT_PROVIDER_IDS, { message: `must be one of ${PAYMENT_PROVIDER_IDS.join(', ')}` })
      .default(DEFAULT_BILLING_PROVIDER as PaymentProviderId),
  ),
  CURRENCY: z.preprocess(
    (value) => (typeof value === 'string' ? (value.trim() === '' ? undefined : value.trim().toUpperCase()) : value),
    z
      .string()
      .refine(isKnownCurrency, 'must be an ISO 4217 currency code such as USD, EUR or AUD')
      .default(DEFAULT_CURRENCY),
  ),
  REDIS_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
      .optional(),
  ),
  PASSWORD_HASH_COST: z.preprocess(
    blankToUndefined,
    z.enum(['standard', 'test'], { message: 'must be standard or test' }).default('standard'),
  ),
  MQTT_PORT: wholeNumber(0, 65535, 1883),
  MQTT_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^mqtts?:\/\//, 'must start with mqtt:// or mqtts://')
      .optional(),
  ),
  MQTT_SHARED_CONNECTIONS: wholeNumber(1, 1000, 128),
  MQTT_DEVICE_AUTH: z.preprocess(
    blankToUndefined,
    z.enum(['broker', 'dynsec'], { message: 'must be broker or dynsec' }).default('broker'),
  ),
  MQTT_ALLOW_ANONYMOUS: z.preprocess(blankToUndefined, booleanText.default(false)),
  INSTANCE_ID: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be 1-40 letters, digits, - or _')
      .optional(),
  ),
  MQTT_AUTH_HOOK_SECRET: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9._~-]{16,256}$/, "must be 16-256 letters, digits, '-', '.', '_' or '~'")
      .optional(),
  ),
  MQTT_MAX_PACKET_BYTES: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ message: 'must be a number' })
      .int('must be a whole number')
      .min(MIN_MQTT_MAX_PACKET_BYTES, `must be at least ${MIN_MQTT_MAX_PACKET_BYTES} (a 64 kB record and its headers)`)
      .max(268_435_460, 'must be at most 268435460 (the largest MQTT packet)')
      .default(DEFAULT_MQTT_MAX_PACKET_BYTES),
  ),
  MQTT_CONNECT_TIMEOUT_MS: wholeNumber(100, 600_000, 10_000),
  INGEST_HOLD_MS: wholeNumber(0, 60_000, 5000),
  RATE_LIMIT_PER_MINUTE: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ message: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .default(20),
  ),
});

/** Thrown for an invalid environment; the message is one line naming the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment once; throws a ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${String(issue.path[0] ?? '')} ${issue.message}.`);
  }
  const e = parsed.data;
  if (e.PASSWORD_HASH_COST === 'test' && env.NODE_ENV !== 'test') {
    throw new ConfigError(
      'Invalid configuration: PASSWORD_HASH_COST test is for the test suite only (NODE_ENV=test): passwords hashed with it are cheap to guess.',
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL,
    dataDir: e.DATA_DIR === 'memory://' ? e.DATA_DIR : resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    seedDemo: e.SEED_DEMO,
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST ? resolve(e.WEB_DIST) : resolve(REPO_ROOT, 'apps/web/dist'),
    trustProxy: e.TRUST_PROXY,
    brandOverrides: e.BRAND_OVERRIDES,
    brandHosts: e.BRAND_HOSTS,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    redisUrl: e.REDIS_URL,
    mqttPort: e.MQTT_PORT,
    mqttUrl: e.MQTT_URL,
    mqttSharedConnections: e.MQTT_SHARED_CONNECTIONS,
    mqttDeviceAuth: e.MQTT_DEVICE_AUTH,
    mqttAllowAnonymous: e.MQTT_ALLOW_ANONYMOUS,
    instanceId: e.INSTANCE_ID,
    mqttAuthHookSecret: e.MQTT_AUTH_HOOK_SECRET,
    mqttMaxPacketBytes: e.MQTT_MAX_PACKET_BYTES,
    mqttConnectTimeoutMs: e.MQTT_CONNECT_TIMEOUT_MS,
    ingestHoldMs: e.INGEST_HOLD_MS,
    mapTiles: {
      url: e.MAP_TILE_URL,
      attribution:
        e.MAP_TILE_ATTRIBUTION ?? (e.MAP_TILE_URL === DEFAULT_MAP_TILES.url ? DEFAULT_MAP_TILES.attribution : ''),
    },
    firmwareVersions: e.FIRMWARE_VERSIONS,
    billingProvider: e.BILLING_PROVIDER,
    currency: e.CURRENCY,
    passwordHashCost: e.PASSWORD_HASH_COST,
  };
}
