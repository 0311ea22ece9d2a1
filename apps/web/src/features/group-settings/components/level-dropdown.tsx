import { Dropdown } from 'primereact/dropdown';
import { DEVICE_ROLES, type DeviceRole } from '@portal/core';

const LEVEL_OPTIONS = DEVICE_ROLES.map((role) => ({ label: role, value: role }));

export interface LevelDropdownProps {
  value: DeviceRole;
  onChange: (level: DeviceRole) => void;
  /** The accessible name ('Level of a@b.com'). */
  ariaLabel: string;
  inputId?: string;
  disabled?: boolean;
  loading?: boolean;
}

/** A group level picker: ADMIN, USER, OPERATOR, VIEW. */
export function LevelDropdown({ value, onChange, ariaLabel, inputId, disabled, loading }: LevelDropdownProps) {
  return (
    <Dropdown
      inputId={inputId}
      value={value}
      options={LEVEL_OPTIONS}
      onChange={(event) => {
        const next = DEVICE_ROLES.find((role) => role === event.value);
        if (next && next !== value) onChange(next);
      }}
      aria-label={ariaLabel}
      ariaLabel={ariaLabel}
      // PrimeReact's hidden native select (for forms) needs the name too, or axe-core flags it.
      pt={{ select: { 'aria-label': ariaLabel } }}
      disabled={disabled}
      loading={loading}
      className="gs-level"
    />
  );
}
