/**
 * A user's command calls (GET, POST and DELETE /api/device/{id}/rpc): who may list, queue and
 * cancel a device's commands is asked of the one gate (a command's capability from core's
 * commandCapability), and the command goes through the delivery lifecycle (delivery.service.ts).
 */
import { DEFAULT_RPC_COMMANDS, can, clampDataPoints, commandCapability, type CommandView } from '@portal/core';
import type { AccessService } from '../access/access.service';
import type { DeliveryService } from './delivery.service';

/** What the command calls offer their routes. */
export interface CommandsService {
  /** Any role: the device's newest commands with their states (dataPoints default DEFAULT_RPC_COMMANDS). */
  listCommands(
    userId: string,
    deviceId: string,
    dataPoints: number | undefined,
  ): Promise<{ deviceid: string; commands: CommandView[] }>;
  /** Queues a command when the user's role has the method's capability; delivered at once to an online device. */
  queueCommand(userId: string, deviceId: string, method: string, args: unknown): Promise<CommandView>;
  /** Cancels a queued command when the user's role may queue its method (404, 403, 409 otherwise). */
  cancelCommand(
    userId: string,
    deviceId: string,
    commandId: number,
  ): Promise<{ commandID: number; state: 'cancelled' }>;
}

export function createCommandsService(deps: {
  access: AccessService;
  delivery: Pick<DeliveryService, 'listCommands' | 'queueCommand' | 'cancelCommand'>;
}): CommandsService {
  const { access, delivery } = deps;
  return {
    async listCommands(userId, deviceId, dataPoints) {
      await access.authorize(userId, deviceId, null);
      return {
        deviceid: deviceId,
        commands: await delivery.listCommands(deviceId, clampDataPoints(dataPoints, DEFAULT_RPC_COMMANDS)),
      };
    },

    async queueCommand(userId, deviceId, method, args) {
      await access.authorize(userId, deviceId, commandCapability(method));
      return delivery.queueCommand(deviceId, method, args, userId);
    },

    async cancelCommand(userId, deviceId, commandId) {
      const role = await access.authorize(userId, deviceId, null);
      return delivery.cancelCommand(deviceId, commandId, (method) => can(role, commandCapability(method)));
    },
  };
}
