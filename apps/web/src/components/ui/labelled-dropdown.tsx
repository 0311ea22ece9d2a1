import { Dropdown, type DropdownProps } from 'primereact/dropdown';

export interface LabelledDropdownProps extends Omit<DropdownProps, 'pt' | 'ariaLabel' | 'aria-label'> {
  /** The accessible name ('Kind', 'Permission of a@b.com'). */
  label: string;
  /** The name of the button that opens the list (default 'Show the choices'). */
  triggerLabel?: string;
}

/**
 * PrimeReact's Dropdown named on every part axe-core checks: the focusable input, the hidden
 * native select it keeps for forms, and the trigger button. PrimeReact 10 also leaves
 * aria-activedescendant on its root (a div without a role) after a pick, pointing at no element,
 * which axe-core flags twice: the root does not carry it (the input does).
 */
export function LabelledDropdown({ label, triggerLabel = 'Show the choices', ...props }: LabelledDropdownProps) {
  return (
    <Dropdown
      {...props}
      ariaLabel={label}
      aria-label={label}
      pt={{
        select: { 'aria-label': label },
        trigger: { 'aria-label': triggerLabel },
        root: { 'aria-activedescendant': undefined },
      }}
    />
  );
}
