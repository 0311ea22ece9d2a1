/**
 * One simulated device. It wakes every base_interval seconds to take a sample, makes contact
 * every transmit_interval samples (default 60 s x 1: one record a minute) and sleeps in
 * between. On contact it sends what it holds (records kept in an outbox while the link is
 * down, resent with backoff) and a diagnostics message now and then; it applies a delivered
 * config (a new interval changes the cadence from then on), answers `Admin.Trigger {index}`
 * with the event '{trigger name} activated' (the name its config's script.triggers gives the index,
 * else 'Trigger {index}') and a provisioning test `Prov.RunTest {method, fw}` with
 * 'Test {method} passed on {fw}', reports the intervals it runs (base_interval, transmit_interval)
 * in its diagnostics, and acknowledges every command it receives.
 *
 * Acknowledgements: each command by its id once it is handled (a command delivered again, because
 * the acknowledgement was lost, is acknowledged again and not run twice); a config or script
 * version once it is applied ({config: version}, {script: version}). `Admin.File` is downloaded
 * from the path it names, checked against its size and sha256 and kept (acknowledged once
 * fetched; a failed download is left unacknowledged so the portal sends the command again);
 * `Admin.Firmware {firmwareName}` makes that the firmware the device reports in its next
 * diagnostics message.
 */
import { createHash } from 'node:crypto';
import {
  DeviceFileCommandArgsSchema,
  FIRMWARE_PATTERN,
  PROV_TEST_COMMAND,
  mergeDeviceConfig,
  type CommandAck,
  type CommandMessage,
  type DeviceCommand,
  type DeviceEvent,
  type DeviceRecord,
} from '@portal/core';
import { systemClock, type Clock, type TimerHandle } from './clock';
import { DownloadUnavailable, HttpError, type DeviceLink } from './links';
import { DeviceModel, EVENT_LEVEL, type ModelName } from './models';
import { createRng, type Rng } from './prng';
import { emptyDeviceStats, type DeviceStats } from './device-stats';

export interface DeviceConfig {
  device: { base_interval: number; transmit_interval: number; [key: string]: unknown };
  [key: string]: unknown;
}

export const DEFAULT_CONFIG: DeviceConfig = { device: { base_interval: 60, transmit_interval: 1 } };

/** Runs `task` when a slot is free (bounded concurrency across a fleet). */
export type Gate = <T>(task: () => Promise<T>) => Promise<T>;
const openGate: Gate = (task) => task();

export interface SimDeviceOptions {
  id: string;
  key: string;
  model: ModelName;
  link: DeviceLink;
  /** Seed of the device's generator (default: the device id). */
  seed?: string | number;
  clock?: Clock;
  config?: { base_interval?: number; transmit_interval?: number };
  /**
   * Config settings the device holds when it starts (as if kept from an earlier run: a portal sends
   * a config only when it changes), e.g. its script's triggers; merged like a delivered config.
   */
  settings?: Record<string, unknown>;
  gate?: Gate;
  /** Delay before the first sample (ms of clock time). */
  startDelayMs?: number;
  /** Send diagnostics on the first contact and then every this many contacts (default 60). */
  diagEvery?: number;
  /** Records kept while the link is down; older ones are dropped beyond it. */
  outboxLimit?: number;
  /** Records per message at most (keeps a message well under 64 kB). */
  batchLimit?: number;
  maxBackoffMs?: number;
  log?: (line: string) => void;
}

const asObject = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const asInterval = (value: unknown, min: number, max: number): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max ? Math.round(value) : null;

export class SimDevice {
  readonly id: string;
  readonly model: DeviceModel;
  readonly stats: DeviceStats = emptyDeviceStats();
  config: DeviceConfig;
  script: string | null = null;
  /** Every command received, in order (for tests and logs). */
  readonly received: DeviceCommand[] = [];
  /** Files fetched for Admin.File commands, by name. */
  readonly files = new Map<string, Buffer>();

  private readonly link: DeviceLink;
  private readonly clock: Clock;
  private readonly gate: Gate;
  private readonly jitter: Rng;
  private readonly options: SimDeviceOptions;
  private sampleTimer: TimerHandle | null = null;
  private retryTimer: TimerHandle | null = null;
  private outbox: DeviceRecord[] = [];
  private pendingEvents: DeviceEvent[] = [];
  private pendingDiagLines: string[] = [];
  private samplesSinceContact = 0;
  private failures = 0;
  private running = false;
  private sending: Promise<void> | null = null;
  private again = false;
  /** Ids of commands handled (the newest ones), so a command delivered again is not run twice. */
  private readonly handled = new Set<number>();
  /** Admin.File commands being downloaded. */
  private readonly fetching = new Set<number>();
  private configVersion: number | null = null;
  private scriptVersion: number | null = null;

  constructor(options: SimDeviceOptions) {
    this.options = options;
    this.id = options.id;
    this.link = options.link;
    this.clock = options.clock ?? systemClock;
    this.gate = options.gate ?? openGate;
    this.model = new DeviceModel({ model: options.model, seed: options.seed ?? options.id });
    this.jitter = createRng(`backoff:${options.seed ?? options.id}`);
    this.config = {
      ...DEFAULT_CONFIG,
      ...(options.settings ? { settings: options.settings } : {}),
      device: {
        ...DEFAULT_CONFIG.device,
        ...(options.config?.base_interval ? { base_interval: options.config.base_interval } : {}),
        ...(options.config?.transmit_interval ? { transmit_interval: options.config.transmit_interval } : {}),
      },
    };
    this.link.onCommands((message) => this.handleMessage(message));
    this.link.onDisconnect((reason) => {
      if (!this.running) return;
      this.note(`link lost: ${reason}`);
      this.scheduleRetry();
    });
  }

  get baseIntervalS(): number {
    return this.config.device.base_interval;
  }

  get transmitInterval(): number {
    return this.config.device.transmit_interval;
  }

  /** Seconds between contacts. */
  get contactIntervalS(): number {
    return this.baseIntervalS * this.transmitInterval;
  }

  get connected(): boolean {
    return this.link.connected;
  }

  /** The firmware string the device reports. */
  get firmware(): string {
    return this.model.fw;
  }

  get queued(): number {
    return this.outbox.length;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.sampleTimer = this.clock.setTimeout(() => this.tick(), this.options.startDelayMs ?? 0);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.sampleTimer !== null) this.clock.clearTimeout(this.sampleTimer);
    if (this.retryTimer !== null) this.clock.clearTimeout(this.retryTimer);
    this.sampleTimer = this.retryTimer = null;
    await this.sending?.catch(() => {});
    await this.link.close();
  }

  /** Takes a sample now and, every transmit_interval samples, makes contact. */
  private tick(): void {
    if (!this.running) return;
    this.sampleTimer = this.clock.setTimeout(() => this.tick(), this.baseIntervalS * 1000);
    this.takeSample();
    this.samplesSinceContact += 1;
    if (this.samplesSinceContact >= this.transmitInterval) {
      this.samplesSinceContact = 0;
      void this.contact();
    }
  }

  /**
   * An event raised from outside (a demo or a test, as the device's script would raise one): it
   * goes with the next record.
   */
  reportEvent(event: DeviceEvent): void {
    this.pendingEvents.push(event);
  }

  private takeSample(): void {
    const events = this.pendingEvents;
    this.pendingEvents = [];
    this.outbox.push(this.model.sample(this.clock.now() / 1000, events));
    this.stats.samples += 1;
    const limit = this.options.outboxLimit ?? 1000;
    if (this.outbox.length > limit) {
      this.stats.dropped += this.outbox.length - limit;
      this.outbox.splice(0, this.outbox.length - limit);
    }
  }

  /** Sends what the device holds; one send at a time, a request made meanwhile runs after. */
  contact(): Promise<void> {
    if (this.sending) {
      this.again = true;
      return this.sending;
    }
    this.sending = this.gate(() => this.send()).finally(() => {
      this.sending = null;
      if (this.again && this.running) {
        this.again = false;
        void this.contact();
      }
    });
    return this.sending;
  }

  private async send(): Promise<void> {
    if (!this.running && this.outbox.length === 0) return;
    try {
      const wasDown = !this.link.connected;
      if (wasDown) await this.link.connect();
      const batchLimit = this.options.batchLimit ?? 20;
      const diagEvery = this.options.diagEvery ?? 60;
      if (this.stats.contacts % diagEvery === 0 || this.pendingDiagLines.length > 0) {
        const lines = this.pendingDiagLines;
        this.pendingDiagLines = [];
        // The intervals it runs go with its diagnostics, as its firmware does: the portal's applied config follows them.
        const diag = {
          ...this.model.diagnostics(this.clock.now() / 1000, lines),
          base_interval: this.baseIntervalS,
          transmit_interval: this.transmitInterval,
        };
        if (await this.link.sendDiag(diag)) this.stats.diags += 1;
      }
      while (this.outbox.length > 0) {
        const batch = this.outbox.slice(0, batchLimit);
        const reply = await this.link.sendRecords(batch);
        this.outbox.splice(0, batch.length);
        this.stats.records += batch.length;
        if (reply) this.handleMessage(reply);
      }
      this.stats.contacts += 1;
      this.failures = 0;
      if (wasDown) {
        // counted once the link has carried a contact (HTTP has no connection of its own)
        this.stats.connects += 1;
        if (this.stats.connects > 1) this.stats.reconnects += 1;
      }
    } catch (err) {
      this.stats.errors += 1;
      this.stats.lastError = err instanceof Error ? err.message : String(err);
      this.note(`contact failed: ${this.stats.lastError}`);
      this.scheduleRetry();
    }
  }

  /** Tries again after 1 s, 2 s, 4 s ... (at most maxBackoffMs), with 20 % jitter. */
  private scheduleRetry(): void {
    if (!this.running || this.retryTimer !== null) return;
    const max = this.options.maxBackoffMs ?? 60_000;
    const delay = Math.min(max, 1000 * 2 ** Math.min(this.failures, 16)) * this.jitter.range(0.8, 1.2);
    this.failures += 1;
    this.retryTimer = this.clock.setTimeout(() => {
      this.retryTimer = null;
      void this.contact();
    }, delay);
  }

  /** Applies a command message: config first, then the script, then each command in order. */
  handleMessage(message: CommandMessage): void {
    if (message.config) {
      // a version already applied (its acknowledgement was lost) is acknowledged again, not re-applied
      if (message.configVersion === undefined || message.configVersion !== this.configVersion)
        this.applyConfig(message.config);
      if (message.configVersion !== undefined) {
        this.configVersion = message.configVersion;
        void this.acknowledge({ config: message.configVersion });
      }
    }
    if (message.script !== undefined) {
      if (message.scriptVersion === undefined || message.scriptVersion !== this.scriptVersion) {
        this.script = message.script;
        this.pendingDiagLines.push(`Script loaded (${Buffer.from(message.script, 'base64').length} bytes)`);
      }
      if (message.scriptVersion !== undefined) {
        this.scriptVersion = message.scriptVersion;
        void this.acknowledge({ script: message.scriptVersion });
      }
    }
    let urgent = false;
    for (const command of message.commands) {
      if (this.handled.has(command.id)) {
        void this.acknowledge({ id: command.id });
        continue;
      }
      if (command.method === 'Admin.File') {
        if (!this.fetching.has(command.id)) {
          this.stats.commands += 1;
          this.received.push(command);
          void this.receiveFile(command);
        }
        continue;
      }
      this.stats.commands += 1;
      this.received.push(command);
      this.remember(command.id);
      if (command.method === 'Admin.Trigger') {
        const args = (command.args ?? {}) as { index?: unknown };
        const index = typeof args.index === 'number' || typeof args.index === 'string' ? args.index : '?';
        this.pendingEvents.push({
          topic: 'trigger',
          msg: `${this.triggerName(index)} activated`,
          lv: EVENT_LEVEL.info,
        });
        this.stats.triggers += 1;
        urgent = true;
      } else if (command.method === PROV_TEST_COMMAND) {
        // A provisioning self-test: the simulated hardware always passes, reported as an event.
        const args = (command.args ?? {}) as { method?: unknown; fw?: unknown };
        const test = typeof args.method === 'string' ? args.method : '?';
        const fw = typeof args.fw === 'string' ? args.fw : '?';
        this.pendingEvents.push({ topic: 'prov-test', msg: `Test ${test} passed on ${fw}`, lv: EVENT_LEVEL.info });
        urgent = true;
      } else if (command.method === 'Admin.Firmware') {
        this.updateFirmware(command);
      } else {
        this.pendingDiagLines.push(`Command ${command.method} (${command.id}) done`);
      }
      void this.acknowledge({ id: command.id });
    }
    if (message.config || message.script !== undefined) urgent = true;
    if (urgent && this.running) {
      // the device is awake: report at once (the trigger event, the config it now runs)
      this.clock.setTimeout(() => {
        if (!this.running) return;
        if (this.pendingEvents.length > 0) this.takeSample();
        void this.contact();
      }, 0);
    }
  }

  /**
   * A trigger's name as the device's script knows it (config settings.script.triggers, as the
   * portal delivers them: {index, name}); 'Trigger {index}' when it has none.
   */
  triggerName(index: number | string): string {
    const script = asObject(asObject(this.config.settings).script);
    const triggers = Array.isArray(script.triggers) ? script.triggers : [];
    const found = triggers.map(asObject).find((t) => String(t.index) === String(index));
    const name = typeof found?.name === 'string' ? found.name.trim() : '';
    return name !== '' ? name : `Trigger ${index}`;
  }

  private async acknowledge(ack: CommandAck): Promise<void> {
    try {
      if (await this.link.ack(ack)) this.stats.acks += 1;
    } catch (err) {
      this.stats.errors += 1;
      this.stats.lastError = `ack ${JSON.stringify(ack)}: ${err instanceof Error ? err.message : String(err)}`;
    }
  }

  private remember(commandId: number): void {
    this.handled.add(commandId);
    if (this.handled.size > 1000) this.handled.delete(this.handled.values().next().value!);
  }

  /** Admin.Firmware {firmwareName}: the device "installs" it and reports it in its next diagnostics. */
  private updateFirmware(command: DeviceCommand): void {
    const name = (command.args as { firmwareName?: unknown } | undefined)?.firmwareName;
    if (typeof name !== 'string' || !FIRMWARE_PATTERN.test(name)) {
      this.pendingDiagLines.push(`Firmware update (${command.id}) refused: not a firmware name`);
      return;
    }
    this.model.fw = name;
    this.stats.firmware += 1;
    this.pendingDiagLines.push(`Firmware updated to ${name}`);
    this.note(`firmware now ${name}`);
  }

  /**
   * Admin.File {fileName, size, sha256, path}: fetches the file, checks it, keeps it and
   * acknowledges. A file that is refused (4xx), cannot be fetched by this link, or does not match
   * is reported and acknowledged (asking again would not help); a failed request (network, 5xx) is
   * not acknowledged, so the portal sends the command again after its resend interval.
   */
  private async receiveFile(command: DeviceCommand): Promise<void> {
    this.fetching.add(command.id);
    try {
      const parsed = DeviceFileCommandArgsSchema.safeParse(command.args);
      if (!parsed.success) {
        this.pendingDiagLines.push(`File command (${command.id}) refused: malformed arguments`);
      } else {
        const { fileName, size, sha256, path } = parsed.data;
        let bytes: Buffer;
        try {
          bytes = await this.link.download(path);
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          const permanent =
            err instanceof DownloadUnavailable || (err instanceof HttpError && err.status >= 400 && err.status < 500);
          if (!permanent) {
            this.stats.errors += 1;
            this.stats.lastError = `file ${fileName}: ${message}`;
            this.note(`file ${fileName} not fetched: ${message}`);
            return;
          }
          this.pendingDiagLines.push(`File ${fileName} (${command.id}) not fetched: ${message}`);
          this.remember(command.id);
          await this.acknowledge({ id: command.id });
          return;
        }
        const hash = createHash('sha256').update(bytes).digest('hex');
        if (bytes.length !== size || hash !== sha256) {
          this.pendingDiagLines.push(`File ${fileName} (${command.id}) discarded: size or sha256 does not match`);
        } else {
          this.files.set(fileName, bytes);
          this.stats.files += 1;
          this.pendingDiagLines.push(`File ${fileName} stored (${size} bytes)`);
        }
      }
      this.remember(command.id);
      await this.acknowledge({ id: command.id });
    } finally {
      this.fetching.delete(command.id);
    }
  }

  /**
   * Merges a delivered config (deep, as the portal merges it). base_interval (1-86400 s) and
   * transmit_interval (1-1000) are read from `settings.device` (the portal's config document),
   * `device` or the top level; a change restarts the sample timer so the new cadence begins now.
   * Out-of-range intervals are ignored.
   */
  applyConfig(incoming: Record<string, unknown>): void {
    const nested = { ...asObject(incoming.device), ...asObject(asObject(incoming.settings).device) };
    const base = asInterval(nested.base_interval ?? incoming.base_interval, 1, 86_400);
    const transmit = asInterval(nested.transmit_interval ?? incoming.transmit_interval, 1, 1000);
    const before = this.contactIntervalS;
    const { base_interval: _base, transmit_interval: _transmit, ...rest } = incoming;
    const merged = mergeDeviceConfig(this.config, rest);
    this.config = {
      ...merged,
      device: {
        ...asObject(merged.device),
        base_interval: base ?? this.baseIntervalS,
        transmit_interval: transmit ?? this.transmitInterval,
      },
    };
    this.stats.configs += 1;
    this.pendingDiagLines.push(
      `Config applied: base_interval ${this.baseIntervalS} s, transmit_interval ${this.transmitInterval}`,
    );
    if (this.running && (base !== null || transmit !== null)) {
      this.samplesSinceContact = Math.min(this.samplesSinceContact, this.transmitInterval - 1);
      if (this.sampleTimer !== null) this.clock.clearTimeout(this.sampleTimer);
      this.sampleTimer = this.clock.setTimeout(() => this.tick(), this.baseIntervalS * 1000);
      if (before !== this.contactIntervalS) this.note(`interval now ${this.contactIntervalS} s`);
    }
  }

  private note(line: string): void {
    this.options.log?.(`${this.id} ${line}`);
  }
}
