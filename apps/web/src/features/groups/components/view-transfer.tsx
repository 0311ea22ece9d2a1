/**
 * Copy, export and import of a view (issue 13, docs/decisions.md 'View copy and view files'), in
 * the View Settings dialog for editors: copy the view to another group where the user edits
 * views (a new view there, at the end of its tabs); export it as a view file
 * `{ format: 'portal-view', formatVersion: 1, view }`; import a view file into this group as a
 * new view. Core's rules do the work (portableView, parseViewFile, newViewForGroup): a wrong file
 * is refused naming what is wrong, and chart series of devices not in the target group are
 * dropped with a notice saying how many. The Add New View dialog offers the import only.
 */
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import {
  VIEW_FILE_MAX_BYTES,
  VIEW_SAVE_ERROR,
  VIEW_TRANSFER_MESSAGES,
  droppedSeriesNotice,
  fileNamePart,
  mutationErrorMessage,
  newViewForGroup,
  parseViewFile,
  portableView,
  viewCopyTargets,
  viewFileOf,
  viewsOrDefault,
  type PortableView,
  type View,
} from '@portal/core';
import { downloadBlob } from '@/lib/download';
import { useMessageDialog } from '@/lib/message-dialog';
import { showToast } from '@/lib/toast';
import { groupQueryOptions } from '../api/get-group';
import { useGroups, type GroupSummary } from '../api/get-groups';
import { viewsQueryOptions } from '../api/get-views';
import { putView } from '../api/save-view';
import { useViewSave } from '../hooks/use-view-save';

export interface ViewTransferProps {
  groupid: string;
  /** The view shown (copied and exported in 'edit' mode). */
  view: View;
  /** The group's views by sortOrder. */
  views: readonly View[];
  /** 'edit': copy, export and import; 'add': import only. */
  mode: 'add' | 'edit';
  /** Disables the actions while the dialog saves or deletes. */
  busy: boolean;
  /** After an import: the new view as stored. */
  onImported: (view: View) => void;
}

const JSON_TYPE = 'application/json';

/** The device ids and views of a group, through the query cache (fresh when cached, else asked for). */
function useTargetOf() {
  const queryClient = useQueryClient();
  return async (groupid: string) => {
    const [group, list] = await Promise.all([
      queryClient.fetchQuery(groupQueryOptions(groupid)),
      queryClient.fetchQuery(viewsQueryOptions(groupid)),
    ]);
    return { deviceIds: Object.keys(group.deviceSummaries), views: viewsOrDefault(list.views) };
  };
}

export function ViewTransfer({ groupid, view, views, mode, busy, onImported }: ViewTransferProps) {
  const headingId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const groups = useGroups();
  const saver = useViewSave(groupid);
  const targetOf = useTargetOf();
  const queryClient = useQueryClient();
  const messages = useMessageDialog();
  const [fileError, setFileError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [copying, setCopying] = useState(false);
  const [importing, setImporting] = useState(false);

  const editing = mode === 'edit';
  const targets = viewCopyTargets(groups.data ?? [], groupid);
  const groupName = groups.data?.find((g) => g.groupid === groupid)?.groupName ?? groupid;
  const working = busy || importing || saver.saving;

  const exportView = () => {
    const text = `${JSON.stringify(viewFileOf(view), null, 2)}\n`;
    downloadBlob(new Blob([text], { type: JSON_TYPE }), `${fileNamePart(groupName)} - ${fileNamePart(view.name)}.json`);
  };

  const importView = async (portable: PortableView) => {
    setImporting(true);
    try {
      const made = newViewForGroup(portable, { ...(await targetOf(groupid)), views });
      saver.save(made.view, (saved) => {
        const notice = droppedSeriesNotice(made.dropped);
        showToast(
          {
            severity: notice ? 'warn' : 'success',
            summary: VIEW_TRANSFER_MESSAGES.imported,
            detail: notice ? `‘${saved.name}’: ${notice}` : `‘${saved.name}’ was added to this group.`,
            life: notice ? 10_000 : 4_000,
          },
          'view-transfer',
        );
        onImported(saved);
      });
    } catch (error) {
      messages.show(VIEW_SAVE_ERROR, mutationErrorMessage(error), 'error');
    } finally {
      setImporting(false);
    }
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file chosen again must fire change again.
    event.target.value = '';
    if (!file) return;
    setFileError(null);
    setStatus(null);
    if (file.size > VIEW_FILE_MAX_BYTES) {
      setFileError(VIEW_TRANSFER_MESSAGES.tooLarge);
      return;
    }
    const parsed = parseViewFile(await file.text());
    if (!parsed.ok) {
      setFileError(`${file.name}: ${parsed.error}`);
      return;
    }
    await importView(parsed.value);
  };

  return (
    <section className="view-transfer" aria-labelledby={headingId}>
      <h3 id={headingId} className="view-transfer__title">
        {editing ? 'Copy, export or import' : 'Import a view'}
      </h3>
      <p className="view-transfer__hint">
        {editing
          ? 'Copy this view to another of your groups, save it as a JSON file, or add a view from such a file.'
          : 'Add a view from a JSON file exported from this or another group.'}
      </p>
      <div className="view-transfer__actions">
        {editing && (
          <>
            <Button
              type="button"
              label="Copy to Group"
              icon="pi pi-copy"
              outlined
              size="small"
              aria-haspopup="dialog"
              disabled={working || targets.length === 0}
              onClick={() => {
                setStatus(null);
                setCopying(true);
              }}
            />
            <Button
              type="button"
              label="Export JSON"
              icon="pi pi-download"
              outlined
              size="small"
              disabled={working}
              onClick={exportView}
            />
          </>
        )}
        <Button
          type="button"
          label="Import JSON"
          icon="pi pi-upload"
          outlined
          size="small"
          loading={importing || saver.saving}
          disabled={working}
          onClick={() => fileInput.current?.click()}
        />
        <input
          ref={fileInput}
          type="file"
          accept=".json,application/json"
          className="visually-hidden"
          tabIndex={-1}
          aria-label="View file to import"
          onChange={(event) => void onFile(event)}
        />
      </div>
      {editing && targets.length === 0 && groups.isSuccess && (
        <p className="view-transfer__hint">You edit views in no other group, so there is nowhere to copy to.</p>
      )}
      {fileError && (
        <p className="view-transfer__error" role="alert">
          <i className="pi pi-exclamation-circle" aria-hidden="true" /> {fileError}
        </p>
      )}
      {saver.stale && (
        <p className="view-transfer__error" role="alert">
          {saver.stale}
        </p>
      )}
      {status && (
        <p className="view-transfer__status" role="status">
          <i className="pi pi-check-circle" aria-hidden="true" /> {status}
        </p>
      )}
      {copying && (
        <CopyViewDialog
          view={view}
          targets={targets}
          onHide={() => setCopying(false)}
          onCopied={(target, dropped) => {
            setCopying(false);
            const notice = droppedSeriesNotice(dropped);
            setStatus(`‘${view.name}’ was copied to ${target.groupName}.${notice ? ` ${notice}` : ''}`);
            void queryClient.invalidateQueries({ queryKey: viewsQueryOptions(target.groupid).queryKey });
          }}
          copy={async (target) => {
            const made = newViewForGroup(portableView(view), await targetOf(target.groupid));
            await putView(target.groupid, made.view);
            return made.dropped;
          }}
        />
      )}
    </section>
  );
}

interface CopyViewDialogProps {
  view: View;
  targets: readonly GroupSummary[];
  onHide: () => void;
  onCopied: (target: GroupSummary, dropped: number) => void;
  /** Copies the view to the group; answers how many chart series were dropped. */
  copy: (target: GroupSummary) => Promise<number>;
}

/** Copy View: the group picker (the user's other groups where they edit views) and Copy. */
function CopyViewDialog({ view, targets, onHide, onCopied, copy }: CopyViewDialogProps) {
  const pickerId = useId();
  const messages = useMessageDialog();
  const [targetid, setTargetid] = useState<string | null>(targets[0]?.groupid ?? null);
  const [saving, setSaving] = useState(false);
  const target = targets.find((g) => g.groupid === targetid) ?? null;

  const submit = async () => {
    if (!target || saving) return;
    setSaving(true);
    try {
      const dropped = await copy(target);
      onCopied(target, dropped);
    } catch (error) {
      messages.show(VIEW_SAVE_ERROR, mutationErrorMessage(error), 'error');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog
      visible
      onHide={() => {
        if (!saving) onHide();
      }}
      header="Copy View"
      className="view-dialog"
      style={{ width: '28rem' }}
      breakpoints={{ '575px': '100vw' }}
      draggable={false}
      resizable={false}
      footer={
        <div className="view-dialog__footer">
          <Button type="button" label="Cancel" text disabled={saving} onClick={onHide} />
          <Button
            type="button"
            label="Copy"
            icon="pi pi-copy"
            loading={saving}
            disabled={!target || saving}
            onClick={() => void submit()}
          />
        </div>
      }
    >
      <div className="view-dialog__form">
        <p className="view-dialog__text">
          Copy ‘{view.name}’ with its widgets and range to another group as a new view. Chart series of devices that are
          not in that group are left out.
        </p>
        <div className="form-field">
          <label htmlFor={pickerId} className="form-field__label">
            Copy to group
          </label>
          <Dropdown
            inputId={pickerId}
            value={targetid}
            options={targets.map((g) => ({ label: g.groupName, value: g.groupid }))}
            onChange={(e) => setTargetid(e.value as string)}
            disabled={saving}
            className="view-transfer__picker"
          />
        </div>
      </div>
    </Dialog>
  );
}
