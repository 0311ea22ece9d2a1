/**
 * How a simulated device reaches the portal (DESIGN.md section 6).
 * - MQTT: username = device id, password = device key; records to dev/{id}/data, diagnostics
 *   to dev/{id}/diag (QoS 1); commands arrive on dev/{id}/cmd; acknowledgements go to
 *   dev/{id}/ack as {id}.
 * - HTTP: POST /api/ingest/{id} with `Authorization: Device <key>`; the response body carries
 *   the commands, config and script. There is no acknowledgement message over HTTP (the
 *   response is the delivery) and no diagnostics endpoint, so those two are not sent.
 */
import mqtt, { type MqttClient } from 'mqtt';
import { CommandMessageSchema, type CommandMessage, type DeviceRecord } from '@portal/core';

export interface DeviceLink {
  readonly kind: 'mqtt' | 'http' | 'memory';
  readonly connected: boolean;
  /** Opens the connection (MQTT) or does nothing (HTTP); rejects when it cannot. */
  connect(): Promise<void>;
  /** Sends records; HTTP returns the command message of the response, MQTT null. */
  sendRecords(records: DeviceRecord[]): Promise<CommandMessage | null>;
  sendDiag(diag: Record<string, unknown>): Promise<boolean>;
  /** Acknowledges a command; false when the transport has no acknowledgement message. */
  ack(commandId: number): Promise<boolean>;
  /** Called with every command message pushed to the device (MQTT), and on losing the link. */
  onCommands(handler: (message: CommandMessage) => void): void;
  onDisconnect(handler: (reason: string) => void): void;
  close(): Promise<void>;
}

export interface LinkCredentials {
  id: string;
  key: string;
}

export const topics = (id: string) => ({
  data: `dev/${id}/data`,
  diag: `dev/${id}/diag`,
  cmd: `dev/${id}/cmd`,
  ack: `dev/${id}/ack`,
});

const body = (records: DeviceRecord[]) => JSON.stringify(records.length === 1 ? records[0] : records);

export class MqttLink implements DeviceLink {
  readonly kind = 'mqtt';
  private client: MqttClient | null = null;
  private commandHandler: (message: CommandMessage) => void = () => {};
  private disconnectHandler: (reason: string) => void = () => {};
  /** Command messages that did not parse. */
  malformed = 0;

  constructor(
    private readonly url: string,
    private readonly creds: LinkCredentials,
    private readonly connectTimeoutMs = 10_000,
  ) {}

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  onCommands(handler: (message: CommandMessage) => void): void {
    this.commandHandler = handler;
  }

  onDisconnect(handler: (reason: string) => void): void {
    this.disconnectHandler = handler;
  }

  async connect(): Promise<void> {
    if (this.connected) return;
    await this.dropClient();
    const t = topics(this.creds.id);
    const client = mqtt.connect(this.url, {
      clientId: this.creds.id,
      username: this.creds.id,
      password: this.creds.key,
      protocolVersion: 4,
      clean: true,
      keepalive: 60,
      reconnectPeriod: 0, // the device reconnects itself, with backoff
      connectTimeout: this.connectTimeoutMs,
    });
    this.client = client;
    try {
      await new Promise<void>((resolve, reject) => {
        const fail = (err: Error) => {
          client.removeListener('connect', ok);
          reject(err);
        };
        const ok = () => {
          client.removeListener('error', fail);
          client.removeListener('close', closed);
          resolve();
        };
        const closed = () => fail(new Error('Connection closed'));
        client.once('connect', ok);
        client.once('error', fail);
        client.once('close', closed);
      });
      await client.subscribeAsync(t.cmd, { qos: 1 });
    } catch (err) {
      await this.dropClient();
      throw err;
    }
    client.on('message', (topic, payload) => {
      if (topic !== t.cmd) return;
      let parsed: ReturnType<typeof CommandMessageSchema.safeParse>;
      try {
        parsed = CommandMessageSchema.safeParse(JSON.parse(payload.toString('utf8')));
      } catch {
        this.malformed += 1;
        return;
      }
      if (parsed.success) this.commandHandler(parsed.data);
      else this.malformed += 1;
    });
    client.on('error', () => {});
    client.once('close', () => {
      if (this.client === client) this.disconnectHandler('Connection closed');
    });
  }

  private requireClient(): MqttClient {
    if (!this.client || !this.client.connected) throw new Error('Not connected');
    return this.client;
  }

  async sendRecords(records: DeviceRecord[]): Promise<null> {
    await this.requireClient().publishAsync(topics(this.creds.id).data, body(records), { qos: 1 });
    return null;
  }

  async sendDiag(diag: Record<string, unknown>): Promise<boolean> {
    await this.requireClient().publishAsync(topics(this.creds.id).diag, JSON.stringify(diag), { qos: 1 });
    return true;
  }

  async ack(commandId: number): Promise<boolean> {
    await this.requireClient().publishAsync(topics(this.creds.id).ack, JSON.stringify({ id: commandId }), { qos: 1 });
    return true;
  }

  private async dropClient(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (client) await client.endAsync(true).catch(() => {});
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (client) await client.endAsync(false).catch(() => client.endAsync(true).catch(() => {}));
  }
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class HttpLink implements DeviceLink {
  readonly kind = 'http';
  /** Whether the last request reached the server (false until the first one has). */
  private ok = false;

  constructor(
    private readonly baseUrl: string,
    private readonly creds: LinkCredentials,
    private readonly timeoutMs = 15_000,
  ) {}

  get connected(): boolean {
    return this.ok;
  }

  onCommands(): void {
    // commands come back in the response of each POST
  }

  onDisconnect(): void {}

  async connect(): Promise<void> {}

  async sendRecords(records: DeviceRecord[]): Promise<CommandMessage | null> {
    const url = `${this.baseUrl.replace(/\/+$/, '')}/api/ingest/${encodeURIComponent(this.creds.id)}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Device ${this.creds.key}` },
        body: body(records),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      this.ok = false;
      throw err;
    }
    this.ok = true;
    const text = await response.text();
    if (!response.ok) throw new HttpError(response.status, `HTTP ${response.status}: ${text.slice(0, 200)}`);
    if (!text) return null;
    const parsed = CommandMessageSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  }

  async sendDiag(): Promise<boolean> {
    return false;
  }

  async ack(): Promise<boolean> {
    return false;
  }

  async close(): Promise<void> {}
}
