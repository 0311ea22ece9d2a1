/**
 * Delivery: the one owner of the cycle queued -> sent -> acknowledged of everything that goes to
 * a device: commands, the pending config and the saved script. Other modules put something in
 * (queueCommand; queueConfig or queueScript, then deliverSoon) and read where it stands; the
 * transports (MQTT, HTTP) hand over contacts and acknowledgements. Every step goes to the
 * device's server log.
 *
 * What is sent and not acknowledged is sent again after resendAfterMs; a command not
 * acknowledged within COMMAND_EXPIRY_S becomes expired and is never sent again. An
 * acknowledgement is checked whole before anything changes (acknowledgement.ts: 404 for a
 * command that is not the device's, 409 for a cancelled or expired one or a version never sent).
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  COMMAND_EXPIRY_S,
  isDeviceRouteId,
  mergeDeviceConfig,
  type CommandAckResult,
  type CommandMessage,
  type CommandView,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { AppError, conflict, forbidden } from '../../errors';
import { deviceNotFound } from '../access/access.service';
import type { DeviceLogService, ServerLogRow } from '../device-log/device-log.service';
import * as repo from './delivery.repository';
import { createAcknowledgements } from './acknowledgement';

export type { AckOutcome } from './acknowledgement';

/** What delivery offers: putting things in, where they stand, and the transports' side. */
export interface DeliveryService {
  /** The resend and contact-check intervals in force. */
  readonly options: DeliveryOptions;
  /** Stores a command as queued and delivers it at once to an online device (else at its next contact). */
  queueCommand(deviceId: string, method: string, args: unknown, createdBy: string): Promise<CommandView>;
  /** Merges a change into the pending config (a new version) and notes since when one is pending; 404 unknown device. */
  queueConfig(deviceId: string, change: Record<string, unknown>): Promise<void>;
  /** Saves the pending script (a new version) unless another user holds its lock (false then). */
  queueScript(deviceId: string, userId: string, script: string): Promise<boolean>;
  /** A config or script change waits for the device: sent at once when it is connected, else at its next contact. */
  deliverSoon(deviceId: string): void;
  /** The device's newest commands (unacknowledged ones past their expiry become expired first). */
  listCommands(deviceId: string, limit: number): Promise<CommandView[]>;
  /** Cancels a queued command when `allowed(method)`: 404 unknown, 403 not allowed, 409 once sent. */
  cancelCommand(
    deviceId: string,
    commandId: number,
    allowed: (method: string) => boolean,
  ): Promise<{ commandID: number; state: 'cancelled' }>;
  /** The pending config's version (null with none), when it was last sent and since when a config is pending. */
  configState(deviceId: string): Promise<{ version: number | null; sentAt: Date | null; since: Date | null }>;
  /** Expires unacknowledged commands older than COMMAND_EXPIRY_S (all devices); returns how many. */
  expireCommands(now: Date): Promise<number>;
  /** The transport that reaches connected devices (the MQTT broker); returns how to detach it. */
  useTransport(next: CommandSink): () => void;
  /** After an MQTT data publish: delivers what waits when there may be something. */
  afterContact(deviceId: string): void;
  /** HTTP ingest answer: the commands (marked sent), pending config and script. */
  httpDelivery(deviceId: string): Promise<CommandMessage>;
  /** An MQTT acknowledgement (dev/{id}/ack): applied, or refused and logged. */
  acknowledge(deviceId: string, body: unknown): Promise<void>;
  /** An HTTP acknowledgement (POST /api/ingest/{id}/ack): the result, or a 4xx AppError (logged). */
  acknowledgeHttp(deviceId: string, body: unknown): Promise<CommandAckResult>;
  /** A file stored for this device (Admin.File), or null: another device's file or an unknown id. */
  deviceFile(
    deviceId: string,
    fileId: number,
  ): Promise<{ fileName: string; size: number; sha256: string; bytes: Buffer } | null>;
  /** Deliveries not started are dropped (the next contact does them); running ones finish. */
  close(): Promise<void>;
}

/** Where command messages go: the embedded broker or the external broker connection. */
export interface CommandSink {
  publish(deviceId: string, message: CommandMessage): Promise<void>;
  /** True/false when the sink knows whether the device is connected; undefined when it cannot tell. */
  isOnline(deviceId: string): boolean | undefined;
}

export interface DeliveryOptions {
  /** Sent, unacknowledged commands, config and script are sent again after this long. */
  resendAfterMs: number;
  /** Without a command queued here, a device's open deliveries are looked up at most this often. */
  commandCheckIntervalMs: number;
}

export const DEFAULT_DELIVERY_OPTIONS: DeliveryOptions = { resendAfterMs: 30_000, commandCheckIntervalMs: 5000 };

/** Deliveries at contact running at once (see contactDelivery). */
const DELIVERY_CONCURRENCY = 4;
/** Contacts of this long are checked for deliveries together. */
const CONTACT_CHECK_DELAY_MS = 20;

const toView = (c: repo.CommandRow): CommandView => ({
  commandID: c.id,
  method: c.method,
  args: c.args,
  state: c.state,
  createdAt: new Date(c.created_at).toISOString(),
  sentAt: c.sent_at ? new Date(c.sent_at).toISOString() : null,
  ackedAt: c.acked_at ? new Date(c.acked_at).toISOString() : null,
  createdBy: c.created_by,
});

const expiredLine = (c: { id: number; method: string }) =>
  `Command ${c.id} ${c.method}: command expired (not acknowledged within ${COMMAND_EXPIRY_S / 86_400} days)`;

export function createDeliveryService(deps: {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  deviceLog: DeviceLogService;
  options?: Partial<DeliveryOptions>;
}): DeliveryService {
  const { db, clock, log, deviceLog } = deps;
  const { receiveAck } = createAcknowledgements({ db, clock, deviceLog });
  const options: DeliveryOptions = { ...DEFAULT_DELIVERY_OPTIONS, ...deps.options };
  let sink: CommandSink | null = null;
  /** Devices with something queued by this process since their last delivery. */
  const dirty = new Set<string>();
  const lastCheck = new Map<string, number>();
  const expiryCutoff = (now: Date) => new Date(now.getTime() - COMMAND_EXPIRY_S * 1000);
  const resendCutoff = (now: Date) => new Date(now.getTime() - options.resendAfterMs);

  /**
   * What to send the device now: its commands (marked sent; unacknowledged ones again after the
   * resend interval; expired ones never), the pending config and the saved script with their
   * versions; null when there is nothing. Each goes to the device's server log.
   */
  async function takeDelivery(deviceId: string, via: 'mqtt' | 'http'): Promise<CommandMessage | null> {
    dirty.delete(deviceId);
    lastCheck.set(deviceId, Date.now());
    const now = clock.now();
    const taken = await repo.takeCommandsToSend(db, deviceId, now, resendCutoff(now), expiryCutoff(now));
    const commands = taken.filter((c) => c.outcome !== 'expired');
    const known = isDeviceRouteId(deviceId);
    const config = known ? await repo.takeConfigToSend(db, deviceId, now, resendCutoff(now)) : null;
    const script = await repo.takeScriptToSend(db, deviceId, now, resendCutoff(now));
    const ts = now.toISOString();
    const line = (kind: string, message: string): ServerLogRow => ({ device_id: deviceId, ts, kind, message });
    const lines = taken.map((c) =>
      line(
        'command',
        c.outcome === 'expired'
          ? expiredLine(c)
          : `Command ${c.id} ${c.method} ${c.outcome === 'resent' ? 'sent again, not yet acknowledged' : 'sent'} (${via})`,
      ),
    );
    if (config) lines.push(line('config', `config version ${config.version} sent (${via})`));
    if (script) lines.push(line('config', `script version ${script.version} sent (${via})`));
    await deviceLog.writeRows(lines);
    if (commands.length === 0 && !config && !script) return null;
    return {
      commands: commands.map((c) => ({ id: c.id, method: c.method, ...(c.args === null ? {} : { args: c.args }) })),
      ...(config ? { config: config.config, configVersion: config.version } : {}),
      ...(script ? { script: script.script, scriptVersion: script.version } : {}),
    };
  }

  /**
   * Deliveries at contact run at most DELIVERY_CONCURRENCY at a time and once per device at a
   * time: a burst of contacts never takes the database connections the ingest writer needs.
   */
  const deliveries = {
    running: 0,
    waiting: [] as (() => void)[],
    devices: new Set<string>(),
    /** Resolved when the last running delivery ends (close waits for it). */
    idle: null as (() => void) | null,
  };

  function contactDelivery(deviceId: string): void {
    if (deliveries.devices.has(deviceId)) return;
    deliveries.devices.add(deviceId);
    const run = () => {
      deliveries.running += 1;
      pushToDevice(deviceId)
        .catch((error: unknown) => log.warn({ err: error, deviceId }, 'Command delivery failed'))
        .finally(() => {
          deliveries.running -= 1;
          deliveries.devices.delete(deviceId);
          deliveries.waiting.shift()?.();
          if (deliveries.running === 0) deliveries.idle?.();
        });
    };
    if (deliveries.running < DELIVERY_CONCURRENCY) run();
    else deliveries.waiting.push(run);
  }

  async function pushToDevice(deviceId: string): Promise<void> {
    const target = sink;
    if (!target) return;
    const message = await takeDelivery(deviceId, 'mqtt');
    if (!message) return;
    try {
      await target.publish(deviceId, message);
    } catch (error) {
      await repo.requeueCommands(
        db,
        message.commands.map((c) => c.id),
      );
      throw error;
    }
  }

  /** Devices that made contact and are to be checked for something to deliver. */
  const toCheck = new Set<string>();
  let checkTimer: NodeJS.Timeout | null = null;

  /**
   * Which of the devices in `toCheck` may have something to deliver (unacknowledged commands, a
   * pending config or script: a superset of what takeDelivery sends); those get a delivery.
   */
  async function checkContacts(): Promise<void> {
    const ids = [...toCheck];
    toCheck.clear();
    if (ids.length === 0) return;
    const found = await Promise.all([
      repo.devicesWithOpenCommands(db, ids),
      repo.devicesWithPendingConfig(db, ids),
      repo.devicesWithPendingScript(db, ids),
    ]);
    for (const deviceId of new Set(found.flat())) contactDelivery(deviceId);
  }

  /** Something new waits for the device: an online (MQTT) device gets it at once, an offline one at its next contact. */
  function deliverSoon(deviceId: string): void {
    dirty.add(deviceId);
    if (sink && sink.isOnline(deviceId) !== false) {
      pushToDevice(deviceId).catch((error: unknown) => log.warn({ err: error, deviceId }, 'Command delivery failed'));
    }
  }

  /** Unacknowledged commands older than COMMAND_EXPIRY_S become expired (one device, or all); each is logged. */
  async function expireCommands(now: Date, deviceId: string | null = null): Promise<number> {
    const rows = await repo.expireCommands(db, expiryCutoff(now), deviceId);
    const ts = now.toISOString();
    await deviceLog.writeRows(
      rows.map((c) => ({ device_id: c.device_id, ts, kind: 'command', message: expiredLine(c) })),
    );
    return rows.length;
  }

  return {
    options,

    // ------------------------------------------------------------ putting things in

    /** Stores a command as queued and delivers it at once to an online device (else at its next contact). */
    async queueCommand(deviceId: string, method: string, args: unknown, createdBy: string): Promise<CommandView> {
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const inserted = await repo.insertCommand(tx, { deviceId, method, args, createdAt: now, createdBy });
        await deviceLog.writeRows(
          [
            {
              device_id: deviceId,
              ts: now.toISOString(),
              kind: 'command',
              message: `Command ${inserted.id} ${method} queued`,
            },
          ],
          tx,
        );
        return inserted;
      });
      deliverSoon(deviceId);
      return toView(row);
    },

    /**
     * Merges a change into the device's pending config (row locked; a new version) and notes when
     * the pending config began (now, unless one was already pending); 404 for an unknown device.
     * The caller then calls deliverSoon.
     */
    async queueConfig(deviceId: string, change: Record<string, unknown>): Promise<void> {
      const wasPending = await db.transaction(async (tx) => {
        const row = await repo.findConfigDelivery(tx, deviceId, true);
        if (!row) throw deviceNotFound();
        await repo.setPendingConfig(tx, deviceId, mergeDeviceConfig(row.pending_config ?? {}, change));
        return row.pending_config !== null;
      });
      await repo.touchPendingSince(db, deviceId, clock.now(), !wasPending);
    },

    /**
     * Saves a script as the device's pending script (a new version) unless another user holds its
     * lock: false then, and nothing changes. The caller then calls deliverSoon.
     */
    queueScript(deviceId: string, userId: string, script: string): Promise<boolean> {
      return repo.savePendingScript(db, deviceId, userId, script, clock.now());
    },

    /** A config or script change waits for the device: sent at once when it is connected, else at its next contact. */
    deliverSoon,

    // ------------------------------------------------------------ where things stand

    /** The device's newest commands (unacknowledged ones past their expiry become expired first). */
    async listCommands(deviceId: string, limit: number): Promise<CommandView[]> {
      await expireCommands(clock.now(), deviceId);
      return (await repo.selectCommands(db, deviceId, limit)).map(toView);
    },

    /**
     * Cancels a queued command when `allowed(method)` says the caller may: 404 for another
     * device's or an unknown command, 403 when not allowed, 409 once it has been sent.
     */
    async cancelCommand(
      deviceId: string,
      commandId: number,
      allowed: (method: string) => boolean,
    ): Promise<{ commandID: number; state: 'cancelled' }> {
      const [command] = await repo.selectCommandStates(db, deviceId, [commandId]);
      if (!command) throw new AppError(404, 'NOT_FOUND', 'Command not found');
      if (!allowed(command.method)) throw forbidden();
      if (!(await repo.cancelCommand(db, deviceId, commandId)))
        throw conflict(`Command ${commandId} is ${command.state} and can no longer be cancelled`);
      return { commandID: commandId, state: 'cancelled' };
    },

    /**
     * The version of the pending config (null with none), when that version was last sent, and
     * since when a config has been pending (null when not known).
     */
    async configState(deviceId: string): Promise<{ version: number | null; sentAt: Date | null; since: Date | null }> {
      const since = await repo.findPendingSince(db, deviceId);
      const row = isDeviceRouteId(deviceId) ? await repo.findConfigDelivery(db, deviceId) : null;
      if (!row || row.pending_config === null) return { version: null, sentAt: null, since };
      return {
        version: row.config_version,
        sentAt: row.sent_config_version === row.config_version ? row.config_sent_at : null,
        since,
      };
    },

    /** Expires unacknowledged commands older than COMMAND_EXPIRY_S (all devices); returns how many. */
    expireCommands: (now: Date) => expireCommands(now),

    // ------------------------------------------------------------ the transports

    /** The transport that reaches connected devices (the MQTT broker); returns how to detach it. */
    useTransport(next: CommandSink): () => void {
      sink = next;
      return () => {
        if (sink === next) sink = null;
      };
    },

    /**
     * After an MQTT data publish: delivers what waits when there may be something. Something
     * queued here goes at once; otherwise each device is checked at most every
     * commandCheckIntervalMs, the devices of a moment together in three reads (checkContacts).
     */
    afterContact(deviceId: string): void {
      if (!sink) return;
      if (dirty.has(deviceId)) {
        contactDelivery(deviceId);
        return;
      }
      const checked = lastCheck.get(deviceId);
      const now = Date.now();
      if (checked !== undefined && now - checked < options.commandCheckIntervalMs) return;
      lastCheck.set(deviceId, now);
      toCheck.add(deviceId);
      checkTimer ??= setTimeout(() => {
        checkTimer = null;
        checkContacts().catch((error: unknown) => log.warn({ err: error }, 'Delivery check failed'));
      }, CONTACT_CHECK_DELAY_MS);
    },

    /**
     * HTTP ingest answer: the commands (marked sent), pending config and script, as MQTT would
     * publish them; the device acknowledges them with POST /api/ingest/{id}/ack.
     */
    async httpDelivery(deviceId: string): Promise<CommandMessage> {
      return (await takeDelivery(deviceId, 'http')) ?? { commands: [] };
    },

    /** An MQTT acknowledgement (dev/{id}/ack): applied, or refused and logged in the device's server log. */
    async acknowledge(deviceId: string, body: unknown): Promise<void> {
      try {
        await receiveAck(deviceId, body, 'mqtt');
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
      }
    },

    /** An HTTP acknowledgement (POST /api/ingest/{id}/ack): the result, or a 4xx AppError (logged). */
    acknowledgeHttp(deviceId: string, body: unknown): Promise<CommandAckResult> {
      return receiveAck(deviceId, body, 'http');
    },

    /** A file stored for this device (Admin.File), or null: another device's file or an unknown id. */
    async deviceFile(
      deviceId: string,
      fileId: number,
    ): Promise<{ fileName: string; size: number; sha256: string; bytes: Buffer } | null> {
      const row = await repo.findFile(db, deviceId, fileId);
      if (!row) return null;
      return { fileName: row.file_name, size: row.size, sha256: row.sha256, bytes: Buffer.from(row.data, 'base64') };
    },

    /** Deliveries not started are dropped (the next contact does them); running ones finish. */
    async close(): Promise<void> {
      if (checkTimer) clearTimeout(checkTimer);
      checkTimer = null;
      toCheck.clear();
      deliveries.waiting.length = 0;
      if (deliveries.running > 0) await new Promise<void>((resolve) => (deliveries.idle = resolve));
    },
  };
}
