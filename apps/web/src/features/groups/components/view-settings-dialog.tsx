/**
 * The Add New View / View Settings dialog (spec 1 sections 2, 4 and 5): the view's name
 * (sanitised by core's rule; blank: the server names it 'View {n+1}') and display order (an
 * integer 1-100; anything else falls back to the default: after the last tab for a new view, the
 * view's own order when editing). View Settings also deletes the view, after a confirmation,
 * with a deleting state. Failures show 'An error occurred' with the server's message; a save
 * from a stale copy offers Reload. Below the form: copy, export and import of views
 * (ViewTransfer). Loaded only when an editor opens it.
 */
import { useRef, useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import {
  DEFAULT_VIEW,
  SANITISED_MAX_LENGTH,
  SORT_ORDER_MAX,
  SORT_ORDER_MIN,
  VIEW_SAVE_ERROR,
  defaultViewName,
  mutationErrorMessage,
  nextViewSortOrder,
  parseSortOrder,
  sanitise,
  type View,
  type ViewInput,
} from '@portal/core';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { useMessageDialog } from '@/lib/message-dialog';
import { useDeleteView } from '../api/delete-view';
import { viewInputOf } from '../api/save-view';
import { useViewSave } from '../hooks/use-view-save';
import { StaleViewNotice } from './stale-view-notice';
import { ViewTransfer } from './view-transfer';
import './view-dialogs.css';

export interface ViewSettingsDialogProps {
  groupid: string;
  /** 'add': Add New View; 'edit': View Settings of `view`. */
  mode: 'add' | 'edit';
  /** The view shown (edited in 'edit' mode). */
  view: View;
  /** The group's views by sortOrder. */
  views: readonly View[];
  onHide: () => void;
  /** After a save: the view as stored. */
  onSaved: (view: View) => void;
  /** After the view was deleted. */
  onDeleted: () => void;
}

const nameIds = fieldIds('view-name');
const orderIds = fieldIds('view-order');

export default function ViewSettingsDialog({
  groupid,
  mode,
  view,
  views,
  onHide,
  onSaved,
  onDeleted,
}: ViewSettingsDialogProps) {
  const messages = useMessageDialog();
  const saver = useViewSave(groupid);
  const remove = useDeleteView(groupid);
  const editing = mode === 'edit';
  const [name, setName] = useState(editing ? view.name : '');
  const [order, setOrder] = useState(editing ? String(view.sortOrder) : '');
  const [confirming, setConfirming] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);

  const others = editing ? views.length - 1 : views.length;
  const fallbackOrder = editing ? view.sortOrder : nextViewSortOrder(views);
  const busy = saver.saving || remove.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const fields = { name: sanitise(name).trim(), sortOrder: parseSortOrder(order, fallbackOrder) };
    // A new view starts as the default view does: the device table and the map over 7 days.
    const input: ViewInput = editing
      ? { ...viewInputOf(view), ...fields }
      : {
          ...fields,
          timeRange: DEFAULT_VIEW.timeRange,
          widgets: DEFAULT_VIEW.widgets as ViewInput['widgets'],
        };
    saver.save(input, onSaved);
  };

  const confirmDelete = () => {
    remove.mutate(view.viewid, {
      onSuccess: () => {
        setConfirming(false);
        onDeleted();
      },
      onError: (error) => {
        setConfirming(false);
        messages.show(VIEW_SAVE_ERROR, mutationErrorMessage(error), 'error');
      },
    });
  };

  const footer = (
    <div className="view-dialog__footer">
      {editing && views.length > 1 && (
        <Button
          type="button"
          label="Delete View"
          icon="pi pi-trash"
          severity="danger"
          text
          className="view-dialog__delete"
          disabled={busy}
          onClick={() => setConfirming(true)}
        />
      )}
      <Button type="button" label="Cancel" text onClick={onHide} disabled={busy} />
      <Button
        type="submit"
        form="view-settings-form"
        label={editing ? 'Save' : 'Add View'}
        loading={saver.saving}
        disabled={busy}
      />
    </div>
  );

  return (
    <>
      <Dialog
        visible
        onHide={() => {
          if (!busy) onHide();
        }}
        header={editing ? 'View Settings' : 'Add New View'}
        // Keyboard users start in the name field (the dialog would focus its close button).
        onShow={() => nameInput.current?.focus()}
        footer={footer}
        className="view-dialog"
        style={{ width: '30rem' }}
        breakpoints={{ '575px': '100vw' }}
        draggable={false}
        resizable={false}
      >
        <form id="view-settings-form" className="view-dialog__form" onSubmit={submit} noValidate>
          <FormField
            ids={nameIds}
            label="View name"
            hint={`Up to ${SANITISED_MAX_LENGTH} characters. Left blank, it is named ${defaultViewName(others)}.`}
          >
            <InputText
              id={nameIds.input}
              ref={nameInput}
              value={name}
              autoComplete="off"
              maxLength={SANITISED_MAX_LENGTH}
              placeholder={defaultViewName(others)}
              aria-describedby={describedBy(nameIds, true)}
              onChange={(e) => setName(e.target.value)}
            />
          </FormField>
          <FormField
            ids={orderIds}
            label="Display order"
            hint={`A whole number from ${SORT_ORDER_MIN} to ${SORT_ORDER_MAX}; anything else gives ${fallbackOrder}.`}
          >
            <InputText
              id={orderIds.input}
              value={order}
              inputMode="numeric"
              autoComplete="off"
              maxLength={5}
              placeholder={String(fallbackOrder)}
              aria-describedby={describedBy(orderIds, true)}
              onChange={(e) => setOrder(e.target.value)}
            />
          </FormField>
          {saver.stale && (
            <StaleViewNotice message={saver.stale} reloading={saver.reloading} onReload={() => void saver.reload()} />
          )}
        </form>
        <ViewTransfer groupid={groupid} view={view} views={views} mode={mode} busy={busy} onImported={onSaved} />
      </Dialog>
      <ConfirmDialog
        visible={confirming}
        header="Delete View"
        confirmLabel={remove.isPending ? 'Deleting…' : 'Delete View'}
        busy={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={confirmDelete}
      >
        Delete the view ‘{view.name}’ and its widgets for every member of the group? This cannot be undone.
      </ConfirmDialog>
    </>
  );
}
