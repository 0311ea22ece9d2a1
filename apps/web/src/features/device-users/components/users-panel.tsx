/**
 * The Users and Permissions page's content (spec 2 sections 3, 6 and 7; SUB-14..SUB-17): every
 * user of the device, direct or through its groups (flattenGroups), with the role and where the
 * access comes from, and the pending invitations. ADMIN adds by e-mail, changes a direct role and
 * removes a direct user; the last ADMIN can be neither removed nor demoted. USER reads the list;
 * OPERATOR and VIEW get the server's refusal. A level that comes through a group is changed in the
 * group's settings. The page asks, the server decides.
 */
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import {
  DEVICE_MESSAGES,
  can,
  deviceUserRows,
  loadErrorDetail,
  type DeviceAccess,
  type DeviceRole,
  type DeviceUserRow,
} from '@portal/core';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { RoleDropdown } from '@/components/ui/role-dropdown';
import { ApiError } from '@/lib/api';
import { useMessageDialog } from '@/lib/message-dialog';
import { useRemoveDeviceUser, useUpdateDeviceUser } from '../api/device-users';
import { useDevicePermissions } from '../api/get-device-permissions';
import { AddUserForm } from './add-user-form';
import './device-users.css';

export interface UsersPanelProps {
  deviceid: string;
  name: string;
  access: DeviceAccess;
  /** The signed-in user's id: their row says 'You'. */
  myUserId: string | undefined;
}

export function UsersPanel({ deviceid, name, access, myUserId }: UsersPanelProps) {
  const permissions = useDevicePermissions(deviceid);
  const manage = can(access.role, 'editUsers');
  const rows = useMemo(() => deviceUserRows(permissions.data?.users ?? []), [permissions.data]);
  const invites = permissions.data?.invites ?? [];
  const [removal, setRemoval] = useState<DeviceUserRow | null>(null);
  const update = useUpdateDeviceUser(deviceid);
  const remove = useRemoveDeviceUser(deviceid);
  const messages = useMessageDialog();

  if (permissions.isError && !permissions.data) {
    const refused = permissions.error instanceof ApiError && permissions.error.status === 403;
    return (
      <section className="card du-state" role="alert">
        <i className={`pi ${refused ? 'pi-lock' : 'pi-exclamation-triangle'} du-state__icon`} aria-hidden="true" />
        <p className="du-state__message">{loadErrorDetail(permissions.error)}</p>
        {refused ? (
          <p className="muted">Only the device&apos;s ADMIN and USER users see who has access to it.</p>
        ) : (
          <Button
            type="button"
            label="Try again"
            className="p-button-outlined"
            onClick={() => void permissions.refetch()}
          />
        )}
      </section>
    );
  }

  const changeRole = (row: DeviceUserRow, permission: DeviceRole) =>
    update.mutate(
      { userid: row.userid, permission },
      { onSuccess: (answer) => messages.showSuccess(answer), onError: (err) => messages.showError(err) },
    );

  const confirmRemoval = () => {
    if (!removal) return;
    remove.mutate(removal.userid, {
      onSuccess: (answer) => {
        setRemoval(null);
        messages.showSuccess(answer);
      },
      onError: (err) => {
        setRemoval(null);
        messages.showError(err);
      },
    });
  };

  const pendingRole = (row: DeviceUserRow) =>
    update.isPending && update.variables?.userid === row.userid ? update.variables.permission : undefined;

  return (
    <section className="card du-panel" aria-labelledby="du-heading">
      <div className="du-toolbar">
        <h2 id="du-heading" className="du-heading">
          Users and permissions
        </h2>
        <span className="muted du-count" role="status">
          {permissions.isPending ? 'Loading…' : countText(rows.length)}
        </span>
      </div>
      {manage && <AddUserForm deviceid={deviceid} />}

      <section aria-labelledby="du-users-title" className="du-section">
        <h2 id="du-users-title" className="du-section-title">
          Users
        </h2>
        {permissions.isPending ? (
          <div className="skeleton-stack du-skeleton" aria-busy="true" role="status" aria-label="Loading the users">
            {Array.from({ length: 3 }, (_, i) => (
              <div key={i} className="skeleton skeleton--row" />
            ))}
          </div>
        ) : rows.length === 0 ? (
          <p className="muted du-empty">No users have access to this device yet.</p>
        ) : (
          <div className="data-table-wrap">
            <table className="data-table du-table">
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Permission</th>
                  <th scope="col">Access</th>
                  {manage && (
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <UserRow
                    key={row.userid}
                    row={row}
                    self={row.userid === myUserId}
                    manage={manage}
                    pending={pendingRole(row)}
                    onChangeRole={changeRole}
                    onRemove={setRemoval}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {invites.length > 0 && (
        <section aria-labelledby="du-invites-title" className="du-section">
          <h2 id="du-invites-title" className="du-section-title">
            Pending invitations
          </h2>
          <p className="muted du-note">
            These addresses have no account yet; the permission is granted when they sign up.
            {manage && ' Adding an address again changes its permission.'}
          </p>
          <div className="data-table-wrap">
            <table className="data-table du-table">
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Permission</th>
                </tr>
              </thead>
              <tbody>
                {invites.map((invite) => (
                  <tr key={invite.email}>
                    <td data-label="Email" className="du-break">
                      {invite.email} <span className="du-tag">Invited</span>
                    </td>
                    <td data-label="Permission">
                      <span className="du-role-text">{invite.permission}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}

      <ConfirmDialog
        visible={removal !== null}
        header="Remove user"
        confirmLabel="Remove"
        busy={remove.isPending}
        onCancel={() => setRemoval(null)}
        onConfirm={confirmRemoval}
      >
        Remove <strong>{removal?.email}</strong> from <strong>{name}</strong>?{' '}
        {removal && removal.groups.length > 0
          ? 'They keep the access their groups give them.'
          : 'They lose access to the device.'}
      </ConfirmDialog>
    </section>
  );
}

function countText(count: number): string {
  return count === 1 ? '1 user' : `${count} users`;
}

interface UserRowProps {
  row: DeviceUserRow;
  self: boolean;
  manage: boolean;
  pending: DeviceRole | undefined;
  onChangeRole: (row: DeviceUserRow, permission: DeviceRole) => void;
  onRemove: (row: DeviceUserRow) => void;
}

function UserRow({ row, self, manage, pending, onChangeRole, onRemove }: UserRowProps) {
  const editable = manage && row.direct !== null;
  // With a group giving more than the direct grant, the level that applies is said beside the picker.
  const higherThroughGroup = row.direct !== null && row.permission !== row.direct;
  return (
    <tr className={self ? 'du-row--self' : undefined}>
      <td data-label="Email" className="du-break">
        {row.email}
        {self && <span className="du-tag">You</span>}
      </td>
      <td data-label="Permission">
        <div className="du-permission">
          {editable && row.direct !== null ? (
            <RoleDropdown
              value={pending ?? row.direct}
              loading={pending !== undefined}
              disabled={row.lastAdmin || pending !== undefined}
              ariaLabel={`Permission of ${row.email}`}
              onChange={(permission) => onChangeRole(row, permission)}
            />
          ) : (
            <span className="du-role-text">{row.permission}</span>
          )}
          {editable && higherThroughGroup && <small className="muted">{row.permission} through a group</small>}
        </div>
      </td>
      <td data-label="Access">
        <ul className="du-sources">
          {row.direct !== null && (
            <li>
              <span className="du-source">Direct</span>
              {row.groups.length > 0 && <span className="muted du-nowrap"> · {row.direct}</span>}
            </li>
          )}
          {row.groups.map((group) => (
            <li key={group.groupid}>
              <span className="du-source">Group</span>{' '}
              <Link
                to={`/group/${encodeURIComponent(group.groupid)}/settings`}
                title={`Change ${row.email}'s level in the group's settings`}
              >
                {group.groupName}
              </Link>
              <span className="muted du-nowrap"> · {group.permission}</span>
            </li>
          ))}
        </ul>
      </td>
      {manage && (
        <td className="du-actions-cell" data-label={row.direct === null ? 'Change' : undefined}>
          {row.direct === null ? (
            <span className="muted du-group-only">Changed in the group&apos;s settings</span>
          ) : (
            <div className="du-actions">
              {row.lastAdmin && <small className="muted du-last-admin">{DEVICE_MESSAGES.lastAdmin}</small>}
              <Button
                type="button"
                icon="pi pi-times"
                label="Remove"
                className="p-button-text p-button-danger p-button-sm"
                aria-label={`Remove ${row.email}`}
                disabled={row.lastAdmin}
                onClick={() => onRemove(row)}
              />
            </div>
          )}
        </td>
      )}
    </tr>
  );
}
