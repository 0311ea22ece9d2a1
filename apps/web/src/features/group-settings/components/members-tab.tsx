import { useState } from 'react';
import { Button } from 'primereact/button';
import { groupCan, loadErrorDetail, type DeviceRole, type GroupPermissionsResponse } from '@portal/core';
import { AddByEmailForm } from '@/components/ui/add-by-email-form';
import { RoleDropdown } from '@/components/ui/role-dropdown';
import { useMessageDialog } from '@/lib/message-dialog';
import { useGroupPermissions } from '../api/get-group-permissions';
import { useAddGroupUser, useRemoveGroupUser, useUpdateGroupUser, type GroupUserTarget } from '../api/group-users';
import { ConfirmDialog } from './confirm-dialog';
import { TabError, TableSkeleton } from './tab-states';

const DEFAULT_SHARE_LEVEL: DeviceRole = 'VIEW';

export interface MembersTabProps {
  groupid: string;
  groupName: string;
  myPermission: DeviceRole;
  /** The signed-in user's id: their own row offers 'Leave group'. */
  myUserId: string | undefined;
  /** After removing oneself (resultCode REMOVED_SELF). */
  onRemovedSelf: () => void;
}

/** Who is being removed, for the confirmation. */
interface Removal {
  target: GroupUserTarget;
  label: string;
  self: boolean;
  invite: boolean;
}

/** The Members tab (GRP-05, GRP-06, GRP-07): members and invitations; ADMIN shares, changes and removes. */
export function MembersTab({ groupid, groupName, myPermission, myUserId, onRemovedSelf }: MembersTabProps) {
  const permissions = useGroupPermissions(groupid);
  const manage = groupCan(myPermission, 'manageMembers');
  const [removal, setRemoval] = useState<Removal | null>(null);
  const update = useUpdateGroupUser(groupid);
  const remove = useRemoveGroupUser(groupid);
  const messages = useMessageDialog();

  const changeLevel = (target: GroupUserTarget, targetPermission: DeviceRole) =>
    update.mutate(
      { ...target, targetPermission },
      { onSuccess: (answer) => messages.showSuccess(answer), onError: (err) => messages.showError(err) },
    );

  const confirmRemoval = () => {
    if (!removal) return;
    remove.mutate(removal.target, {
      onSuccess: (answer) => {
        setRemoval(null);
        messages.showSuccess(answer);
        if (answer.resultCode === 'REMOVED_SELF') onRemovedSelf();
      },
      onError: (err) => {
        setRemoval(null);
        messages.showError(err);
      },
    });
  };

  const pendingLevel = (target: GroupUserTarget): DeviceRole | undefined => {
    const vars = update.isPending ? update.variables : undefined;
    if (!vars) return undefined;
    const same =
      'targetUserID' in target
        ? 'targetUserID' in vars && vars.targetUserID === target.targetUserID
        : 'targetEmail' in vars && vars.targetEmail === target.targetEmail;
    return same ? vars.targetPermission : undefined;
  };

  return (
    <div className="gs-tab">
      {manage && <ShareForm groupid={groupid} />}
      <section aria-labelledby="gs-members-title">
        <h2 id="gs-members-title" className="gs-section-title">
          Members
        </h2>
        {permissions.isPending ? (
          <TableSkeleton label="Loading members" />
        ) : permissions.isError ? (
          <TabError message={loadErrorDetail(permissions.error)} onRetry={() => void permissions.refetch()} />
        ) : (
          <MemberTable
            data={permissions.data}
            manage={manage}
            myUserId={myUserId}
            pendingLevel={pendingLevel}
            onChangeLevel={changeLevel}
            onRemove={setRemoval}
          />
        )}
      </section>
      {permissions.data && (manage || permissions.data.invites.length > 0) && (
        <section aria-labelledby="gs-invites-title">
          <h2 id="gs-invites-title" className="gs-section-title">
            Pending invitations
          </h2>
          {permissions.data.invites.length === 0 ? (
            <p className="muted gs-empty">No pending invitations.</p>
          ) : (
            <div className="data-table-wrap">
              <table className="data-table gs-table">
                <thead>
                  <tr>
                    <th scope="col">Email</th>
                    <th scope="col">Permission</th>
                    {manage && (
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {permissions.data.invites.map((invite) => {
                    const target = { targetEmail: invite.email };
                    return (
                      <tr key={invite.email}>
                        <td data-label="Email" className="gs-break">
                          <span className="gs-cell">
                            {invite.email} <span className="gs-tag">Invited</span>
                          </span>
                        </td>
                        <td data-label="Permission">
                          {manage ? (
                            <RoleDropdown
                              value={pendingLevel(target) ?? invite.permission}
                              loading={pendingLevel(target) !== undefined}
                              disabled={update.isPending}
                              ariaLabel={`Level of the invitation of ${invite.email}`}
                              onChange={(level) => changeLevel(target, level)}
                            />
                          ) : (
                            invite.permission
                          )}
                        </td>
                        {manage && (
                          <td className="gs-actions-cell">
                            <Button
                              type="button"
                              icon="pi pi-times"
                              label="Remove"
                              className="p-button-text p-button-danger p-button-sm"
                              aria-label={`Remove the invitation of ${invite.email}`}
                              onClick={() => setRemoval({ target, label: invite.email, self: false, invite: true })}
                            />
                          </td>
                        )}
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
        </section>
      )}
      <ConfirmDialog
        visible={removal !== null}
        title={removal?.self ? 'Leave group' : removal?.invite ? 'Remove invitation' : 'Remove member'}
        confirmLabel={removal?.self ? 'Leave group' : 'Remove'}
        danger
        busy={remove.isPending}
        onConfirm={confirmRemoval}
        onCancel={() => setRemoval(null)}
      >
        {removal?.self ? (
          <p>
            Leave <strong>{groupName}</strong>? You lose access to its devices through this group, and only a group
            ADMIN can add you again.
          </p>
        ) : removal?.invite ? (
          <p>
            Remove the invitation of <strong>{removal.label}</strong> to <strong>{groupName}</strong>?
          </p>
        ) : (
          <p>
            Remove <strong>{removal?.label}</strong> from <strong>{groupName}</strong>? They lose access to its devices
            through this group.
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}

interface MemberTableProps {
  data: GroupPermissionsResponse;
  manage: boolean;
  myUserId: string | undefined;
  pendingLevel: (target: GroupUserTarget) => DeviceRole | undefined;
  onChangeLevel: (target: GroupUserTarget, level: DeviceRole) => void;
  onRemove: (removal: Removal) => void;
}

function MemberTable({ data, manage, myUserId, pendingLevel, onChangeLevel, onRemove }: MemberTableProps) {
  return (
    <div className="data-table-wrap">
      <table className="data-table gs-table">
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">User ID</th>
            <th scope="col">Permission</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {data.users.map((user) => {
            const self = user.userID === myUserId;
            const target = { targetUserID: user.userID };
            const label = user.email ?? user.userID;
            const pending = pendingLevel(target);
            return (
              <tr key={user.userID} className={self ? 'gs-row--self' : undefined}>
                <td data-label="Email" className="gs-break">
                  <span className="gs-cell">
                    {user.email ?? (
                      <span className="muted" title="Only ADMIN and USER members see the members' e-mails">
                        Hidden
                      </span>
                    )}
                    {self && <span className="gs-tag">You</span>}
                  </span>
                </td>
                <td data-label="User ID" className="gs-mono gs-nowrap">
                  {user.userID}
                </td>
                <td data-label="Permission">
                  {manage ? (
                    <RoleDropdown
                      value={pending ?? user.permission}
                      loading={pending !== undefined}
                      ariaLabel={`Level of ${label}`}
                      onChange={(level) => onChangeLevel(target, level)}
                    />
                  ) : (
                    user.permission
                  )}
                </td>
                <td className="gs-actions-cell">
                  {self ? (
                    <Button
                      type="button"
                      icon="pi pi-sign-out"
                      label="Leave group"
                      className="p-button-text p-button-danger p-button-sm"
                      onClick={() => onRemove({ target, label, self: true, invite: false })}
                    />
                  ) : (
                    manage && (
                      <Button
                        type="button"
                        icon="pi pi-times"
                        label="Remove"
                        className="p-button-text p-button-danger p-button-sm"
                        aria-label={`Remove ${label}`}
                        onClick={() => onRemove({ target, label, self: false, invite: false })}
                      />
                    )
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function ShareForm({ groupid }: { groupid: string }) {
  const add = useAddGroupUser(groupid);
  const messages = useMessageDialog();
  return (
    <AddByEmailForm
      idPrefix="group-share"
      title="Share the group"
      titleClassName="gs-section-title"
      hint="An address without an account gets an invitation, applied when it signs up."
      roleLabel="Level"
      defaultRole={DEFAULT_SHARE_LEVEL}
      submitLabel="Share"
      pendingLabel="Sharing…"
      pending={add.isPending}
      onAdd={(targetEmail, targetPermission, added) =>
        add.mutate(
          { targetEmail, targetPermission },
          {
            onSuccess: (answer) => {
              added();
              messages.showSuccess(answer);
            },
            onError: (err) => messages.showError(err),
          },
        )
      }
    />
  );
}
