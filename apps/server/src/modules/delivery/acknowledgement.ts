/**
 * A device's acknowledgement, checked whole before anything changes (404 for a command that is
 * not the device's, 409 for a cancelled or expired one or a config or script version never
 * sent), then applied: commands become delivered, the config or script version sent becomes the
 * applied one. Each step and each refusal goes to the device's server log. Part of the delivery
 * module (delivery.service.ts).
 */
import {
  CommandAckSchema,
  isDeviceRouteId,
  mergeDeviceConfig,
  type CommandAck,
  type CommandAckResult,
} from '@portal/core';
import type { Db } from '../../db/db';
import type { Clock } from '../../clock';
import { AppError, conflict } from '../../errors';
import type { DeviceLogService } from '../device-log/device-log.service';
import * as repo from './delivery.repository';

/**
 * What an acknowledged config or script version did: applied now, applied before, superseded (a
 * newer version is on its way, nothing changes), or unknown (never sent: refused).
 */
export type AckOutcome = 'applied' | 'already' | 'superseded' | 'unknown';

export function createAcknowledgements(deps: { db: Db; clock: Clock; deviceLog: DeviceLogService }) {
  const { db, clock, deviceLog } = deps;

  /**
   * The device acknowledges config `version`: the version it was sent is merged into the applied
   * config (the pending config is cleared unless a newer change was merged into it meanwhile)
   * and 'config applied' is logged; a version already applied is 'already'; an older version
   * than the one now pending (a newer one is in flight and includes it) is 'superseded' and
   * changes nothing; any other version is 'unknown' and changes nothing. With checkOnly,
   * answers the same and changes nothing at all.
   */
  async function acknowledgeConfig(deviceId: string, version: number, checkOnly: boolean): Promise<AckOutcome> {
    if (!isDeviceRouteId(deviceId)) return 'unknown';
    const result = await db.transaction(async (tx): Promise<AckOutcome> => {
      const row = await repo.findConfigDelivery(tx, deviceId, !checkOnly);
      if (!row) return 'unknown';
      if (row.sent_config !== null && row.sent_config_version === version) {
        if (!checkOnly)
          await repo.applySentConfig(tx, deviceId, mergeDeviceConfig(row.config, row.sent_config), version);
        return 'applied';
      }
      if (version <= row.applied_config_version) return 'already';
      return version < row.config_version ? 'superseded' : 'unknown';
    });
    if (result === 'applied' && !checkOnly)
      await deviceLog.write(deviceId, 'config', `config applied (version ${version})`);
    return result;
  }

  /** The same for the script: the version sent becomes the script the device runs ('script applied'). */
  async function acknowledgeScript(deviceId: string, version: number, checkOnly: boolean): Promise<AckOutcome> {
    const result = await repo.acknowledgeScript(db, deviceId, version, checkOnly);
    if (result === 'applied' && !checkOnly)
      await deviceLog.write(deviceId, 'config', `script applied (version ${version})`);
    return result;
  }

  /**
   * Applies a device's acknowledgement: every part is checked first (a command of another
   * device or an unknown id: 404; a cancelled or expired command, or a config or script version
   * that was not sent: 409), so a refused acknowledgement changes nothing. Acknowledging again
   * what is already acknowledged is accepted and changes nothing.
   */
  async function applyAck(deviceId: string, ack: CommandAck): Promise<CommandAckResult> {
    const ids = [...new Set([...(ack.id !== undefined ? [ack.id] : []), ...(ack.ids ?? [])])];
    const known = new Map((await repo.selectCommandStates(db, deviceId, ids)).map((c) => [c.id, c]));
    for (const id of ids) {
      const command = known.get(id);
      if (!command) throw new AppError(404, 'NOT_FOUND', `Command ${id} not found`);
      if (command.state === 'cancelled' || command.state === 'expired')
        throw conflict(`Command ${id} is ${command.state} and cannot be acknowledged`);
    }
    if (ack.config !== undefined && (await acknowledgeConfig(deviceId, ack.config, true)) === 'unknown')
      throw conflict(`Config version ${ack.config} was not sent to this device`);
    if (ack.script !== undefined && (await acknowledgeScript(deviceId, ack.script, true)) === 'unknown')
      throw conflict(`Script version ${ack.script} was not sent to this device`);

    const now = clock.now();
    const delivered = await repo.markCommandsDelivered(db, deviceId, ids, now);
    await deviceLog.writeRows(
      delivered
        .sort((a, b) => a.id - b.id)
        .map((c) => ({
          device_id: deviceId,
          ts: now.toISOString(),
          kind: 'command',
          message: `Command ${c.id} ${c.method} delivered (acknowledged)`,
        })),
    );
    if (ack.config !== undefined) await acknowledgeConfig(deviceId, ack.config, false);
    if (ack.script !== undefined) await acknowledgeScript(deviceId, ack.script, false);
    return { commands: ids, config: ack.config ?? null, script: ack.script ?? null };
  }

  /**
   * An acknowledgement as the device sent it (parsed JSON): validated, applied, or refused with
   * a 4xx AppError and a 'refused' line in the device's server log.
   */
  async function receiveAck(deviceId: string, body: unknown, via: 'mqtt' | 'http'): Promise<CommandAckResult> {
    const parsed = CommandAckSchema.safeParse(body);
    try {
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue?.path.join('.') ?? '';
        throw new AppError(
          400,
          'BAD_REQUEST',
          `Malformed acknowledgement: ${field ? `${field}: ` : ''}${issue?.message ?? 'invalid'}`,
        );
      }
      return await applyAck(deviceId, parsed.data);
    } catch (error) {
      if (error instanceof AppError) await deviceLog.write(deviceId, 'refused', `${via} ack refused: ${error.message}`);
      throw error;
    }
  }

  return { receiveAck };
}
