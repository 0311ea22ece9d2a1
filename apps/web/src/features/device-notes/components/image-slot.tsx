import { useRef, useState, type ChangeEvent } from 'react';
import { Button } from 'primereact/button';
import { IMAGE_MAX_BYTES, IMAGE_TYPES, imageError } from '@portal/core';

interface ImageSlotProps {
  id: string;
  label: string;
  /** The image (a data URL or an address), or null for none. */
  value: string | null;
  editable: boolean;
  onChange: (value: string | null) => void;
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      typeof reader.result === 'string' ? resolve(reader.result) : reject(new Error('unreadable'));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });
}

/** One image of the device notes: a preview, and (when editable) choose / remove. png or jpeg, 300 kB at most. */
export function ImageSlot({ id, label, value, editable, onChange }: ImageSlotProps) {
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const errorId = `${id}-error`;
  const labelId = `${id}-label`;

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // choosing the same file again fires change again
    if (!file) return;
    const problem = imageError(file);
    setError(problem);
    if (problem) return;
    setReading(true);
    try {
      onChange(await readAsDataUrl(file));
    } catch {
      setError('The image could not be read.');
    } finally {
      setReading(false);
    }
  };

  return (
    <div className="notes-image" role="group" aria-labelledby={labelId}>
      <span id={labelId} className="form-field__label">
        {label}
      </span>
      <div className="notes-image__preview">
        {value ? (
          <img src={value} alt={label} />
        ) : (
          <span className="notes-image__empty">
            <i className="pi pi-image" aria-hidden="true" />
            No image
          </span>
        )}
      </div>
      {editable && (
        <div className="notes-image__actions">
          <input
            ref={input}
            id={id}
            type="file"
            accept={IMAGE_TYPES.join(',')}
            className="visually-hidden"
            tabIndex={-1}
            aria-hidden="true"
            onChange={(event) => void onFile(event)}
          />
          <Button
            type="button"
            size="small"
            outlined
            icon="pi pi-upload"
            label={value ? 'Replace' : 'Choose image'}
            aria-label={`${value ? 'Replace' : 'Choose'} ${label.toLowerCase()}`}
            aria-describedby={error ? errorId : `${id}-hint`}
            loading={reading}
            onClick={() => input.current?.click()}
          />
          {value && (
            <Button
              type="button"
              size="small"
              text
              severity="secondary"
              icon="pi pi-trash"
              label="Remove"
              aria-label={`Remove ${label.toLowerCase()}`}
              onClick={() => {
                setError(null);
                onChange(null);
              }}
            />
          )}
        </div>
      )}
      {error ? (
        <small id={errorId} className="form-field__error" role="alert">
          <i className="pi pi-exclamation-circle" aria-hidden="true" /> {error}
        </small>
      ) : (
        editable && (
          <small id={`${id}-hint`} className="form-field__hint">
            png or jpeg, up to {IMAGE_MAX_BYTES / 1024} kB
          </small>
        )
      )}
    </div>
  );
}
