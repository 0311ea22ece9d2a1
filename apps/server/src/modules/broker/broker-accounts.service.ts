/**
 * Device accounts at an external Mosquitto (MQTT_DEVICE_AUTH=dynsec, issue 17): the portal keeps
 * the dynamic security plugin's clients in line with its devices through
 * `$CONTROL/dynamic-security/v1`. Each device is a client (username = device id, password = its
 * key) with a role of its own that allows exactly its topics: publish to dev/{id}/data, diag and
 * ack, subscribe to dev/{id}/cmd. (Mosquitto 2.0's plugin has no %u substitution in publish ACLs,
 * so one shared role cannot say "its own".) The portal's own user (MQTT_URL's, the plugin's admin)
 * gets the role `portal-server`, which adds publishing commands to dev/+/cmd.
 *
 * The portal stores only a hash of each key, so a key reaches the broker when it exists in the
 * clear: at provisioning, inside the transaction that creates the device (refused by the broker:
 * nothing is created), or from a provisioning CSV given to `npm run broker-sync` (broker-sync.ts).
 */
import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { DEVICE_MESSAGE_KINDS, commandTopic } from '@portal/core';
import { unavailable } from '../../errors';

/** Gives the broker each new device's credentials; the portal's other brokers need nothing. */
export interface BrokerAccounts {
  /** Creates (or updates) the device's client and role; throws when the broker does not take them. */
  addDevice(id: string, key: string): Promise<void>;
  close(): Promise<void>;
}

/** The dynamic security plugin's administration, as the portal uses it (connectDynsec). */
export interface DynsecClient extends BrokerAccounts {
  /** Runs commands in order; answers one result per command (an `error` when it failed). */
  run(commands: Command[], timeoutMs?: number): Promise<Answer[]>;
  /** The plugin's clients with their text names (all of them). */
  listClients(): Promise<{ username: string; textname?: string }[]>;
  removeDevice(id: string): Promise<void>;
  /** The device's role exactly its topics, and the client in it (its password left as it is). */
  ensureDeviceRole(id: string): Promise<void>;
  /** The portal user's own rights (role portal-server), made once at start. */
  ensureServerRole(username: string): Promise<void>;
}

/** The embedded broker and brokers that ask the portal (HTTP hooks) read keys from the database. */
export const NO_BROKER_ACCOUNTS: BrokerAccounts = {
  addDevice: () => Promise.resolve(),
  close: () => Promise.resolve(),
};

/**
 * Gives a new device its broker account, inside the transaction that makes the device: a broker
 * that refuses or does not answer fails the call with 503 and the transaction rolls back.
 */
export async function giveBrokerAccount(accounts: BrokerAccounts, id: string, key: string): Promise<void> {
  try {
    await accounts.addDevice(id, key);
  } catch (error) {
    throw unavailable(
      `The MQTT broker did not take the device's credentials, so the device was not created: ${(error as Error).message}`,
    );
  }
}

const CONTROL_TOPIC = '$CONTROL/dynamic-security/v1';
const RESPONSE_TOPIC = `${CONTROL_TOPIC}/response`;
/** The text name that marks a client as one of the portal's devices (sync removes only these). */
export const DEVICE_CLIENT_TEXT = 'portal device';
export const SERVER_ROLE = 'portal-server';
/** How long a command may wait for the plugin's answer. */
const ANSWER_TIMEOUT_MS = 10_000;

export const deviceRole = (id: string) => `portal-device-${id}`;

type Acl = { acltype: string; topic: string; allow: boolean; priority?: number };

export function deviceAcls(id: string): Acl[] {
  return [
    ...DEVICE_MESSAGE_KINDS.map((kind) => ({
      acltype: 'publishClientSend',
      topic: `dev/${id}/${kind}`,
      allow: true,
    })),
    { acltype: 'subscribeLiteral', topic: commandTopic(id), allow: true },
    { acltype: 'publishClientReceive', topic: commandTopic(id), allow: true },
  ];
}

interface Command {
  command: string;
  [field: string]: unknown;
}
interface Answer {
  command: string;
  error?: string;
  data?: unknown;
  correlationData?: string;
}

/** What the plugin answers when the thing to create is there already (it is then brought in line). */
const ALREADY = /already|exists|not found/i;

/** Connects with MQTT_URL's user, which must be the plugin's admin. */
export async function connectDynsec(url: string): Promise<DynsecClient> {
  const client: MqttClient = await mqtt
    .connectAsync(url, {
      log: () => undefined,
      clientId: `portal-dynsec-${randomBytes(6).toString('hex')}`,
      clean: true,
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
    })
    .catch((error: unknown) => {
      throw new Error(`MQTT_DEVICE_AUTH=dynsec: cannot connect to MQTT_URL: ${(error as Error).message}`);
    });
  const waiting = new Map<string, { resolve: (answers: Answer[]) => void; count: number }>();
  client.on('message', (topic, payload) => {
    if (topic !== RESPONSE_TOPIC) return;
    let answers: Answer[];
    try {
      answers = (JSON.parse(payload.toString('utf8')) as { responses?: Answer[] }).responses ?? [];
    } catch {
      return;
    }
    const id = answers[0]?.correlationData?.split(':')[0];
    const entry = id ? waiting.get(id) : undefined;
    if (!id || !entry) return;
    waiting.delete(id);
    entry.resolve(answers);
  });
  await client.subscribeAsync(RESPONSE_TOPIC, { qos: 1 });

  async function run(commands: Command[], timeoutMs = ANSWER_TIMEOUT_MS): Promise<Answer[]> {
    if (commands.length === 0) return [];
    const id = randomBytes(8).toString('hex');
    const answered = new Promise<Answer[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(
          new Error(
            'The MQTT broker did not answer on $CONTROL/dynamic-security/v1: is the dynamic security plugin loaded, and is the MQTT_URL user its admin?',
          ),
        );
      }, timeoutMs);
      waiting.set(id, {
        count: commands.length,
        resolve: (answers) => {
          clearTimeout(timer);
          resolve(answers);
        },
      });
    });
    await client.publishAsync(
      CONTROL_TOPIC,
      JSON.stringify({ commands: commands.map((c, i) => ({ ...c, correlationData: `${id}:${i}` })) }),
      { qos: 1 },
    );
    return answered;
  }

  /** Runs commands whose `tolerated` errors ("already there" by default) are fine; any other failure throws. */
  async function apply(commands: Command[], tolerated = ALREADY): Promise<Answer[]> {
    const answers = await run(commands);
    const failed = answers.find((a) => a.error && !tolerated.test(a.error));
    if (failed) throw new Error(`The MQTT broker refused ${failed.command}: ${failed.error}`);
    return answers;
  }

  async function addDevice(id: string, key: string): Promise<void> {
    const role = deviceRole(id);
    const answers = await apply([
      { command: 'createRole', rolename: role, acls: deviceAcls(id) },
      {
        command: 'createClient',
        username: id,
        password: key,
        textname: DEVICE_CLIENT_TEXT,
        roles: [{ rolename: role }],
      },
    ]);
    // Either existed before (a sync, a device made again): bring both in line.
    if (answers.some((a) => a.error)) {
      await apply([
        ...deviceAcls(id).map((acl) => ({ command: 'addRoleACL', rolename: role, ...acl })),
        { command: 'setClientPassword', username: id, password: key },
        // Mosquitto 2.0 answers 'Internal error' to a role the client has: removed, then given.
        { command: 'removeClientRole', username: id, rolename: role },
        { command: 'addClientRole', username: id, rolename: role },
        { command: 'enableClient', username: id },
      ]);
    }
  }

  return {
    run,
    addDevice,
    async removeDevice(id) {
      await apply(
        [
          { command: 'deleteClient', username: id },
          { command: 'deleteRole', rolename: deviceRole(id) },
        ],
        /not found/i,
      );
    },
    async ensureDeviceRole(id) {
      const role = deviceRole(id);
      const [roleAnswer, clientAnswer] = await run([
        { command: 'getRole', rolename: role },
        { command: 'getClient', username: id },
      ]);
      const want = deviceAcls(id);
      const acls = (roleAnswer?.data as { role?: { acls?: Acl[] } } | undefined)?.role?.acls;
      const same = (a: Acl, b: Acl) => a.acltype === b.acltype && a.topic === b.topic && a.allow === b.allow;
      const commands: Command[] = [];
      if (!acls) commands.push({ command: 'createRole', rolename: role, acls: want });
      else {
        for (const acl of acls)
          if (!want.some((w) => same(w, acl)))
            commands.push({ command: 'removeRoleACL', rolename: role, acltype: acl.acltype, topic: acl.topic });
        for (const acl of want)
          if (!acls.some((a) => same(a, acl))) commands.push({ command: 'addRoleACL', rolename: role, ...acl });
      }
      const client = (
        clientAnswer?.data as { client?: { roles?: { rolename: string }[]; textname?: string } } | undefined
      )?.client;
      if (!client?.roles?.some((r) => r.rolename === role))
        commands.push({ command: 'addClientRole', username: id, rolename: role });
      if (client && client.textname !== DEVICE_CLIENT_TEXT)
        commands.push({ command: 'modifyClient', username: id, textname: DEVICE_CLIENT_TEXT });
      await apply(commands);
    },
    async listClients() {
      const [answer] = await run([{ command: 'listClients', verbose: true, count: -1, offset: 0 }]);
      if (!answer || answer.error)
        throw new Error(`The MQTT broker refused listClients: ${answer?.error ?? 'no answer'}`);
      return ((answer.data as { clients?: { username: string; textname?: string }[] }).clients ?? []).map((c) => ({
        username: c.username,
        ...(c.textname === undefined ? {} : { textname: c.textname }),
      }));
    },
    async ensureServerRole(username) {
      // Changing a client's roles disconnects every connection of that user (all instances'
      // subscribers): only what is missing is added.
      const [role, self] = await run([
        { command: 'getRole', rolename: SERVER_ROLE },
        { command: 'getClient', username },
      ]);
      if (!self || self.error)
        throw new Error(`MQTT_URL's user ${username} is not a client of the broker's dynamic security plugin`);
      const commands: Command[] = [];
      const acl = { acltype: 'publishClientSend', topic: 'dev/+/cmd', allow: true };
      const acls = (role?.data as { role?: { acls?: Acl[] } } | undefined)?.role?.acls;
      if (!acls) commands.push({ command: 'createRole', rolename: SERVER_ROLE, acls: [acl] });
      else if (!acls.some((a) => a.acltype === acl.acltype && a.topic === acl.topic && a.allow))
        commands.push({ command: 'addRoleACL', rolename: SERVER_ROLE, ...acl });
      await apply(commands);
      const hasRole = async () => {
        const [answer] = await run([{ command: 'getClient', username }]);
        const roles = (answer?.data as { client?: { roles?: { rolename: string }[] } }).client?.roles ?? [];
        return roles.some((r) => r.rolename === SERVER_ROLE);
      };
      if (await hasRole()) return;
      // Giving a user a role disconnects all its connections, this one too (once per broker, on
      // the first start): the answer may be lost, so the role is looked for after reconnecting.
      await run([{ command: 'addClientRole', username, rolename: SERVER_ROLE }], 2000).catch(() => undefined);
      for (let attempt = 0; attempt < 20; attempt += 1) {
        if (await hasRole().catch(() => false)) return;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      throw new Error(`The MQTT broker did not give MQTT_URL's user ${username} the role ${SERVER_ROLE}`);
    },
    async close() {
      await client.endAsync().catch(() => undefined);
    },
  };
}
