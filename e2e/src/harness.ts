import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext } from 'playwright-core';
import mqtt from 'mqtt';
import { DEVICE_ID_ALPHABET, type BrandOverrides, type DeviceModel, type UserGroup } from '@portal/core';
import { startPortal } from '../../apps/server/src/portal';
import { loadConfig } from '../../apps/server/src/config';
import { pgliteTemplate, TEST_PORTAL_ENV } from '../../apps/server/test/suite-setup';
import { launchBrowser, TEST_BROWSER_PATH, TEST_FLAGS } from './browser';
import { linkIn, startMailbox } from './mailbox';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '../..');

export type Stack = Awaited<ReturnType<typeof startStack>>;

/**
 * The real portal (PGlite in memory, built web app), a real SMTP server and Chromium.
 * `brandOverrides`: the portal's BRAND_OVERRIDES (brand fields over the built-in table).
 */
export async function startStack(options: { brandOverrides?: BrandOverrides } = {}) {
  const mailbox = await startMailbox();
  const portal = await startPortal(
    {
      ...loadConfig(TEST_PORTAL_ENV),
      port: 0,
      mqttPort: 0,
      host: '127.0.0.1',
      dataDir: 'memory://',
      smtpUrl: mailbox.url,
      // E2E_WEB_DIST: a build elsewhere (`vite build --outDir ...`), so two people can test their own builds at once.
      webDist: process.env.E2E_WEB_DIST ?? join(root, 'apps/web/dist'),
      seedDemo: true,
      rateLimitPerMinute: 1000,
      logLevel: 'warn',
      ...(options.brandOverrides ? { brandOverrides: options.brandOverrides } : {}),
    },
    { pgliteTemplate: pgliteTemplate() },
  );
  const browser: Browser = await launchBrowser(TEST_BROWSER_PATH, TEST_FLAGS);
  const port = portal.port;

  /** The portal's address under a brand host prefix ('' = default brand on localhost). */
  const url = (path = '/', hostPrefix = '') => `http://${hostPrefix}localhost:${port}${path}`;

  /** Calls the API like the web app does (JSON, CSRF header), keeping a cookie jar per caller. */
  function apiClient() {
    let cookies = new Map<string, string>();
    return async function call<T = unknown>(
      method: string,
      path: string,
      body?: unknown,
    ): Promise<{ status: number; body: T }> {
      const res = await fetch(url(path), {
        method,
        headers: {
          'content-type': 'application/json',
          'x-requested-with': 'portal',
          cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const [name, value] = (pair ?? '').split('=');
        if (name) cookies = new Map(cookies).set(name.trim(), value ?? '');
      }
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
    };
  }

  /** Signs up and verifies a fresh account through the API and the real mail. */
  async function createVerifiedUser(email: string, password: string): Promise<void> {
    const api = apiClient();
    const signup = await api('POST', '/api/auth/signup', { email, password });
    if (signup.status !== 201) throw new Error(`signup failed: ${JSON.stringify(signup)}`);
    const mail = await mailbox.waitFor(email);
    const code = new URL(linkIn(mail, '/verify/')).pathname.split('/').pop() ?? '';
    const verify = await api('POST', `/api/auth/verify/${code}`);
    if (verify.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verify)}`);
  }

  /** A verified account in the given staff groups, made the way the seed makes its accounts. */
  async function createStaffUser(email: string, password: string, userGroups: UserGroup[]): Promise<void> {
    await portal.app.services.auth.ensureUser({ email, password, userGroups });
  }

  /**
   * A new device made by the provisioning service, as the demo fleet makes its devices: its
   * setup password (to add it) and its key (to publish as it). Throws when the id is taken.
   * `fw` is the firmware it is provisioned with (default SFW003-1.0.0).
   */
  async function provisionDevice(
    id: string,
    model: DeviceModel,
    name?: string,
    fw?: string,
  ): Promise<{ id: string; setupPassword: string; deviceKey: string }> {
    const body = { model, ...(name ? { name } : {}), ...(fw ? { fw } : {}) };
    const created = await portal.app.services.devices.createDevice(id, body, 'e2e');
    if (!created) throw new Error(`device ${id} exists already`);
    return { id, setupPassword: created.setupPassword, deviceKey: created.deviceKey };
  }

  /** Signs a browser context in through the API: every page of the context then has the session cookie. */
  async function signInContext(context: BrowserContext, email: string, password: string): Promise<void> {
    const answer = await context.request.post(url('/api/auth/login'), {
      headers: { 'x-requested-with': 'portal' },
      data: { email, password },
    });
    if (answer.status() !== 200) throw new Error(`sign-in failed: ${answer.status()} ${await answer.text()}`);
  }

  /**
   * Moves a device's 'added' time `days` into the past, as if its trial had run that long (a
   * trial is 90 days: 91 makes the device Basic). Time in the database, not a mocked plan.
   */
  async function ageDevice(id: string, days: number): Promise<void> {
    await portal.db.query('UPDATE devices SET added_ts = added_ts - $2 WHERE id = $1', [id, days * 86_400]);
  }

  /**
   * Ends the current period of a device's running subscription a minute ago, as if it had run its
   * course (time in the database, as ageDevice does): the next billing call settles it.
   */
  async function endSubscriptionPeriod(id: string): Promise<void> {
    await portal.db.query(
      `UPDATE billing_subscriptions SET period_end = now() - interval '1 minute' WHERE device_id = $1 AND status <> 'ended'`,
      [id],
    );
  }

  async function close() {
    await browser.close();
    await portal.close();
    await mailbox.close();
  }

  /** The embedded MQTT broker, where devices publish (username = device id, password = device key). */
  const mqttUrl = `mqtt://127.0.0.1:${portal.mqttPort ?? 0}`;

  /** Publishes a record (or an array of them) as the device itself over MQTT, QoS 1: acknowledged once stored. */
  async function publish(
    device: { id: string; deviceKey: string },
    records: Record<string, unknown> | Record<string, unknown>[],
  ): Promise<void> {
    const client = await mqtt.connectAsync(mqttUrl, {
      clientId: `${device.id}-e2e-${process.pid}-${Date.now()}`,
      username: device.id,
      password: device.deviceKey,
      reconnectPeriod: 0,
    });
    try {
      await client.publishAsync(`dev/${device.id}/data`, JSON.stringify(records), { qos: 1 });
    } finally {
      await client.endAsync();
    }
  }

  return {
    port,
    url,
    mqttUrl,
    mailbox,
    browser,
    apiClient,
    createVerifiedUser,
    createStaffUser,
    provisionDevice,
    ageDevice,
    endSubscriptionPeriod,
    publish,
    signInContext,
    close,
  };
}

let counter = 0;
/** A unique address for one test. */
export function uniqueEmail(tag: string): string {
  counter += 1;
  return `${tag}-${process.pid}-${counter}@example.com`;
}

/** A fresh device id: the tag (upper case letters or digits) and random letters or digits, 9 in all. */
export function freshDeviceId(tag = 'E2E'): string {
  const rest = Array.from(randomBytes(9 - tag.length), (b) => DEVICE_ID_ALPHABET[b % DEVICE_ID_ALPHABET.length]);
  return tag + rest.join('');
}
