/**
 * The create-group dialog (spec 1 sections 2 and 5; GRP-02..04): one field, the group name.
 * An empty name shows 'Group name is required' and nothing is sent; otherwise POST /api/group,
 * then on to /{groupid}/add to put a first device into the new group.
 */
import { useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { validateGroupName } from '@portal/core';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { useMessageDialog } from '@/lib/message-dialog';
import { useCreateGroup } from '../api/create-group';

export interface CreateGroupDialogProps {
  visible: boolean;
  onHide: () => void;
}

const ids = fieldIds('group-name');

export function CreateGroupDialog({ visible, onHide }: CreateGroupDialogProps) {
  const navigate = useNavigate();
  const messages = useMessageDialog();
  const create = useCreateGroup();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const hide = () => {
    setName('');
    setError(null);
    onHide();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    const checked = validateGroupName(name);
    if (!checked.ok) {
      setError(checked.error);
      input.current?.focus();
      return;
    }
    setError(null);
    create.mutate(
      { groupName: checked.value },
      {
        onSuccess: (result) => {
          hide();
          void navigate(`/${encodeURIComponent(result.groupid)}/add`);
        },
        onError: (err) => messages.showError(err),
      },
    );
  };

  const footer = (
    <div className="form-actions">
      <Button type="button" label="Cancel" text onClick={hide} disabled={create.isPending} />
      <Button type="submit" form="create-group-form" label="Create Group" loading={create.isPending} />
    </div>
  );

  return (
    <Dialog
      visible={visible}
      onHide={hide}
      header="Add Group"
      footer={footer}
      className="create-group-dialog"
      style={{ width: '28rem' }}
      breakpoints={{ '575px': 'calc(100vw - 16px)' }}
      draggable={false}
      resizable={false}
      dismissableMask
    >
      <form id="create-group-form" onSubmit={submit} noValidate>
        <FormField ids={ids} label="Group name" error={error}>
          <InputText
            id={ids.input}
            ref={input}
            value={name}
            autoFocus
            autoComplete="off"
            maxLength={200}
            invalid={error !== null}
            aria-invalid={error !== null}
            aria-describedby={describedBy(ids, undefined, error)}
            onChange={(e) => {
              setName(e.target.value);
              if (error) setError(null);
            }}
          />
        </FormField>
      </form>
    </Dialog>
  );
}
