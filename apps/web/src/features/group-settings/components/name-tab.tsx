import { useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { SANITISED_MAX_LENGTH, groupCan, validateGroupName, type DeviceRole } from '@portal/core';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { useMessageDialog } from '@/lib/message-dialog';
import { useDeleteGroup } from '../api/delete-group';
import { useRenameGroup } from '../api/rename-group';
import { ConfirmDialog } from './confirm-dialog';

const NAME = fieldIds('group-settings-name');
const NAME_HINT = `At most ${SANITISED_MAX_LENGTH} characters; \` ~ " ' ? < > are left out.`;

export interface NameTabProps {
  groupid: string;
  groupName: string;
  myPermission: DeviceRole;
  /** After the group is deleted: the page goes home. */
  onDeleted: () => void;
}

/** The Name tab: rename (ADMIN), and delete the group (ADMIN; its devices stay). */
export function NameTab({ groupid, groupName, myPermission, onDeleted }: NameTabProps) {
  const canRename = groupCan(myPermission, 'rename');
  const canDelete = groupCan(myPermission, 'deleteGroup');
  return (
    <div className="gs-tab">
      {canRename ? (
        <RenameForm key={groupName} groupid={groupid} groupName={groupName} />
      ) : (
        <div className="gs-readonly">
          <span className="gs-readonly__label">Group name</span>
          <span className="gs-readonly__value">{groupName}</span>
          <p className="muted">Only a group ADMIN can rename the group.</p>
        </div>
      )}
      <dl className="gs-facts">
        <div>
          <dt>Group ID</dt>
          <dd className="gs-mono">{groupid}</dd>
        </div>
        <div>
          <dt>Your level</dt>
          <dd>{myPermission}</dd>
        </div>
      </dl>
      {canDelete && <DeleteGroupSection groupid={groupid} groupName={groupName} onDeleted={onDeleted} />}
    </div>
  );
}

function RenameForm({ groupid, groupName }: { groupid: string; groupName: string }) {
  const [name, setName] = useState(groupName);
  const [error, setError] = useState<string | undefined>();
  const rename = useRenameGroup(groupid);
  const messages = useMessageDialog();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (rename.isPending) return;
    const checked = validateGroupName(name);
    if (!checked.ok) {
      setError(checked.error);
      return;
    }
    setError(undefined);
    rename.mutate(checked.value, {
      onSuccess: (answer) => {
        setName(answer.groupName ?? checked.value);
        messages.showSuccess(answer);
      },
      onError: (err) => messages.showError(err),
    });
  };

  const cleaned = validateGroupName(name);
  const unchanged = cleaned.ok && cleaned.value === groupName;
  return (
    <form className="gs-form" onSubmit={onSubmit} noValidate aria-busy={rename.isPending}>
      <FormField ids={NAME} label="Group name" hint={NAME_HINT} error={error}>
        <InputText
          id={NAME.input}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            if (error) setError(undefined);
          }}
          invalid={Boolean(error)}
          aria-invalid={Boolean(error) || undefined}
          aria-describedby={describedBy(NAME, NAME_HINT, error)}
          autoComplete="off"
          maxLength={200}
        />
      </FormField>
      <div className="form-actions form-actions--start">
        <Button
          type="submit"
          label={rename.isPending ? 'Saving…' : 'Rename'}
          icon="pi pi-check"
          loading={rename.isPending}
          disabled={unchanged}
        />
      </div>
    </form>
  );
}

function DeleteGroupSection({
  groupid,
  groupName,
  onDeleted,
}: {
  groupid: string;
  groupName: string;
  onDeleted: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteGroup(groupid);
  const messages = useMessageDialog();

  const confirm = () =>
    remove.mutate(undefined, {
      onSuccess: (answer) => {
        setConfirming(false);
        messages.showSuccess(answer);
        onDeleted();
      },
      onError: (err) => {
        setConfirming(false);
        messages.showError(err);
      },
    });

  return (
    <section className="gs-danger" aria-labelledby="gs-delete-title">
      <div>
        <h2 id="gs-delete-title" className="gs-section-title">
          Delete group
        </h2>
        <p className="muted">
          The group, its members, views and log are deleted. Its devices stay in your account and in any other group.
        </p>
      </div>
      <Button
        type="button"
        label="Delete group"
        icon="pi pi-trash"
        severity="danger"
        outlined
        onClick={() => setConfirming(true)}
      />
      <ConfirmDialog
        visible={confirming}
        title="Delete group"
        confirmLabel="Delete group"
        danger
        busy={remove.isPending}
        onConfirm={confirm}
        onCancel={() => setConfirming(false)}
      >
        <p>
          Delete <strong>{groupName}</strong>? Every member loses access through this group. The devices are not
          deleted.
        </p>
      </ConfirmDialog>
    </section>
  );
}
