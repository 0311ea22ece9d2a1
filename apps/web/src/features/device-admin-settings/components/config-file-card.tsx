import { useRef, useState, type ChangeEvent } from 'react';
import { Button } from 'primereact/button';
import {
  DEVICE_CONFIG_MESSAGES,
  mergeDeviceConfig,
  mutationErrorMessage,
  readConfigFile,
  type ConfigFileReading,
  type DeviceConfigResponse,
} from '@portal/core';
import { downloadBlob } from '@/lib/download';
import { exportConfig } from '../api/export-config';
import { useImportConfig } from '../api/import-config';
import { AdminCard, DoneLine, ErrorLine } from './admin-card';

/** A config file is a few kB; anything near this is not one. */
const CONFIG_FILE_MAX_BYTES = 1_000_000;
const TOO_LARGE = 'The file is larger than 1 MB: it is not a config export.';

type Preview = Extract<ConfigFileReading, { ok: true }> & { fileName: string };

function valueText(value: unknown): string {
  if (value === undefined) return 'not set';
  return JSON.stringify(value);
}

/** The config the device will run once what is pending is applied: what an import changes. */
function upcomingConfig(config: DeviceConfigResponse): Record<string, unknown> {
  return config.pending ? mergeDeviceConfig(config.config, config.pending) : config.config;
}

/**
 * Config import and export (SUB-28, API-26, API-27): export downloads the applied config as a
 * JSON file; import reads such a file, shows per section what it will change, and only then
 * sends it (queued like a settings change). A malformed file gets a message and sends nothing.
 */
export function ConfigFileCard({ deviceid, config }: { deviceid: string; config: DeviceConfigResponse }) {
  const importing = useImportConfig(deviceid);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const download = async () => {
    setExporting(true);
    setExportError(null);
    try {
      const file = await exportConfig(deviceid);
      const day = new Date().toISOString().slice(0, 10);
      downloadBlob(
        new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }),
        `${deviceid}-config-${day}.json`,
      );
    } catch (failure) {
      setExportError(mutationErrorMessage(failure));
    } finally {
      setExporting(false);
    }
  };

  const clearFile = () => {
    setPreview(null);
    if (input.current) input.current.value = '';
  };

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setFileError(null);
    setPreview(null);
    importing.reset();
    if (!file) return;
    if (file.size > CONFIG_FILE_MAX_BYTES) {
      setFileError(TOO_LARGE);
      clearFile();
      return;
    }
    const reading = readConfigFile(await file.text(), upcomingConfig(config));
    if (!reading.ok) {
      setFileError(reading.message);
      clearFile();
      return;
    }
    setPreview({ ...reading, fileName: file.name });
  };

  const changes = preview?.sections.reduce((n, s) => n + s.changes.length, 0) ?? 0;

  return (
    <AdminCard id="admin-config-file" title="Config import and export">
      <p className="muted as-text">
        Export saves the device&apos;s config as a JSON file. Importing such a file (from this or another device) queues
        its settings for the device&apos;s next contact; the device&apos;s id, model and firmware in it are ignored.
      </p>
      <div className="form-actions form-actions--start">
        <Button
          type="button"
          label="Export config"
          icon="pi pi-download"
          outlined
          loading={exporting}
          onClick={() => void download()}
        />
      </div>
      <ErrorLine message={exportError} />
      <div className="form-field">
        <label htmlFor="admin-config-file-input" className="form-field__label">
          Import a config file
        </label>
        <input
          ref={input}
          id="admin-config-file-input"
          className="as-file-input"
          type="file"
          accept=".json,application/json"
          disabled={importing.isPending}
          onChange={(event) => void choose(event)}
        />
      </div>
      <ErrorLine message={fileError} />
      {preview && (
        <div className="as-preview" aria-labelledby="admin-config-preview-title">
          <h4 id="admin-config-preview-title" className="as-preview__title">
            {changes === 0
              ? `${preview.fileName}: no change to the device's config`
              : `${preview.fileName}: ${changes === 1 ? '1 value changes' : `${changes} values change`}`}
          </h4>
          <ul className="as-preview__sections">
            {preview.sections.map((section) => (
              <li key={section.section}>
                <strong>{section.section}</strong>
                {section.changes.length === 0 ? (
                  <span className="muted"> unchanged</span>
                ) : (
                  <ul className="as-preview__changes">
                    {section.changes.map((change) => (
                      <li key={change.path}>
                        <code>{change.path}</code>: {valueText(change.from)} → {valueText(change.to)}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
          <div className="form-actions form-actions--start">
            <Button
              type="button"
              label="Cancel"
              text
              disabled={importing.isPending}
              onClick={() => {
                clearFile();
                importing.reset();
              }}
            />
            <Button
              type="button"
              label="Import"
              icon="pi pi-file-import"
              loading={importing.isPending}
              onClick={() => importing.mutate(preview.document, { onSuccess: clearFile })}
            />
          </div>
        </div>
      )}
      <ErrorLine message={importing.isError ? mutationErrorMessage(importing.error) : null} />
      {importing.isSuccess && <DoneLine>Config imported. {DEVICE_CONFIG_MESSAGES.queued}</DoneLine>}
    </AdminCard>
  );
}
