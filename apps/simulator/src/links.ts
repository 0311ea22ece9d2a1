/**
 * How a simulated device reaches the portal (DESIGN.md section 6).
 * - MQTT: username = device id, password = device key; records to dev/{id}/data, diagnostics
 *   to dev/{id}/diag (QoS 1); commands arrive on dev/{id}/cmd; acknowledgements go to
 *   dev/{id}/ack as {id} (a command received), {config: version} or {script: version} (applied).
 * - HTTP: POST /api/ingest/{id} with `Authorization: Device <key>`; the response body carries
 *   the commands, config and script; acknowledgements go to POST /api/ingest/{id}/ack with the
 *   same body as over MQTT. There is no diagnostics endpoint, so diagnostics are not sent.
 * Either way, a file named by an Admin.File command is fetched over HTTP from the path it gives
 * (GET /api/ingest/{id}/file/{fileId}, same header); an MQTT link needs the portal's HTTP address
 * for that.
 */
import mqtt, { type MqttClient } from 'mqtt';
import { CommandMessageSchema, type CommandAck, type CommandMessage, type DeviceRecord } from '@portal/core';

export interface DeviceLink {
  readonly kind: 'mqtt' | 'http' | 'memory';
  readonly connected: boolean;
  /** Opens the connection (MQTT) or does nothing (HTTP); rejects when it cannot. */
  connect(): Promise<void>;
  /** Sends records; HTTP returns the command message of the response, MQTT null. */
  sendRecords(records: DeviceRecord[]): Promise<CommandMessage | null>;
  sendDiag(diag: Record<string, unknown>): Promise<boolean>;
  /** Sends an acknowledgement (commands received, config or script versions applied). */
  ack(ack: CommandAck): Promise<boolean>;
  /** Fetches a file the portal holds for this device (the path of an Admin.File command). */
  download(path: string): Promise<Buffer>;
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

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A file this link can never fetch (no HTTP address, not a path of this device): asking again would not help. */
export class DownloadUnavailable extends Error {}

/** Only the device's own file paths are fetched, never an address a command makes up. */
const FILE_PATH = /^\/api\/ingest\/([^/?#]+)\/file\/(\d+)$/;

/** GET {baseUrl}{path} with the device key; the body as bytes, or an HttpError. */
async function downloadFile(baseUrl: string, creds: LinkCredentials, path: string, timeoutMs: number): Promise<Buffer> {
  const match = FILE_PATH.exec(path);
  if (!match || decodeURIComponent(match[1]!) !== creds.id)
    throw new DownloadUnavailable(`Not a file path of this device: ${path.slice(0, 100)}`);
  const response = await fetch(`${baseUrl.replace(/\/+$/, '')}${path}`, {
    headers: { authorization: `Device ${creds.key}` },
    signal: AbortSignal.timeout(timeoutMs),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  if (!response.ok)
    throw new HttpError(response.status, `HTTP ${response.status}: ${bytes.toString('utf8').slice(0, 200)}`);
  return bytes;
}

export class MqttLink implements DeviceLink {
  readonly kind = 'mqtt';
  private client: MqttClient | null = null;
  private commandHandler: (message: CommandMessage) => void = () => {};
  private disconnectHandler: (reason: string) => void = () => {};
  /** Command messages that did not parse. */
  malformed = 0;

  private readonly connectTimeoutMs: number;
  /** The portal's HTTP address, for file downloads. */
  private readonly httpUrl: string | undefined;

  constructor(
    private readonly url: string,
    private readonly creds: LinkCredentials,
    options: { connectTimeoutMs?: number; httpUrl?: string | undefined } = {},
  ) {
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
    this.httpUrl = options.httpUrl;
  }

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
      if (this.client !== client) return;
      // mqtt.js keeps a QoS 1 publish in flight for a reconnect of its own, which this link never
      // makes: ending the client fails it, so the contact waiting on it ends and the device reconnects.
      client.end(true);
      this.disconnectHandler('Connection closed');
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

  async ack(ack: CommandAck): Promise<boolean> {
    await this.requireClient().publishAsync(topics(this.creds.id).ack, JSON.stringify(ack), { qos: 1 });
    return true;
  }

  async download(path: string): Promise<Buffer> {
    if (!this.httpUrl) throw new DownloadUnavailable('No HTTP address of the portal to download files from');
    return downloadFile(this.httpUrl, this.creds, path, 60_000);
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

  /** POSTs JSON to /api/ingest/{id}{suffix} with the device key; the response text, or an HttpError. */
  private async post(suffix: string, json: string): Promise<string> {
    const url = `${this.baseUrl.replace(/\/+$/, '')}/api/ingest/${encodeURIComponent(this.creds.id)}${suffix}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Device ${this.creds.key}` },
        body: json,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      this.ok = false;
      throw err;
    }
    this.ok = true;
    const text = await response.text();
    if (!response.ok) throw new HttpError(response.status, `HTTP ${response.status}: ${text.slice(0, 200)}`);
    return text;
  }

  async sendRecords(records: DeviceRecord[]): Promise<CommandMessage | null> {
    const text = await this.post('', body(records));
    if (!text) return null;
    const parsed = CommandMessageSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  }

  async sendDiag(): Promise<boolean> {
    return false;
  }

  async ack(ack: CommandAck): Promise<boolean> {
    await this.post('/ack', JSON.stringify(ack));
    return true;
  }

  async download(path: string): Promise<Buffer> {
    return downloadFile(this.baseUrl, this.creds, path, Math.max(this.timeoutMs, 60_000));
  }

  async close(): Promise<void> {}
}
