import { useState, type ComponentProps } from 'react';
import { InputText } from 'primereact/inputtext';

type PasswordInputProps = Omit<ComponentProps<typeof InputText>, 'type'>;

/** A password input with a labelled show/hide button. */
export function PasswordInput(props: PasswordInputProps) {
  const [shown, setShown] = useState(false);
  return (
    <div className="password-input">
      <InputText {...props} type={shown ? 'text' : 'password'} />
      <button
        type="button"
        className="password-input__toggle"
        aria-label={shown ? 'Hide password' : 'Show password'}
        aria-pressed={shown}
        aria-controls={props.id}
        onClick={() => setShown((value) => !value)}
      >
        <i className={shown ? 'pi pi-eye-slash' : 'pi pi-eye'} aria-hidden="true" />
      </button>
    </div>
  );
}
