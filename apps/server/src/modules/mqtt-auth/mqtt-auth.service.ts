/**
 * What an external broker asks the portal about its clients (issue 17; the HTTP hooks of
 * mqtt-auth.routes.ts): who may connect, and who may publish, subscribe or receive on a topic.
 * The same rules as the embedded broker's (core's mqtt-topics.ts): a device connects with its id
 * as username, its key as password and its id (or its id, '-' and a suffix) as client id, and
 * reaches only its own topics; the portal's own subscriber user (MQTT_URL's) is the only
 * superuser. Every answer is read from the database at the call: a device removed a moment ago
 * is refused at its next connect, publish or subscribe. Secrets are compared in constant time.
 */
import { isOwnClientId, mayAccessTopic, type MqttAccess, type MqttPrincipal } from '@portal/core';
import { sameDigest, sha256 } from '../../security';
import { brokerUrlUser } from '../broker/broker-check';
import type { DeviceRegistry } from '../devices/devices.registry';

/** What the broker hooks (mqtt-auth.routes.ts) ask: the secret, who connects, who is superuser, who may do what. */
export interface MqttAuthService {
  /** True when `given` is the hook secret (constant time; false for anything but a string). */
  hasSecret(given: unknown): boolean;
  /**
   * Who connects with these credentials: the portal's user (its password), a device (its key,
   * and its own client id), or null for anyone else.
   */
  authenticate(client: MqttClientName & { password: string | null }): Promise<MqttClientKind | null>;
  /** True for the portal's own user: a broker lets it do anything. */
  isSuperuser(username: string): boolean;
  /** Whether the connected `client` may do each of `requests` (in their order). */
  authorize(client: MqttClientName, requests: readonly MqttRequest[]): Promise<boolean[]>;
}

/** A broker account: username and password. */
export interface BrokerUser {
  username: string;
  password: string;
}

export interface MqttAuthHooksOptions {
  /** MQTT_AUTH_HOOK_SECRET: every call carries it. */
  secret: string;
  /** The portal's own subscriber user (MQTT_URL's), the only superuser; null when MQTT_URL names none. */
  portalUser: BrokerUser | null;
}

/**
 * MQTT_URL's user and password (mqtt://portal:secret@broker:1883), or null when it has no user or
 * no password: a superuser without a password would let anyone in under its name.
 */
export function portalBrokerUser(mqttUrl: string | undefined): BrokerUser | null {
  if (!mqttUrl) return null;
  const { username, password } = brokerUrlUser(mqttUrl);
  return username && password ? { username, password } : null;
}

/** Who a broker may let connect: the portal's own user, or a device. */
export type MqttClientKind = MqttPrincipal['kind'];

/** A client as the broker names it: username (null when it gave none) and client id. */
export interface MqttClientName {
  username: string | null;
  clientId: string;
}

/** One thing a client asks to do. */
export interface MqttRequest {
  access: MqttAccess;
  topic: string;
}

const PORTAL: MqttPrincipal = { kind: 'portal' };

export function createMqttAuthService(deps: {
  registry: Pick<DeviceRegistry, 'verifyDeviceKey' | 'getDevice'>;
  options: MqttAuthHooksOptions;
}): MqttAuthService {
  const { registry } = deps;
  const { portalUser } = deps.options;
  const secretDigest = sha256(deps.options.secret);
  const portalPasswordDigest = portalUser ? sha256(portalUser.password) : null;
  const isPortalUser = (username: string | null) => portalUser !== null && username === portalUser.username;

  /** The client behind a connection the broker accepted, or null: an unknown or removed device, or another's client id. */
  async function principalOf({ username, clientId }: MqttClientName): Promise<MqttPrincipal | null> {
    if (isPortalUser(username)) return PORTAL;
    if (username === null || !isOwnClientId(username, clientId)) return null;
    return (await registry.getDevice(username)) ? { kind: 'device', deviceId: username } : null;
  }

  return {
    /** True when `given` is the hook secret (constant time; false for anything but a string). */
    hasSecret(given: unknown): boolean {
      return typeof given === 'string' && sameDigest(sha256(given), secretDigest);
    },

    /**
     * Who connects with these credentials: the portal's user (its password), a device (its key,
     * and its own client id), or null for anyone else.
     */
    async authenticate(client: MqttClientName & { password: string | null }): Promise<MqttClientKind | null> {
      const password = client.password ?? '';
      if (isPortalUser(client.username)) {
        return sameDigest(sha256(password), portalPasswordDigest!) ? 'portal' : null;
      }
      if (client.username === null || password === '') return null;
      const keyMatches = await registry.verifyDeviceKey(client.username, password);
      return keyMatches && isOwnClientId(client.username, client.clientId) ? 'device' : null;
    },

    /** True for the portal's own user: a broker lets it do anything. */
    isSuperuser(username: string): boolean {
      return isPortalUser(username);
    },

    /** Whether the connected `client` may do each of `requests` (in their order). */
    async authorize(client: MqttClientName, requests: readonly MqttRequest[]): Promise<boolean[]> {
      const principal = await principalOf(client);
      return requests.map(({ access, topic }) => principal !== null && mayAccessTopic(principal, access, topic));
    },
  };
}
