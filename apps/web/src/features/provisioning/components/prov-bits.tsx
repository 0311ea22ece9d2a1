/** Pieces the provisioning pages share: a value with a Copy button, the label actions and their warning, saving and printing a file. */
import { useState } from 'react';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { DEVICE_MODELS, PUBLIC_ADDRESS_MESSAGES, mutationErrorMessage, type LabelFormat } from '@portal/core';
import { downloadBlob } from '@/lib/download';
import { useDeviceLabel, type LabelFile } from '../api/prov-labels';

/** The models a device can be, for the model dropdowns. */
export const MODEL_OPTIONS = DEVICE_MODELS.map((m) => ({ label: m, value: m }));

/** Shown beside the label buttons when the server has no public address: the QR code would open localhost. */
export function LabelAddressWarning({ publicUrlConfigured }: { publicUrlConfigured: boolean }) {
  if (publicUrlConfigured) return null;
  return (
    <Message
      severity="warn"
      className="prov-message"
      text={PUBLIC_ADDRESS_MESSAGES.labelWithoutPublicUrl}
      data-testid="label-address-warning"
    />
  );
}

/** Opens a PDF in a new tab to print it. The tab is opened at the click (popup blockers allow that) and given the file when it arrives. */
export async function printFile(load: () => Promise<LabelFile>): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const { blob } = await load();
    const url = URL.createObjectURL(blob);
    if (tab) tab.location.href = url;
    else window.open(url, '_blank');
    // the tab keeps the document it loaded; the address is freed later
    window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (err) {
    tab?.close();
    throw err;
  }
}

/** A secret or id shown in monospace with a Copy button that says when it copied. */
export function CopyValue({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="prov-copy">
      <span className="prov-copy__label">{label}</span>
      <div className="prov-copy__row">
        <code className="prov-copy__value" data-testid={`copy-${label}`}>
          {value}
        </code>
        <Button
          type="button"
          icon={copied ? 'pi pi-check' : 'pi pi-copy'}
          label={copied ? 'Copied' : 'Copy'}
          className="p-button-outlined p-button-sm"
          aria-label={`Copy ${label.toLowerCase()}`}
          onClick={() => void navigator.clipboard?.writeText(value).then(() => setCopied(true))}
        />
      </div>
    </div>
  );
}

/**
 * The label of a device: download it as PDF or PNG, or print the PDF. Each download is written to
 * the device's log. Warns when the server has no public address (PUBLIC_URL).
 */
export function LabelActions({ deviceid, publicUrlConfigured }: { deviceid: string; publicUrlConfigured: boolean }) {
  const label = useDeviceLabel(deviceid);
  const [busy, setBusy] = useState<LabelFormat | 'print' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = async (which: LabelFormat | 'print') => {
    setBusy(which);
    setError(null);
    try {
      if (which === 'print') await printFile(() => label.mutateAsync('pdf'));
      else {
        const file = await label.mutateAsync(which);
        downloadBlob(file.blob, file.fileName);
      }
    } catch (err) {
      setError(mutationErrorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="prov-label-actions">
      <div className="prov-actions">
        <Button
          type="button"
          icon="pi pi-file-pdf"
          label="Label PDF"
          className="p-button-outlined"
          loading={busy === 'pdf'}
          disabled={busy !== null}
          onClick={() => void run('pdf')}
        />
        <Button
          type="button"
          icon="pi pi-image"
          label="Label PNG"
          className="p-button-outlined"
          loading={busy === 'png'}
          disabled={busy !== null}
          onClick={() => void run('png')}
        />
        <Button
          type="button"
          icon="pi pi-print"
          label="Print label"
          className="p-button-outlined"
          loading={busy === 'print'}
          disabled={busy !== null}
          onClick={() => void run('print')}
        />
      </div>
      <LabelAddressWarning publicUrlConfigured={publicUrlConfigured} />
      {error && <Message severity="error" text={error} className="prov-message" />}
    </div>
  );
}

/** The issues of a Zod result by their first path key. */
export function issuesByField(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? '');
    out[key] ??= issue.message;
  }
  return out;
}
