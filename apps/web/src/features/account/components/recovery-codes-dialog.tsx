import { useState } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { SUCCESS_TITLE } from '@portal/core';
import { brand } from '@/lib/brand';

export interface IssuedRecoveryCodes {
  /** The server's message: what changed. */
  message: string;
  codes: string[];
  email: string;
}

export const RECOVERY_CODES_ADVICE = 'Store these codes somewhere safe. Each can be used once.';

/** The text file of a set of codes: who they are for, how to use them, one code a line. */
function codesFile({ codes, email }: IssuedRecoveryCodes): string {
  return [
    `${brand.name} recovery codes for ${email}`,
    'Each code can be used once, in place of the 6-digit code when you sign in.',
    '',
    ...codes,
    '',
  ].join('\n');
}

function download(issued: IssuedRecoveryCodes): void {
  const url = URL.createObjectURL(new Blob([codesFile(issued)], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${brand.id}-recovery-codes.txt`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Multi-factor authentication was turned on, or a new set of codes made: the spec's 'Success'
 * dialog with the server's message, and the recovery codes, shown this once, to copy or download.
 */
export function RecoveryCodesDialog({ issued, onHide }: { issued: IssuedRecoveryCodes | null; onHide: () => void }) {
  const [copied, setCopied] = useState(false);

  const copy = () => {
    if (!issued) return;
    void navigator.clipboard?.writeText(codesFile(issued)).then(() => setCopied(true));
  };

  const hide = () => {
    setCopied(false);
    onHide();
  };

  return (
    <Dialog
      visible={issued !== null}
      onHide={hide}
      header={SUCCESS_TITLE}
      className="message-dialog message-dialog--success recovery-codes-dialog"
      breakpoints={{ '575px': 'calc(100vw - 32px)' }}
      style={{ width: '32rem' }}
      draggable={false}
      resizable={false}
      footer={<Button label="Done" onClick={hide} autoFocus />}
    >
      {issued && (
        <>
          <p className="message-dialog__body">
            <i className="pi pi-check-circle" aria-hidden="true" />
            <span>{issued.message}</span>
          </p>
          <section className="recovery-codes" aria-labelledby="recovery-codes-title">
            <h3 id="recovery-codes-title">Your recovery codes</h3>
            <p>
              <strong>{RECOVERY_CODES_ADVICE}</strong> If you cannot get a code, choose <em>Use a recovery code</em>{' '}
              when you sign in. They are shown only now.
            </p>
            <ol className="recovery-codes__list" aria-label="Recovery codes">
              {issued.codes.map((code) => (
                <li key={code}>
                  <code>{code}</code>
                </li>
              ))}
            </ol>
            <div className="recovery-codes__actions">
              <Button
                type="button"
                label={copied ? 'Copied' : 'Copy'}
                icon={copied ? 'pi pi-check' : 'pi pi-copy'}
                outlined
                onClick={copy}
              />
              <Button
                type="button"
                label="Download .txt"
                icon="pi pi-download"
                outlined
                onClick={() => download(issued)}
              />
            </div>
          </section>
        </>
      )}
    </Dialog>
  );
}
