import { DEVICE_ROLES, type DeviceRole } from '@portal/core';
import { LabelledDropdown } from './labelled-dropdown';
import './role-dropdown.css';

const ROLE_OPTIONS = DEVICE_ROLES.map((role) => ({ label: role, value: role }));

export interface RoleDropdownProps {
  value: DeviceRole;
  onChange: (role: DeviceRole) => void;
  /** The accessible name ('Permission of a@b.com', 'Level'). */
  ariaLabel: string;
  inputId?: string;
  disabled?: boolean;
  loading?: boolean;
}

/** A role picker, ADMIN, USER, OPERATOR, VIEW: a device user's permission or a group member's level. */
export function RoleDropdown({ value, onChange, ariaLabel, inputId, disabled, loading }: RoleDropdownProps) {
  return (
    <LabelledDropdown
      inputId={inputId}
      value={value}
      options={ROLE_OPTIONS}
      onChange={(event) => {
        const next = DEVICE_ROLES.find((role) => role === event.value);
        if (next && next !== value) onChange(next);
      }}
      label={ariaLabel}
      triggerLabel="Show the roles"
      disabled={disabled}
      loading={loading}
      className="role-dropdown"
    />
  );
}
