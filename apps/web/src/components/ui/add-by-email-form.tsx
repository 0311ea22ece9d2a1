/**
 * Adding someone by e-mail with a role: a device's user (Users and Permissions) or a group's member
 * (Share the group). The address is checked by core's rule before anything is sent; the caller
 * makes the call and says when it has succeeded, which clears the address.
 */
import { useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { normaliseEmail, type DeviceRole } from '@portal/core';
import { emailError } from '@/lib/form';
import { FormField, describedBy, fieldIds } from './form-field';
import { RoleDropdown } from './role-dropdown';
import './add-by-email-form.css';

export interface AddByEmailFormProps {
  /** Prefix of the inputs' ids ('device-user', 'group-share'). */
  idPrefix: string;
  title: string;
  hint: string;
  /** The role field's label ('Permission', 'Level'). */
  roleLabel: string;
  defaultRole: DeviceRole;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** Classes of the section and its heading, as the page's other sections have them. */
  className?: string;
  titleClassName?: string;
  /** Makes the call; `added` clears the address once it has succeeded. */
  onAdd: (email: string, role: DeviceRole, added: () => void) => void;
}

export function AddByEmailForm(props: AddByEmailFormProps) {
  const { idPrefix, title, hint, roleLabel, defaultRole, submitLabel, pendingLabel, pending, onAdd } = props;
  const { className, titleClassName } = props;
  const email = fieldIds(`${idPrefix}-email`);
  const role = fieldIds(`${idPrefix}-role`);
  const titleId = `${idPrefix}-title`;
  const [address, setAddress] = useState('');
  const [chosen, setChosen] = useState<DeviceRole>(defaultRole);
  const [error, setError] = useState<string | undefined>();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    const problem = emailError(address);
    setError(problem);
    if (!problem) onAdd(normaliseEmail(address), chosen, () => setAddress(''));
  };

  return (
    <section aria-labelledby={titleId} className={className}>
      <h2 id={titleId} className={titleClassName}>
        {title}
      </h2>
      <form className="email-add" onSubmit={onSubmit} noValidate aria-busy={pending}>
        <div className="email-add__email">
          <FormField ids={email} label="Email" hint={hint} error={error}>
            <InputText
              id={email.input}
              type="email"
              value={address}
              onChange={(event) => {
                setAddress(event.target.value);
                if (error) setError(undefined);
              }}
              invalid={Boolean(error)}
              aria-invalid={Boolean(error) || undefined}
              aria-describedby={describedBy(email, hint, error)}
              autoComplete="off"
              spellCheck={false}
              placeholder="name@example.com"
            />
          </FormField>
        </div>
        <div className="email-add__role">
          <FormField ids={role} label={roleLabel}>
            <RoleDropdown inputId={role.input} value={chosen} onChange={setChosen} ariaLabel={roleLabel} />
          </FormField>
        </div>
        <Button
          type="submit"
          className="email-add__submit"
          label={pending ? pendingLabel : submitLabel}
          icon="pi pi-user-plus"
          loading={pending}
        />
      </form>
    </section>
  );
}
