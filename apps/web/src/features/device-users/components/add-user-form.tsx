import { useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { normaliseEmail, type DeviceRole } from '@portal/core';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { emailError } from '@/lib/form';
import { useMessageDialog } from '@/lib/message-dialog';
import { useAddDeviceUser } from '../api/device-users';
import { toastSuccess } from './feedback';
import { RoleDropdown } from './role-dropdown';

const EMAIL = fieldIds('device-user-email');
const ROLE = fieldIds('device-user-role');
const EMAIL_HINT = 'An address without an account gets an invitation, applied when it signs up.';
const DEFAULT_ROLE: DeviceRole = 'VIEW';

/** ADMIN only (SUB-15, API-19): add a user by e-mail with a role; the address is checked by core's rule first. */
export function AddUserForm({ deviceid }: { deviceid: string }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<DeviceRole>(DEFAULT_ROLE);
  const [error, setError] = useState<string | undefined>();
  const add = useAddDeviceUser(deviceid);
  const messages = useMessageDialog();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (add.isPending) return;
    const problem = emailError(email);
    setError(problem);
    if (problem) return;
    add.mutate(
      { targetEmail: normaliseEmail(email), targetPermission: role },
      {
        onSuccess: (answer) => {
          setEmail('');
          toastSuccess(answer);
        },
        onError: (err) => messages.showError(err),
      },
    );
  };

  return (
    <section aria-labelledby="du-add-title" className="du-section">
      <h2 id="du-add-title" className="du-section-title">
        Add a user
      </h2>
      <form className="du-add" onSubmit={onSubmit} noValidate aria-busy={add.isPending}>
        <div className="du-add__email">
          <FormField ids={EMAIL} label="Email" hint={EMAIL_HINT} error={error}>
            <InputText
              id={EMAIL.input}
              type="email"
              value={email}
              onChange={(event) => {
                setEmail(event.target.value);
                if (error) setError(undefined);
              }}
              invalid={Boolean(error)}
              aria-invalid={Boolean(error) || undefined}
              aria-describedby={describedBy(EMAIL, EMAIL_HINT, error)}
              autoComplete="off"
              spellCheck={false}
              placeholder="name@example.com"
            />
          </FormField>
        </div>
        <div className="du-add__role">
          <FormField ids={ROLE} label="Permission">
            <RoleDropdown inputId={ROLE.input} value={role} onChange={setRole} ariaLabel="Permission" />
          </FormField>
        </div>
        <Button
          type="submit"
          className="du-add__submit"
          label={add.isPending ? 'Adding…' : 'Add user'}
          icon="pi pi-user-plus"
          loading={add.isPending}
        />
      </form>
    </section>
  );
}
