/**
 * The device's commands, newest first, with their state (queued, sent, delivered, cancelled,
 * expired) and times in the viewer's zone; Cancel on a queued command where the role may cancel
 * it (core canCancelCommand, the server's rule), after a confirmation.
 */
import { useState } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { canCancelCommand, loadErrorDetail, type DeviceRole } from '@portal/core';
import { RefreshButton } from '@/components/ui/refresh-button';
import { LocalTime } from '@/components/ui/local-time';
import { useMessageDialog } from '@/lib/message-dialog';
import { useCancelCommand } from '../api/cancel-command';
import { useDeviceCommands, type DeviceCommand } from '../api/get-device-commands';
import { CommandQueueSkeleton } from './command-queue-skeleton';

const STATE_TEXT: Readonly<Record<string, string>> = {
  queued: 'Queued',
  sent: 'Sent',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

/** Characters of a command's arguments shown in the row (all of them on hover). */
const ARGS_SHOWN = 60;

export function CommandQueueList({ deviceid, role }: { deviceid: string; role: DeviceRole }) {
  const commands = useDeviceCommands(deviceid);
  const cancel = useCancelCommand(deviceid);
  const messages = useMessageDialog();
  const [asked, setAsked] = useState<DeviceCommand | null>(null);

  if (commands.isPending) return <CommandQueueSkeleton />;
  if (commands.isError && !commands.data) {
    return (
      <div className="cq-error" role="alert">
        <i className="pi pi-exclamation-triangle" aria-hidden="true" />
        <span>{loadErrorDetail(commands.error)}</span>
        <Button
          type="button"
          label="Try again"
          icon="pi pi-refresh"
          className="p-button-text p-button-sm"
          onClick={() => void commands.refetch()}
        />
      </div>
    );
  }

  const list = commands.data.commands;
  const confirmCancel = () => {
    if (!asked) return;
    cancel.mutate(asked.commandID, {
      onSuccess: (answer) => {
        setAsked(null);
        messages.showSuccess(answer);
      },
      onError: (err) => {
        setAsked(null);
        messages.showError(err);
      },
    });
  };

  return (
    <div className="cq-body">
      <div className="cq-toolbar">
        <span className="muted cq-count" role="status">
          {list.length === 0 ? 'No commands' : list.length === 1 ? '1 command' : `${list.length} commands`}
        </span>
        <RefreshButton fetching={commands.isFetching} onRefresh={() => void commands.refetch()} />
      </div>
      {list.length === 0 ? (
        <p className="muted cq-empty">
          No commands for this device yet. Triggers and settings changes queue them here until the device takes them.
        </p>
      ) : (
        <div className="data-table-wrap">
          <table className="data-table cq-table">
            <thead>
              <tr>
                <th scope="col">Command</th>
                <th scope="col">State</th>
                <th scope="col">Queued</th>
                <th scope="col">Sent</th>
                <th scope="col">Delivered</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((command) => (
                <CommandRow
                  key={command.commandID}
                  command={command}
                  cancellable={canCancelCommand(role, command)}
                  onCancel={setAsked}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Dialog
        header="Cancel command"
        visible={asked !== null}
        onHide={() => {
          if (!cancel.isPending) setAsked(null);
        }}
        className="cq-dialog"
        breakpoints={{ '640px': '100vw' }}
        draggable={false}
        resizable={false}
        footer={
          <div className="cq-dialog__footer">
            <Button
              type="button"
              label="Keep it"
              className="p-button-text"
              autoFocus
              disabled={cancel.isPending}
              onClick={() => setAsked(null)}
            />
            <Button
              type="button"
              label="Cancel command"
              severity="danger"
              loading={cancel.isPending}
              onClick={confirmCancel}
            />
          </div>
        }
      >
        <p className="cq-dialog__text">
          Cancel command {asked?.commandID} <code>{asked?.method}</code>? The device will not receive it.
        </p>
      </Dialog>
    </div>
  );
}

function argsText(args: unknown): string {
  if (args === undefined || args === null) return '';
  try {
    return JSON.stringify(args);
  } catch {
    return '';
  }
}

function When({ iso }: { iso: string | null }) {
  if (!iso) return <span className="muted">—</span>;
  return <LocalTime ts={new Date(iso)} />;
}

interface CommandRowProps {
  command: DeviceCommand;
  cancellable: boolean;
  onCancel: (command: DeviceCommand) => void;
}

function CommandRow({ command, cancellable, onCancel }: CommandRowProps) {
  const args = argsText(command.args);
  const shownArgs = args.length > ARGS_SHOWN ? `${args.slice(0, ARGS_SHOWN)}…` : args;
  return (
    <tr data-command-id={command.commandID}>
      <td data-label="Command" className="cq-command">
        <code>{command.method}</code>
        {args && (
          <code className="cq-args" title={args.length > ARGS_SHOWN ? args : undefined}>
            {shownArgs}
          </code>
        )}
      </td>
      <td data-label="State">
        <span className={`cq-state cq-state--${command.state}`}>
          <span className="cq-dot" aria-hidden="true" />
          {STATE_TEXT[command.state] ?? command.state}
        </span>
      </td>
      <td data-label="Queued" className="cq-nowrap">
        <When iso={command.createdAt} />
      </td>
      <td data-label="Sent" className="cq-nowrap">
        <When iso={command.sentAt} />
      </td>
      <td data-label="Delivered" className="cq-nowrap">
        <When iso={command.ackedAt} />
      </td>
      <td className="cq-actions-cell">
        {cancellable && (
          <Button
            type="button"
            icon="pi pi-times"
            label="Cancel"
            className="p-button-text p-button-danger p-button-sm"
            aria-label={`Cancel command ${command.commandID} ${command.method}`}
            onClick={() => onCancel(command)}
          />
        )}
      </td>
    </tr>
  );
}
