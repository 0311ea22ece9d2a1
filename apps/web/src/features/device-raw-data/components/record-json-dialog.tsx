/** A record's raw JSON (serial capture as the base64 received), pretty-printed, with a copy button. */
import { useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { rawRecordJson, type RawRecordRow } from '@portal/core';
import { localTimeText } from '@/components/ui/local-time';

export function RecordJsonDialog({ row, onHide }: { row: RawRecordRow | null; onHide(): void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  useEffect(() => setCopied(null), [row]);
  const json = row ? JSON.stringify(rawRecordJson(row), null, 2) : '';

  const copy = () => {
    navigator.clipboard.writeText(json).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  };

  return (
    <Dialog
      header={row ? `Record of ${localTimeText(row.ts)}` : 'Record'}
      visible={row !== null}
      onHide={onHide}
      className="rd-dialog rd-json-dialog"
      breakpoints={{ '640px': '100vw' }}
      draggable={false}
      footer={
        <div className="rd-dialog__footer">
          <span className="muted" role="status">
            {copied === 'yes' ? 'Copied.' : copied === 'failed' ? 'Copying was not allowed by the browser.' : ''}
          </span>
          <Button type="button" label="Copy" icon="pi pi-copy" className="p-button-outlined" onClick={copy} />
          <Button type="button" label="Close" onClick={onHide} />
        </div>
      }
    >
      <pre className="rd-json" tabIndex={0} role="region" aria-label="The record as JSON">
        {json}
      </pre>
    </Dialog>
  );
}
