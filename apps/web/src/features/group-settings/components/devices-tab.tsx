import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { groupCan, type DeviceRole, type GroupDeviceSummary, type GroupSummary } from '@portal/core';
import { fieldIds } from '@/components/ui/form-field';
import { useMessageDialog } from '@/lib/message-dialog';
import { useMoveGroupDevices, useRemoveGroupDevices } from '../api/group-devices';
import { ConfirmDialog } from './confirm-dialog';

/** Rows per page: a group may hold 10,000 devices. */
const PAGE_SIZE = 50;
const TARGET = fieldIds('group-devices-target');
const FILTER = fieldIds('group-devices-filter');

export interface DevicesTabProps {
  groupid: string;
  groupName: string;
  myPermission: DeviceRole;
  deviceSummaries: Record<string, GroupDeviceSummary>;
  /** The user's groups (move and copy targets); undefined while they load. */
  groups: readonly GroupSummary[] | undefined;
}

interface Row extends GroupDeviceSummary {
  deviceid: string;
}

/** The Devices tab: the group's devices; ADMIN moves or copies them to another group, or removes them. */
export function DevicesTab({ groupid, groupName, myPermission, deviceSummaries, groups }: DevicesTabProps) {
  const manage = groupCan(myPermission, 'manageDevices');
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(0);
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [target, setTarget] = useState<string | null>(null);
  const [confirmingRemove, setConfirmingRemove] = useState(false);
  const move = useMoveGroupDevices(groupid);
  const remove = useRemoveGroupDevices(groupid);
  const messages = useMessageDialog();

  const rows = useMemo<Row[]>(
    () =>
      Object.entries(deviceSummaries)
        .map(([deviceid, summary]) => ({ deviceid, ...summary }))
        .sort(
          (a, b) => (a.name || a.deviceid).localeCompare(b.name || b.deviceid) || a.deviceid.localeCompare(b.deviceid),
        ),
    [deviceSummaries],
  );
  const needle = filter.trim().toLowerCase();
  const shown = needle
    ? rows.filter((r) => [r.deviceid, r.name, r.type].some((v) => v.toLowerCase().includes(needle)))
    : rows;
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  const pageRows = shown.slice(current * PAGE_SIZE, (current + 1) * PAGE_SIZE);

  // A device that left the group (moved, removed elsewhere) leaves the selection too.
  const selected = rows.filter((r) => picked.has(r.deviceid)).map((r) => r.deviceid);
  const allShownPicked = shown.length > 0 && shown.every((r) => picked.has(r.deviceid));
  // Move and copy need the same level in the target group (the server checks it again).
  const targets = (groups ?? []).filter((g) => g.groupid !== groupid && groupCan(g.permission, 'manageDevices'));
  const busy = move.isPending || remove.isPending;

  const toggle = (deviceid: string, on: boolean) =>
    setPicked((prev) => {
      const next = new Set(prev);
      if (on) next.add(deviceid);
      else next.delete(deviceid);
      return next;
    });
  const toggleAll = (on: boolean) =>
    setPicked((prev) => {
      const next = new Set(prev);
      for (const r of shown) {
        if (on) next.add(r.deviceid);
        else next.delete(r.deviceid);
      }
      return next;
    });

  const moveOrCopy = (action: 'move' | 'copy') => {
    if (!target || selected.length === 0) return;
    move.mutate(
      { deviceList: selected, targetGroupid: target, action },
      {
        onSuccess: (answer) => {
          if (action === 'move') setPicked(new Set());
          messages.showSuccess(answer);
        },
        onError: (err) => messages.showError(err),
      },
    );
  };

  const confirmRemove = () =>
    remove.mutate(selected, {
      onSuccess: (answer) => {
        setConfirmingRemove(false);
        setPicked(new Set());
        messages.showSuccess(answer);
      },
      onError: (err) => {
        setConfirmingRemove(false);
        messages.showError(err);
      },
    });

  if (rows.length === 0) {
    return (
      <div className="gs-tab">
        <div className="empty-state gs-empty-devices">
          <p>This group has no devices yet.</p>
          {manage && (
            <Link className="p-button" to={`/${encodeURIComponent(groupid)}/add`}>
              <i className="pi pi-plus" aria-hidden="true" />
              <span className="p-button-label">Add Device</span>
            </Link>
          )}
        </div>
      </div>
    );
  }

  return (
    <div className="gs-tab">
      <div className="gs-devices-toolbar">
        <div className="gs-devices-filter">
          <label htmlFor={FILTER.input} className="visually-hidden">
            Filter devices
          </label>
          <span className="p-input-icon-left gs-filter">
            <i className="pi pi-search" aria-hidden="true" />
            <InputText
              id={FILTER.input}
              type="search"
              value={filter}
              placeholder="Filter by name, ID or type"
              onChange={(event) => {
                setFilter(event.target.value);
                setPage(0);
              }}
            />
          </span>
          <span className="muted gs-count" aria-live="polite">
            {shown.length === rows.length ? `${rows.length} devices` : `${shown.length} of ${rows.length} devices`}
          </span>
        </div>
        {manage && (
          <Link className="p-button p-button-outlined gs-add-device" to={`/${encodeURIComponent(groupid)}/add`}>
            <i className="pi pi-plus" aria-hidden="true" />
            <span className="p-button-label">Add Device</span>
          </Link>
        )}
      </div>

      {manage && (
        <div className="gs-bulk" role="group" aria-label="Selected devices">
          <span className="gs-bulk__count">{selected.length} selected</span>
          <div className="gs-bulk__target">
            <label htmlFor={TARGET.input} className="visually-hidden">
              Target group
            </label>
            <Dropdown
              inputId={TARGET.input}
              value={target}
              options={targets}
              optionLabel="groupName"
              optionValue="groupid"
              placeholder={groups === undefined ? 'Loading groups…' : 'Target group'}
              emptyMessage="You have no other group"
              loading={groups === undefined}
              onChange={(event) => setTarget(typeof event.value === 'string' ? event.value : null)}
              className="gs-target"
              ariaLabel="Target group"
              pt={{ select: { 'aria-label': 'Target group' }, trigger: { 'aria-label': 'Show your groups' } }}
            />
          </div>
          <Button
            type="button"
            label="Move"
            icon="pi pi-arrow-right"
            outlined
            disabled={busy || !target || selected.length === 0}
            loading={move.isPending && move.variables?.action === 'move'}
            onClick={() => moveOrCopy('move')}
          />
          <Button
            type="button"
            label="Copy"
            icon="pi pi-copy"
            outlined
            disabled={busy || !target || selected.length === 0}
            loading={move.isPending && move.variables?.action === 'copy'}
            onClick={() => moveOrCopy('copy')}
          />
          <Button
            type="button"
            label="Remove from group"
            icon="pi pi-trash"
            severity="danger"
            outlined
            disabled={busy || selected.length === 0}
            onClick={() => setConfirmingRemove(true)}
          />
        </div>
      )}

      {shown.length === 0 ? (
        <p className="muted gs-empty">No devices match the filter.</p>
      ) : (
        <div className="data-table-wrap">
          <table className="data-table gs-table gs-table--devices">
            <thead>
              <tr>
                {manage && (
                  <th scope="col" className="gs-check-cell">
                    <Checkbox
                      inputId="gs-devices-all"
                      checked={allShownPicked}
                      onChange={(event) => toggleAll(Boolean(event.checked))}
                      aria-label={needle ? 'Select every device matching the filter' : 'Select every device'}
                    />
                  </th>
                )}
                <th scope="col">Name</th>
                <th scope="col">Device ID</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {pageRows.map((row) => (
                <tr key={row.deviceid} className={picked.has(row.deviceid) ? 'gs-row--picked' : undefined}>
                  {manage && (
                    <td className="gs-check-cell">
                      <Checkbox
                        inputId={`gs-device-${row.deviceid}`}
                        checked={picked.has(row.deviceid)}
                        onChange={(event) => toggle(row.deviceid, Boolean(event.checked))}
                        aria-label={`Select ${row.name || row.deviceid}`}
                      />
                    </td>
                  )}
                  <td data-label="Name" className="gs-break">
                    <Link to={`/data/${encodeURIComponent(row.deviceid)}`}>{row.name || row.deviceid}</Link>
                  </td>
                  <td data-label="Device ID" className="gs-mono">
                    {row.deviceid}
                  </td>
                  <td data-label="Type">{row.type || '—'}</td>
                  <td data-label="Status">{row.status || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {pages > 1 && (
        <nav className="gs-pager" aria-label="Device pages">
          <Button
            type="button"
            icon="pi pi-angle-left"
            className="p-button-text p-button-sm"
            aria-label="Previous page"
            disabled={current === 0}
            onClick={() => setPage(current - 1)}
          />
          <span>
            Page {current + 1} of {pages}
          </span>
          <Button
            type="button"
            icon="pi pi-angle-right"
            className="p-button-text p-button-sm"
            aria-label="Next page"
            disabled={current >= pages - 1}
            onClick={() => setPage(current + 1)}
          />
        </nav>
      )}

      <ConfirmDialog
        visible={confirmingRemove}
        title="Remove devices"
        confirmLabel="Remove from group"
        danger
        busy={remove.isPending}
        onConfirm={confirmRemove}
        onCancel={() => setConfirmingRemove(false)}
      >
        <p>
          Remove {selected.length === 1 ? 'this device' : `these ${selected.length} devices`} from{' '}
          <strong>{groupName}</strong>? The devices are not deleted; members lose the access this group gave them.
        </p>
      </ConfirmDialog>
    </div>
  );
}
