/**
 * The Scripting page's content (spec 2 sections 2, 6-9; ledger SUB-20 to SUB-24; DESIGN.md
 * section 5): the device script in a CodeMirror editor, loaded base64-decoded (a script that does
 * not decode opens an empty editor with a message) and saved base64-encoded for the device's next
 * contact, with the size limit checked before sending; the edit lock (who holds it and since when;
 * read-only and no Save while someone else holds it; Force unlock for an ADMIN); the editor's
 * light or dark theme kept in local storage; 'Firmware Update Required' for firmware older than
 * SFW003. ADMIN and USER only: the page asks, the server decides (403 for OPERATOR and VIEW).
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import {
  CARD_MESSAGES,
  SCRIPT_MAX_BYTES,
  SCRIPT_THEMES,
  can,
  decodeScript,
  encodeScript,
  loadErrorDetail,
  mutationErrorMessage,
  scriptByteLength,
  scriptSizeError,
  scriptingSupported,
  type DeviceRole,
  type ScriptLock,
} from '@portal/core';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LocalTime } from '@/components/ui/local-time';
import { ApiError } from '@/lib/api';
import { useForceScriptUnlock } from '../api/force-script-unlock';
import { useScript, type ScriptResponse } from '../api/get-script';
import { useSaveScript } from '../api/put-script';
import { useScriptLock } from '../api/put-script-lock';
import { useScriptTheme } from '../hooks/use-script-theme';
import './script.css';

const ScriptEditor = lazy(() => import('./script-editor'));

export interface ScriptPanelProps {
  deviceid: string;
  /** The firmware the device reports (config settings.device.fw); null when unknown. */
  firmware: string | null;
  /** The user's role on the device (the settings call's myPermission). */
  role: DeviceRole;
  /** The signed-in user's id, to tell their own lock from someone else's. */
  userId: string;
}

export const SCRIPT_TEXTS = {
  refused: "Scripting is open to the device's administrators and users.",
  decodeFailed:
    'The saved script could not be decoded (it is not base64 of UTF-8 text), so the editor starts empty. Saving replaces it.',
  saved: "Saved. The script is delivered at the device's next contact.",
  changedElsewhere: 'The saved script has changed since you opened it.',
  noChanges: 'No changes to save.',
} as const;

const BYTES = new Intl.NumberFormat();

interface Synced {
  /** The server's base64 last put into the editor. */
  data: string;
  /** Its text ('' when it did not decode). */
  text: string;
  failed: boolean;
}

type Notice = { tone: 'error' | 'ok' | 'info'; text: string };

function synced(data: string): Synced {
  const text = decodeScript(data);
  return { data, text: text ?? '', failed: text === null };
}

export function ScriptPanel({ deviceid, firmware, role, userId }: ScriptPanelProps) {
  const query = useScript(deviceid);

  if (query.isError && !query.data) {
    const refused = query.error instanceof ApiError && query.error.status === 403;
    return (
      <section className="card sc-state" role="alert">
        <i className={`pi ${refused ? 'pi-lock' : 'pi-exclamation-triangle'} sc-state__icon`} aria-hidden="true" />
        <p className="sc-state__message">{loadErrorDetail(query.error)}</p>
        {refused ? (
          <p className="muted">{SCRIPT_TEXTS.refused}</p>
        ) : (
          <Button type="button" label="Try again" className="p-button-outlined" onClick={() => void query.refetch()} />
        )}
      </section>
    );
  }
  if (query.isPending) return <ScriptSkeleton />;
  if (firmware !== null && !scriptingSupported(firmware)) {
    return (
      <section className="card sc-state" aria-labelledby="sc-firmware-heading">
        <i className="pi pi-download sc-state__icon" aria-hidden="true" />
        <h2 id="sc-firmware-heading" className="sc-state__message">
          {CARD_MESSAGES.firmwareUpdateRequired}
        </h2>
        <p className="muted">
          Scripting needs firmware SFW003 or later; this device runs {firmware}.{' '}
          {can(role, 'adminSettings') ? (
            <Link to={`/config/${deviceid}`}>Update the firmware in Settings.</Link>
          ) : (
            "The device's administrator can update it in Settings."
          )}
        </p>
      </section>
    );
  }
  return <ScriptEditorCard deviceid={deviceid} script={query.data} role={role} userId={userId} />;
}

function ScriptSkeleton() {
  return (
    <div className="card sc-card" role="status" aria-label="Loading the script">
      <div className="skeleton sc-skeleton-line" />
      <div className="skeleton sc-skeleton-editor" />
    </div>
  );
}

function ScriptEditorCard({
  deviceid,
  script,
  role,
  userId,
}: {
  deviceid: string;
  script: ScriptResponse;
  role: DeviceRole;
  userId: string;
}) {
  const [theme, setTheme] = useScriptTheme();
  const save = useSaveScript(deviceid);
  const [base, setBase] = useState<Synced>(() => synced(script.data));
  const [draft, setDraft] = useState(base.text);
  const [notice, setNotice] = useState<Notice | null>(
    base.failed ? { tone: 'error', text: SCRIPT_TEXTS.decodeFailed } : null,
  );

  const dirty = draft !== base.text;
  // A newer saved script (another user's save, the device's applied one) replaces an unedited editor.
  if (script.data !== base.data && !dirty) {
    const next = synced(script.data);
    setBase(next);
    setDraft(next.text);
    setNotice(next.failed ? { tone: 'error', text: SCRIPT_TEXTS.decodeFailed } : null);
  }
  const changedElsewhere = script.data !== base.data && dirty;

  // The browser's own prompt guards unsaved work when the tab is closed or reloaded.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const lock = script.lock;
  const lockedByOther = lock !== null && lock.userid !== userId;
  const bytes = scriptByteLength(draft);
  const over = bytes > SCRIPT_MAX_BYTES;
  const canSave = !lockedByOther && !save.isPending && (dirty || base.failed);

  const onSave = () => {
    if (lockedByOther || save.isPending) return;
    const sizeError = scriptSizeError(draft);
    if (sizeError) {
      setNotice({ tone: 'error', text: sizeError });
      return;
    }
    if (!dirty && !base.failed) {
      setNotice({ tone: 'info', text: SCRIPT_TEXTS.noChanges });
      return;
    }
    const text = draft;
    setNotice(null);
    save.mutate(encodeScript(text), {
      onSuccess: (answer) => {
        setBase({ data: answer.data, text, failed: false });
        setNotice({ tone: 'ok', text: SCRIPT_TEXTS.saved });
      },
      onError: (error) => setNotice({ tone: 'error', text: mutationErrorMessage(error) }),
    });
  };

  const revert = () => {
    setDraft(base.text);
    setNotice(null);
  };
  const loadSaved = () => {
    const next = synced(script.data);
    setBase(next);
    setDraft(next.text);
    setNotice(next.failed ? { tone: 'error', text: SCRIPT_TEXTS.decodeFailed } : null);
  };

  return (
    <section className={`card sc-card sc-card--${theme}`} aria-labelledby="sc-heading">
      <header className="sc-head">
        <h2 id="sc-heading">Device script</h2>
        <DeliveryTag script={script} />
      </header>

      <LockBar deviceid={deviceid} lock={lock} userId={userId} role={role} onMessage={setNotice} />

      {changedElsewhere && (
        <div className="sc-note sc-note--info" role="status">
          <span>{SCRIPT_TEXTS.changedElsewhere}</span>
          <Button type="button" size="small" outlined label="Load the saved script" onClick={loadSaved} />
        </div>
      )}

      <div className="sc-toolbar">
        <span className="sc-theme" role="group" aria-label="Editor theme">
          {SCRIPT_THEMES.map((option) => (
            <button
              key={option}
              type="button"
              className="sc-theme__option"
              aria-pressed={theme === option}
              onClick={() => setTheme(option)}
            >
              <i className={`pi ${option === 'dark' ? 'pi-moon' : 'pi-sun'}`} aria-hidden="true" />{' '}
              {option === 'dark' ? 'Dark' : 'Light'}
            </button>
          ))}
        </span>
        <span className={`sc-size${over ? ' sc-size--over' : ''}`} aria-live="polite">
          {BYTES.format(bytes)} / {BYTES.format(SCRIPT_MAX_BYTES)} bytes
        </span>
        <span className="sc-toolbar__actions">
          {dirty && <Button type="button" size="small" text label="Revert" icon="pi pi-undo" onClick={revert} />}
          <Button
            type="button"
            size="small"
            label="Save"
            icon="pi pi-save"
            loading={save.isPending}
            disabled={!canSave}
            onClick={onSave}
          />
        </span>
      </div>

      <div
        className={`sc-notice${notice ? ` sc-notice--${notice.tone}` : ''}`}
        role={notice?.tone === 'error' ? 'alert' : 'status'}
      >
        {notice?.text}
      </div>

      <Suspense
        fallback={<div className="skeleton sc-skeleton-editor" role="status" aria-label="Loading the editor" />}
      >
        <ScriptEditor
          value={draft}
          onChange={setDraft}
          theme={theme}
          readOnly={lockedByOther}
          onSave={onSave}
          describedBy="sc-keys"
        />
      </Suspense>
      <p id="sc-keys" className="muted sc-keys">
        {lockedByOther && lock ? `Read-only while ${lock.email} holds the lock. ` : ''}
        Tab indents; Escape, then Tab, moves on from the editor. Ctrl+S (⌘S) saves.
      </p>
    </section>
  );
}

/** Pending (saved, waiting for the device), running on the device, or no script yet. */
function DeliveryTag({ script }: { script: ScriptResponse }) {
  if (script.pending)
    return (
      <span className="sc-tag sc-tag--pending" title="Delivered at the device's next contact">
        Pending delivery
      </span>
    );
  if (script.data === '') return <span className="sc-tag">No script yet</span>;
  return <span className="sc-tag sc-tag--applied">Applied on the device</span>;
}

function LockBar({
  deviceid,
  lock,
  userId,
  role,
  onMessage,
}: {
  deviceid: string;
  lock: ScriptLock | null;
  userId: string;
  role: DeviceRole;
  onMessage: (notice: Notice | null) => void;
}) {
  const setLock = useScriptLock(deviceid);
  const force = useForceScriptUnlock(deviceid);
  const [confirming, setConfirming] = useState(false);
  const busy = setLock.isPending || force.isPending;
  const fail = (error: unknown) => onMessage({ tone: 'error', text: mutationErrorMessage(error) });
  const change = (next: boolean) => {
    onMessage(null);
    setLock.mutate(next, { onError: fail });
  };
  const mine = lock !== null && lock.userid === userId;

  return (
    <div className={`sc-lock${lock && !mine ? ' sc-lock--other' : ''}`}>
      <p className="sc-lock__text" role="status">
        <i className={`pi ${lock ? 'pi-lock' : 'pi-lock-open'} sc-lock__icon`} aria-hidden="true" />{' '}
        {lock === null ? (
          <>Not locked. Lock the script while you edit, so that nobody else saves over your changes.</>
        ) : mine ? (
          <>
            You hold the lock since <LocalTime ts={new Date(lock.since)} />. Others can read the script but not save it.
          </>
        ) : (
          <>
            Locked by <strong>{lock.email || 'another user'}</strong> since <LocalTime ts={new Date(lock.since)} />. You
            can read the script; saving is off until they unlock it.
          </>
        )}
      </p>
      <span className="sc-lock__actions">
        {lock === null && (
          <Button
            type="button"
            size="small"
            outlined
            icon="pi pi-lock"
            label="Lock"
            loading={busy}
            onClick={() => change(true)}
          />
        )}
        {mine && (
          <Button
            type="button"
            size="small"
            outlined
            icon="pi pi-lock-open"
            label="Unlock"
            loading={busy}
            onClick={() => change(false)}
          />
        )}
        {lock !== null && !mine && can(role, 'adminSettings') && (
          <Button
            type="button"
            size="small"
            outlined
            severity="danger"
            icon="pi pi-unlock"
            label="Force unlock"
            disabled={busy}
            onClick={() => setConfirming(true)}
          />
        )}
      </span>
      {lock !== null && (
        <ConfirmDialog
          visible={confirming}
          header="Force unlock"
          confirmLabel="Force unlock"
          confirmIcon="pi pi-unlock"
          busy={force.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            onMessage(null);
            force.mutate(undefined, {
              onSuccess: () => setConfirming(false),
              onError: (error) => {
                setConfirming(false);
                fail(error);
              },
            });
          }}
        >
          {lock.email || 'Another user'} holds the script lock since <LocalTime ts={new Date(lock.since)} />. Forcing it
          open lets others save over the changes they have not saved yet.
        </ConfirmDialog>
      )}
    </div>
  );
}
