/**
 * The staff user page's brand image (BRD-13): the customer's sub-brand logo, shown beside the
 * brand's own in the navigation bar on brands that allow a sub-brand. Staff choose a png, jpeg or
 * webp of at most 300 kB (checked here by its size and first bytes, never by its name, and by the
 * server again) and it is saved at once; Remove takes it away. Saves answer with the 'Success'
 * dialog and the server's message, failures with 'Error' (ERR-05/06).
 */
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { Button } from 'primereact/button';
import { BRAND_IMAGE_MESSAGES, IMAGE_MAX_BYTES, brandImageTypeOf } from '@portal/core';
import { useMessageDialog } from '@/lib/message-dialog';
import { useUserBrandImage } from '../api/user-brand-image';

/** Bytes read to tell an image's type (webp's header is 12). */
const HEAD_BYTES = 12;

/** Why the file cannot be a brand image, or null: its size, then its first bytes. */
async function fileProblem(file: File): Promise<string | null> {
  if (file.size > IMAGE_MAX_BYTES) return BRAND_IMAGE_MESSAGES.tooLarge;
  const head = new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer());
  return brandImageTypeOf(head) ? null : BRAND_IMAGE_MESSAGES.type;
}

export function StaffBrandImage({ userid, email, url }: { userid: string; email: string; url: string | null }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const change = useUserBrandImage(userid);
  const messages = useMessageDialog();
  const save = (file: File | null) =>
    change.mutate(file, {
      onSuccess: (answer) => messages.showSuccess(answer),
      onError: (error) => messages.showError(error),
    });

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = ''; // choosing the same file again fires change again
    if (!chosen) return;
    const found = await fileProblem(chosen);
    setProblem(found);
    if (!found) save(chosen);
  };

  return (
    <section className="staff-brand" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="staff-subtitle">
        Brand image
      </h3>
      <p id={`${id}-hint`} className="staff-hint">
        The customer&apos;s logo beside the brand&apos;s in the navigation bar, on brands that allow a sub-brand. png,
        jpeg or webp, up to {IMAGE_MAX_BYTES / 1024} kB.
      </p>
      <div className="staff-brand__row">
        <div className="staff-brand__preview">
          {url ? (
            <img src={url} alt={`Brand image of ${email}`} />
          ) : (
            <span className="staff-muted">No brand image</span>
          )}
        </div>
        <div className="staff-brand__actions">
          <input
            ref={input}
            id={`${id}-file`}
            type="file"
            accept="image/png,image/jpeg,image/webp"
            className="visually-hidden"
            tabIndex={-1}
            aria-label="Brand image file"
            aria-describedby={`${id}-hint`}
            onChange={(event) => void onFile(event)}
          />
          <Button
            type="button"
            label={url ? 'Replace image' : 'Upload image'}
            icon="pi pi-upload"
            size="small"
            outlined
            loading={change.isPending && change.variables !== null}
            disabled={change.isPending}
            onClick={() => input.current?.click()}
          />
          {url && (
            <Button
              type="button"
              label="Remove"
              icon="pi pi-times"
              size="small"
              text
              severity="danger"
              aria-label={`Remove the brand image of ${email}`}
              loading={change.isPending && change.variables === null}
              disabled={change.isPending}
              onClick={() => save(null)}
            />
          )}
        </div>
      </div>
      {problem && (
        <p className="form-field__error" role="alert">
          <i className="pi pi-exclamation-circle" aria-hidden="true" /> {problem}
        </p>
      )}
    </section>
  );
}
