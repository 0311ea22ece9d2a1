/**
 * Who may queue or cancel a device command (spec 2 sections 6 and 7): a trigger ('Admin.Trigger')
 * needs the triggers capability, any other command editDeviceSettings. Only a queued command can
 * be cancelled. The server decides with these; the Data page's command queue shows Cancel by them.
 */
import { TRIGGER_COMMAND } from './constants';
import { can, type Capability } from './roles';

/** The capability a command's method needs, to queue it and to cancel it. */
export function commandCapability(method: unknown): Capability {
  return method === TRIGGER_COMMAND ? 'triggers' : 'editDeviceSettings';
}

/** True when `role` may cancel the command now: it is still queued and the role may queue its method. */
export function canCancelCommand(role: unknown, command: { method: unknown; state: unknown }): boolean {
  return command.state === 'queued' && can(role, commandCapability(command.method));
}
