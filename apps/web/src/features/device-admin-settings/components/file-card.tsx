import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { Button } from 'primereact/button';
import {
  DEVICE_CONFIG_MESSAGES,
  DEVICE_FILE_MAX_BYTES,
  DEVICE_FILE_NAME_PATTERN,
  mutationErrorMessage,
  type CommandView,
} from '@portal/core';
import { uploadDeviceFile } from '../api/upload-device-file';
import { readFileAsBase64 } from '../utils/read-file';
import { AdminCard, DoneLine, ErrorLine, WorkProgress } from './admin-card';

const FILE_NAME_MESSAGE = 'The file name may have only letters, digits, dots, dashes and underscores (at most 64).';
const SIZE = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/** Bytes as B, kB or MB (1000s, as the 8 MB limit is written). */
function sizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${SIZE.format(bytes / 1000)} kB`;
  return `${SIZE.format(bytes / 1_000_000)} MB`;
}

type Work = { step: 'reading' | 'uploading'; fraction: number } | null;

/**
 * File upload (API-37): a file of at most 8 MB for the device, refused before it is read when
 * larger; read and encoded, then uploaded, each with its progress; queued as 'Admin.File'.
 */
export function FileCard({ deviceid }: { deviceid: string }) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [work, setWork] = useState<Work>(null);
  const [done, setDone] = useState<{ name: string; command: CommandView } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    setDone(null);
    setError(null);
    setFile(null);
    if (!chosen) return;
    if (chosen.size > DEVICE_FILE_MAX_BYTES) {
      setError(DEVICE_CONFIG_MESSAGES.fileTooLarge);
      event.target.value = '';
      return;
    }
    if (!DEVICE_FILE_NAME_PATTERN.test(chosen.name)) {
      setError(FILE_NAME_MESSAGE);
      event.target.value = '';
      return;
    }
    setFile(chosen);
  };

  const upload = async () => {
    if (!file || work) return;
    const controller = new AbortController();
    abort.current = controller;
    setError(null);
    setWork({ step: 'reading', fraction: 0 });
    try {
      const fileDataBase64 = await readFileAsBase64(
        file,
        (fraction) => setWork({ step: 'reading', fraction }),
        controller.signal,
      );
      setWork({ step: 'uploading', fraction: 0 });
      const command = await uploadDeviceFile(
        deviceid,
        { fileName: file.name, fileDataBase64 },
        (fraction) => setWork({ step: 'uploading', fraction }),
        controller.signal,
      );
      setDone({ name: file.name, command });
      setFile(null);
      if (input.current) input.current.value = '';
    } catch (failure) {
      if (!(failure instanceof DOMException && failure.name === 'AbortError')) setError(mutationErrorMessage(failure));
    } finally {
      if (abort.current === controller) abort.current = null;
      setWork(null);
    }
  };

  return (
    <AdminCard id="admin-file" title="File upload">
      <p className="muted as-text">A file for the device (at most 8 MB), sent at its next contact.</p>
      <div className="form-field">
        <label htmlFor="admin-file-input" className="form-field__label">
          File
        </label>
        <input
          ref={input}
          id="admin-file-input"
          className="as-file-input"
          type="file"
          disabled={work !== null}
          onChange={choose}
          aria-describedby={error ? 'admin-file-error' : undefined}
        />
        {file && (
          <small className="form-field__hint">
            {file.name}, {sizeText(file.size)}
          </small>
        )}
      </div>
      <ErrorLine id="admin-file-error" message={error} />
      {work && (
        <WorkProgress label={work.step === 'reading' ? 'Reading the file' : 'Uploading'} fraction={work.fraction} />
      )}
      {done && (
        <DoneLine>
          {done.name} uploaded ({sizeText((done.command.args as { size?: number }).size ?? 0)}): the device fetches it
          at its next contact.
        </DoneLine>
      )}
      <div className="form-actions form-actions--start">
        <Button
          type="button"
          label="Upload"
          icon="pi pi-upload"
          disabled={!file || work !== null}
          loading={work !== null}
          onClick={() => void upload()}
        />
        {work && <Button type="button" label="Cancel" text onClick={() => abort.current?.abort()} />}
      </div>
    </AdminCard>
  );
}
