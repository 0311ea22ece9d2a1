import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { Button } from 'primereact/button';
import { IMAGE_MAX_BYTES, IMAGE_TYPES, imageError } from '@portal/core';

interface ImageSlotProps {
  id: string;
  label: string;
  /** The stored image's address (GET notes-image), or null for none. */
  src: string | null;
  /** A file chosen to replace it (uploaded on Save), null when none; `removed`: the stored one goes on Save. */
  file: File | null;
  removed: boolean;
  editable: boolean;
  onChoose: (file: File) => void;
  onRemove: () => void;
}

/** A local address showing a chosen file before it is uploaded, released when the file changes. */
function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const objectUrl = URL.createObjectURL(file);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file]);
  return url;
}

/**
 * One image of the device notes: a preview, and (when editable) choose / remove. png or jpeg, 300 kB
 * at most, checked here before anything is sent; the change is saved with the dialog's Save.
 */
export function ImageSlot({ id, label, src, file, removed, editable, onChoose, onRemove }: ImageSlotProps) {
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const preview = useObjectUrl(file);
  const shown = file ? preview : removed ? null : src;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const labelId = `${id}-label`;

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = ''; // choosing the same file again fires change again
    if (!chosen) return;
    const problem = imageError(chosen);
    setError(problem);
    if (!problem) onChoose(chosen);
  };

  const hint = file
    ? `${file.name}: uploaded when you save`
    : removed
      ? 'Removed when you save'
      : `png or jpeg, up to ${IMAGE_MAX_BYTES / 1024} kB`;

  return (
    <div className="notes-image" role="group" aria-labelledby={labelId}>
      <span id={labelId} className="form-field__label">
        {label}
      </span>
      <div className="notes-image__preview">
        {shown ? (
          <img src={shown} alt={label} />
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
            onChange={onFile}
          />
          <Button
            type="button"
            size="small"
            outlined
            icon="pi pi-upload"
            label={shown ? 'Replace' : 'Choose image'}
            aria-label={`${shown ? 'Replace' : 'Choose'} ${label.toLowerCase()}`}
            aria-describedby={error ? errorId : hintId}
            onClick={() => input.current?.click()}
          />
          {shown && (
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
                onRemove();
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
          <small id={hintId} className="form-field__hint">
            {hint}
          </small>
        )
      )}
    </div>
  );
}
