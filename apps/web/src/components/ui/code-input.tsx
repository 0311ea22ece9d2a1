import type { ClipboardEvent, KeyboardEvent } from 'react';
import { InputText } from 'primereact/inputtext';
import { cleanMfaCode } from '@portal/core';

interface CodeInputProps {
  id: string;
  value: string;
  onChange: (code: string) => void;
  disabled?: boolean;
  invalid?: boolean;
  autoFocus?: boolean;
  describedBy?: string | undefined;
  onEnter?: () => void;
}

/** A 6-digit one-time code: digits only, typed or pasted (pasting strips everything else). */
export function CodeInput({ id, value, onChange, disabled, invalid, autoFocus, describedBy, onEnter }: CodeInputProps) {
  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const input = event.currentTarget;
    const pasted = event.clipboardData.getData('text');
    const start = input.selectionStart ?? value.length;
    const end = input.selectionEnd ?? value.length;
    onChange(cleanMfaCode(value.slice(0, start) + pasted + value.slice(end)));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && onEnter) {
      event.preventDefault();
      onEnter();
    }
  };
  return (
    <InputText
      id={id}
      className="code-input"
      value={value}
      onChange={(event) => onChange(cleanMfaCode(event.target.value))}
      onPaste={onPaste}
      onKeyDown={onKeyDown}
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      maxLength={6}
      disabled={disabled}
      invalid={invalid}
      autoFocus={autoFocus}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      placeholder="000000"
      spellCheck={false}
    />
  );
}
