import { useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { ASSET_TYPES, NOTES_IMAGE_SLOTS, customPageName, type DeviceNotes, type NotesImageSlot } from '@portal/core';
import { useMessageDialog } from '@/lib/message-dialog';
import { useSaveAssetNotes, type AssetNotesSave, type NotesImageChanges } from '../hooks/use-save-asset-notes';
import { notesImageSrc } from '../utils/notes-image-src';
import { ImageSlot } from './image-slot';
import './device-notes.css';

export interface AssetNotesDialogProps {
  deviceid: string;
  /** PORTAL_deviceNotes of the device settings record. */
  notes: Record<string, unknown>;
  /** editDeviceNotes (ADMIN only): otherwise the notes are shown read-only. */
  canEdit: boolean;
  visible: boolean;
  onHide(): void;
}

/** The text fields of the notes with the lengths DeviceNotesSchema accepts. */
const TEXT_FIELDS = {
  status: { label: 'Status', maxLength: 40 },
  make: { label: 'Make', maxLength: 40 },
  model: { label: 'Model', maxLength: 40 },
  customer: { label: 'Customer', maxLength: 60 },
  installer: { label: 'Installer', maxLength: 60 },
} as const;
type TextField = keyof typeof TEXT_FIELDS;

const HOME_PAGE_MAX_LENGTH = 40;
const DESCRIPTION_MAX_LENGTH = 1000;
const IMAGE_LABELS: Record<NotesImageSlot, string> = { asset_image: 'Asset image', brand_image: 'Brand image' };

interface NotesForm extends Record<TextField, string> {
  home_page: string;
  asset_type: string;
  description: string;
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The addresses of the stored images (GET notes-image), null where there is none. */
function imagesOf(notes: Record<string, unknown>): Record<NotesImageSlot, string | null> {
  const images =
    typeof notes.images === 'object' && notes.images !== null ? (notes.images as Record<string, unknown>) : {};
  return { asset_image: notesImageSrc(images.asset_image), brand_image: notesImageSrc(images.brand_image) };
}

function formOf(notes: Record<string, unknown>): NotesForm {
  return {
    status: textOf(notes.status),
    home_page: textOf(notes.home_page),
    asset_type: textOf(notes.asset_type),
    make: textOf(notes.make),
    model: textOf(notes.model),
    customer: textOf(notes.customer),
    installer: textOf(notes.installer),
    description: textOf(notes.description),
  };
}

/** The PUT settings notes: every text field, trimmed (blank clears it). */
function notesOf(form: NotesForm): DeviceNotes {
  return Object.fromEntries(Object.entries(form).map(([key, value]) => [key, value.trim()]));
}

const FORM_ID = 'asset-notes-form';

/**
 * The Asset Notes dialog (DLG-15 to DLG-22): every device-notes field, read-only without
 * editDeviceNotes. Chosen or removed images are uploaded or deleted on Save, with the text fields,
 * so Cancel leaves everything as stored.
 */
export function AssetNotesDialog({ deviceid, notes, canEdit, visible, onHide }: AssetNotesDialogProps) {
  const notesMutation = useSaveAssetNotes(deviceid);
  const dialog = useMessageDialog();

  const onSave = (save: AssetNotesSave) => {
    notesMutation.mutate(save, {
      onSuccess: (saved) => {
        onHide();
        dialog.showSuccess(saved);
      },
      onError: (error) => dialog.showError(error),
    });
  };

  const footer = canEdit ? (
    <div className="notes-dialog__footer">
      <Button type="button" label="Cancel" text onClick={onHide} disabled={notesMutation.isPending} />
      <Button type="submit" form={FORM_ID} label="Save" icon="pi pi-check" loading={notesMutation.isPending} />
    </div>
  ) : (
    <div className="notes-dialog__footer">
      <Button type="button" label="Close" onClick={onHide} autoFocus />
    </div>
  );

  return (
    <Dialog
      visible={visible}
      onHide={() => {
        if (!notesMutation.isPending) onHide();
      }}
      header="Asset Notes"
      footer={footer}
      className="notes-dialog"
      style={{ width: '44rem' }}
      breakpoints={{ '575px': 'calc(100vw - 16px)' }}
      draggable={false}
      resizable={false}
      maximizable={false}
    >
      {/* The dialog mounts its content when opened, so each opening starts from the stored notes. */}
      <NotesFormView key={deviceid} notes={notes} canEdit={canEdit} busy={notesMutation.isPending} onSave={onSave} />
    </Dialog>
  );
}

interface NotesFormViewProps {
  notes: Record<string, unknown>;
  canEdit: boolean;
  busy: boolean;
  onSave: (save: AssetNotesSave) => void;
}

function NotesFormView({ notes, canEdit, busy, onSave }: NotesFormViewProps) {
  const [form, setForm] = useState(() => formOf(notes));
  const [stored] = useState(() => imagesOf(notes));
  const [imageChanges, setImageChanges] = useState<NotesImageChanges>({});
  const readOnly = !canEdit || busy;
  const set = <K extends keyof NotesForm>(key: K, value: NotesForm[K]) =>
    setForm((prev) => ({ ...prev, [key]: value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!canEdit || busy) return;
    onSave({ notes: notesOf(form), images: imageChanges });
  };

  const textInput = (key: TextField) => (
    <div className="form-field">
      <label htmlFor={`notes-${key}`} className="form-field__label">
        {TEXT_FIELDS[key].label}
      </label>
      <InputText
        id={`notes-${key}`}
        value={form[key]}
        onChange={(event) => set(key, event.target.value)}
        maxLength={TEXT_FIELDS[key].maxLength}
        readOnly={readOnly}
        className={canEdit ? undefined : 'input-readonly'}
      />
    </div>
  );

  // A stored type that is not a preset stays selectable.
  const assetTypes: string[] =
    form.asset_type && !(ASSET_TYPES as readonly string[]).includes(form.asset_type)
      ? [form.asset_type, ...ASSET_TYPES]
      : [...ASSET_TYPES];

  return (
    <form id={FORM_ID} className="notes-form" onSubmit={onSubmit} noValidate>
      {!canEdit && (
        <p className="notes-form__readonly">
          <i className="pi pi-lock" aria-hidden="true" /> Only a device admin can change the asset notes.
        </p>
      )}
      <div className="notes-form__grid">
        <div className="form-field">
          <label htmlFor="notes-asset_type" className="form-field__label">
            Asset type
          </label>
          {canEdit ? (
            <Dropdown
              inputId="notes-asset_type"
              value={form.asset_type || null}
              options={assetTypes}
              onChange={(event) => set('asset_type', typeof event.value === 'string' ? event.value : '')}
              placeholder="Choose a type"
              filter
              showClear
              disabled={busy}
              className="notes-form__dropdown"
              // The form's hidden copy of the choice is named too (axe's select-name).
              pt={{ select: { 'aria-label': 'Asset type' } }}
            />
          ) : (
            <InputText id="notes-asset_type" value={form.asset_type} readOnly className="input-readonly" />
          )}
        </div>
        {textInput('status')}
        {textInput('make')}
        {textInput('model')}
        {textInput('customer')}
        {textInput('installer')}
      </div>

      <div className="form-field">
        <label htmlFor="notes-description" className="form-field__label">
          Description
        </label>
        <InputTextarea
          id="notes-description"
          value={form.description}
          onChange={(event) => set('description', event.target.value)}
          rows={4}
          autoResize
          maxLength={DESCRIPTION_MAX_LENGTH}
          readOnly={readOnly}
          className={canEdit ? undefined : 'input-readonly'}
        />
      </div>

      <div className="form-field">
        <label htmlFor="notes-home_page" className="form-field__label">
          Custom page
        </label>
        <InputText
          id="notes-home_page"
          value={form.home_page}
          onChange={(event) => set('home_page', customPageName(event.target.value))}
          maxLength={HOME_PAGE_MAX_LENGTH}
          readOnly={readOnly}
          className={canEdit ? undefined : 'input-readonly'}
          aria-describedby="notes-home_page-hint"
          spellCheck={false}
        />
        <small id="notes-home_page-hint" className="form-field__hint">
          The name of a custom device page (/custom/{'{name}'}/{'{deviceid}'}). Letters, digits and _ only.
        </small>
      </div>

      <div className="notes-form__images">
        {NOTES_IMAGE_SLOTS.map((slot) => (
          <ImageSlot
            key={slot}
            id={`notes-${slot}`}
            label={IMAGE_LABELS[slot]}
            src={stored[slot]}
            file={imageChanges[slot] ?? null}
            removed={imageChanges[slot] === null}
            editable={canEdit && !busy}
            onChoose={(file) => setImageChanges((prev) => ({ ...prev, [slot]: file }))}
            onRemove={() =>
              setImageChanges((prev) => {
                // Removing a file not yet uploaded leaves nothing to delete when none is stored.
                const { [slot]: _dropped, ...rest } = prev;
                return stored[slot] ? { ...rest, [slot]: null } : rest;
              })
            }
          />
        ))}
      </div>
    </form>
  );
}
