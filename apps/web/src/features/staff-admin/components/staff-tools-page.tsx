/**
 * /sqtools (STAFF-03, STAFF-11): the distributors (GET /distributors; a new one is POST with id
 * 0, an edit PUT with its id), assigning pasted device ids to a distributor (PUT
 * /distributor-devices, recorded with who and when), and the distributor actions on any device
 * id (POST /billing-distributor-action/{id}: reset-trial, no-pass ADMIN or DISABLE), answered
 * by 'Success' with the server's message then a reload, or 'Error' (DLG-30/31).
 */
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { Message } from 'primereact/message';
import {
  distributorFormErrors,
  STAFF_MESSAGES,
  countryName,
  isCountryCode,
  isStaffDeviceId,
  loadErrorDetail,
  mutationErrorMessage,
  parseDeviceList,
  type DistributorActionBody,
} from '@portal/core';
import { FormField, fieldIds } from '@/components/ui/form-field';
import { LabelledDropdown } from '@/components/ui/labelled-dropdown';
import { LocalTime } from '@/components/ui/local-time';
import { useMessageDialog } from '@/lib/message-dialog';
import {
  useAssignDistributorDevices,
  useDistributors,
  useSaveDistributor,
  type Distributor,
  type DistributorDevicesResponse,
} from '../api/distributors';
import { useStaffDistributorAction } from '../api/staff-actions';
import { StaffHeader, StaffLoadError, StaffSkeleton } from './staff-bits';
import './staff.css';
import { usePageTitle } from '@/lib/page-title';

export function StaffToolsPage() {
  usePageTitle('Staff Tools');
  const distributors = useDistributors();
  const [editing, setEditing] = useState<Distributor | 'new' | null>(null);

  return (
    <div className="page staff">
      <StaffHeader
        title="Staff tools"
        subtitle="Distributors, the devices assigned to them, and the distributor actions on any device."
        actions={
          <Button
            type="button"
            label="New distributor"
            icon="pi pi-plus"
            size="small"
            onClick={() => setEditing('new')}
          />
        }
      />
      {distributors.isPending ? (
        <StaffSkeleton cards={1} />
      ) : distributors.isError ? (
        <StaffLoadError message={loadErrorDetail(distributors.error)} onRetry={() => void distributors.refetch()} />
      ) : (
        <DistributorsCard distributors={distributors.data} onEdit={setEditing} onNew={() => setEditing('new')} />
      )}
      <div className="staff-grid">
        <AssignCard distributors={distributors.data ?? []} />
        <ActionsCard />
      </div>
      <DistributorDialog editing={editing} onHide={() => setEditing(null)} />
    </div>
  );
}

function DistributorsCard({
  distributors,
  onEdit,
  onNew,
}: {
  distributors: Distributor[];
  onEdit: (d: Distributor) => void;
  onNew: () => void;
}) {
  return (
    <section className="card staff-card" aria-labelledby="staff-distributors">
      <h2 id="staff-distributors" className="card__title">
        Distributors <span className="badge">{distributors.length}</span>
      </h2>
      {distributors.length === 0 ? (
        <div className="empty-state">
          <p>No distributors yet.</p>
          <Button type="button" label="New distributor" icon="pi pi-plus" outlined size="small" onClick={onNew} />
        </div>
      ) : (
        <DataTable
          value={distributors}
          dataKey="id"
          size="small"
          scrollable
          pt={{ table: { 'aria-label': 'Distributors' } }}
          tableStyle={{ minWidth: '52rem' }}
        >
          <Column header="Name" field="name" frozen className="staff-cell-strong" />
          <Column header="Country" body={(d: Distributor) => <span title={countryName(d.country)}>{d.country}</span>} />
          <Column
            header="Contact"
            body={(d: Distributor) => <a href={`mailto:${d.contactEmail}`}>{d.contactEmail}</a>}
          />
          <Column header="Devices" field="deviceCount" className="staff-num" alignHeader="right" />
          <Column
            header="Last change"
            body={(d: Distributor) => (
              <span className="staff-small">
                <LocalTime ts={d.updatedAt} /> <span className="staff-muted staff-block">{d.updatedBy}</span>
              </span>
            )}
          />
          <Column header="Notes" body={(d: Distributor) => <span className="staff-notes">{d.notes}</span>} />
          <Column
            header={<span className="visually-hidden">Actions</span>}
            body={(d: Distributor) => (
              <Button
                type="button"
                icon="pi pi-pencil"
                text
                size="small"
                aria-label={`Edit ${d.name}`}
                onClick={() => onEdit(d)}
              />
            )}
          />
        </DataTable>
      )}
    </section>
  );
}

const NAME = fieldIds('distributor-name');
const EMAIL = fieldIds('distributor-email');
const COUNTRY = fieldIds('distributor-country');
const NOTES = fieldIds('distributor-notes');
type Field = 'name' | 'contactEmail' | 'country' | 'notes';

function DistributorDialog({ editing, onHide }: { editing: Distributor | 'new' | null; onHide: () => void }) {
  const save = useSaveDistributor();
  const messages = useMessageDialog();
  const [form, setForm] = useState({ name: '', contactEmail: '', country: '', notes: '' });
  const [shown, setShown] = useState(false);

  useEffect(() => {
    if (editing === null) return;
    setForm(
      editing === 'new'
        ? { name: '', contactEmail: '', country: '', notes: '' }
        : { name: editing.name, contactEmail: editing.contactEmail, country: editing.country, notes: editing.notes },
    );
    setShown(false);
    save.reset();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a fresh form each time it opens
  }, [editing]);

  const id = editing === null || editing === 'new' ? 0 : editing.id;
  const errors = distributorFormErrors(form);
  const valid = Object.keys(errors).length === 0;
  const error = (field: Field) => (shown ? (errors[field] ?? null) : null);
  const country = form.country.trim().toUpperCase();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (!valid) {
      const first = (['name', 'contactEmail', 'country', 'notes'] as const).find((f) => errors[f]);
      const ids = { name: NAME, contactEmail: EMAIL, country: COUNTRY, notes: NOTES };
      if (first) document.getElementById(ids[first].input)?.focus();
      return;
    }
    save.mutate(
      { id, ...form },
      {
        onSuccess: (saved) => {
          onHide();
          messages.show(
            'Success',
            id === 0 ? `Distributor ${saved.name} created.` : `Distributor ${saved.name} saved.`,
            'success',
          );
        },
      },
    );
  };
  const set = (field: Field) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    if (save.isError) save.reset();
  };

  return (
    <Dialog
      visible={editing !== null}
      onHide={() => {
        if (!save.isPending) onHide();
      }}
      header={id === 0 ? 'New distributor' : 'Edit distributor'}
      className="view-dialog"
      style={{ width: '32rem' }}
      breakpoints={{ '575px': '100vw' }}
      draggable={false}
      resizable={false}
    >
      <form className="staff-form" onSubmit={onSubmit} noValidate aria-busy={save.isPending}>
        <FormField ids={NAME} label="Name" error={error('name')}>
          <InputText
            id={NAME.input}
            value={form.name}
            maxLength={80}
            autoFocus
            onChange={(e) => set('name')(e.target.value)}
          />
        </FormField>
        <FormField ids={EMAIL} label="Contact e-mail" error={error('contactEmail')}>
          <InputText
            id={EMAIL.input}
            type="email"
            value={form.contactEmail}
            autoComplete="off"
            onChange={(e) => set('contactEmail')(e.target.value)}
          />
        </FormField>
        <FormField
          ids={COUNTRY}
          label="Country"
          hint={isCountryCode(country) ? countryName(country) : 'Two-letter ISO 3166 code, e.g. AU, NZ, US'}
          error={error('country')}
        >
          <InputText
            id={COUNTRY.input}
            value={form.country}
            maxLength={2}
            className="staff-country"
            autoComplete="off"
            onChange={(e) => set('country')(e.target.value.toUpperCase())}
          />
        </FormField>
        <FormField ids={NOTES} label="Notes" hint="Optional: region, terms, contacts." error={error('notes')}>
          <InputTextarea
            id={NOTES.input}
            value={form.notes}
            rows={3}
            maxLength={1000}
            onChange={(e) => set('notes')(e.target.value)}
          />
        </FormField>
        {save.isError && <Message severity="error" text={mutationErrorMessage(save.error)} className="staff-message" />}
        <div className="view-dialog__footer">
          <Button type="button" label="Cancel" text disabled={save.isPending} onClick={onHide} />
          <Button type="submit" label={id === 0 ? 'Create' : 'Save'} loading={save.isPending} />
        </div>
      </form>
    </Dialog>
  );
}

const NONE = -1;

function AssignCard({ distributors }: { distributors: Distributor[] }) {
  const [target, setTarget] = useState<number | null>(null);
  const [text, setText] = useState('');
  const [result, setResult] = useState<DistributorDevicesResponse | null>(null);
  const assign = useAssignDistributorDevices();
  const listId = useId();
  const targetId = useId();
  const { ids, invalid } = useMemo(() => parseDeviceList(text), [text]);
  const options = [
    ...distributors.map((d) => ({ label: `${d.name} (${d.deviceCount})`, value: d.id })),
    { label: 'No distributor (remove the assignment)', value: NONE },
  ];
  const ready = target !== null && ids.length > 0 && invalid.length === 0;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || assign.isPending) return;
    setResult(null);
    assign.mutate(
      { distributorId: target === NONE ? null : target, deviceList: ids },
      {
        onSuccess: (answer) => {
          setResult(answer);
          setText('');
        },
      },
    );
  };

  return (
    <section className="card staff-card" aria-labelledby="staff-assign">
      <h2 id="staff-assign" className="card__title">
        Assign devices
      </h2>
      <form className="staff-form" onSubmit={onSubmit} noValidate aria-busy={assign.isPending}>
        <label htmlFor={targetId} className="staff-label">
          Distributor
        </label>
        <LabelledDropdown
          label="Distributor"
          triggerLabel="Show the distributors"
          inputId={targetId}
          value={target}
          options={options}
          placeholder={distributors.length ? 'Choose a distributor' : 'Create a distributor first'}
          onChange={(e) => setTarget(e.value as number)}
          filter={distributors.length > 8}
        />
        <label htmlFor={listId} className="staff-label">
          Device ids
        </label>
        <InputTextarea
          id={listId}
          value={text}
          rows={4}
          placeholder={'One a line, or separated by commas or spaces'}
          aria-describedby={`${listId}-hint`}
          onChange={(e) => {
            setText(e.target.value);
            if (assign.isError) assign.reset();
          }}
        />
        <p id={`${listId}-hint`} className={invalid.length ? 'staff-hint staff-hint--error' : 'staff-hint'}>
          {invalid.length
            ? `${STAFF_MESSAGES.deviceIdInvalid}: ${invalid.slice(0, 5).join(', ')}${invalid.length > 5 ? '…' : ''}`
            : `${ids.length} device${ids.length === 1 ? '' : 's'}`}
        </p>
        {assign.isError && (
          <Message severity="error" text={mutationErrorMessage(assign.error)} className="staff-message" />
        )}
        {result && (
          <Message
            severity="success"
            className="staff-message"
            content={
              <span>
                {result.message}:{' '}
                {result.deviceList.map((id, i) => (
                  <span key={id}>
                    {i > 0 && ', '}
                    <Link to={`/sqadmin/${id}`}>{id}</Link>
                  </span>
                ))}
              </span>
            }
          />
        )}
        <div className="staff-form__actions">
          <Button
            type="submit"
            label="Assign"
            icon="pi pi-link"
            size="small"
            disabled={!ready}
            loading={assign.isPending}
          />
        </div>
      </form>
    </section>
  );
}

function ActionsCard() {
  const [deviceid, setDeviceid] = useState('');
  const action = useStaffDistributorAction();
  const messages = useMessageDialog();
  const inputId = useId();
  const id = deviceid.trim().toUpperCase();
  const valid = isStaffDeviceId(id);

  const run = (body: DistributorActionBody) => {
    if (!valid || action.isPending) return;
    action.mutate(
      { deviceid: id, body },
      {
        // 'Success' with the server's message, then the page reloads; 'Error' with its message (DLG-30/31)
        onSuccess: (answer) => messages.showSuccess(answer, () => window.location.reload()),
        onError: (error) => messages.showError(error),
      },
    );
  };

  return (
    <section className="card staff-card" aria-labelledby="staff-actions">
      <h2 id="staff-actions" className="card__title">
        Distributor actions
      </h2>
      <div className="staff-form">
        <label htmlFor={inputId} className="staff-label">
          Device id
        </label>
        <InputText
          id={inputId}
          value={deviceid}
          maxLength={12}
          className="staff-id-input"
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${inputId}-hint`}
          onChange={(e) => setDeviceid(e.target.value)}
        />
        <p id={`${inputId}-hint`} className="staff-hint">
          {id && !valid
            ? STAFF_MESSAGES.deviceIdInvalid
            : 'Runs on any device; the device page shows its current state.'}
        </p>
        <div className="staff-form__actions staff-form__actions--wrap">
          <Button
            type="button"
            label="Reset Trial"
            size="small"
            outlined
            disabled={!valid || action.isPending}
            onClick={() => run({ action: 'reset-trial' })}
          />
          <Button
            type="button"
            label="Allow Add Without Password"
            size="small"
            outlined
            disabled={!valid || action.isPending}
            onClick={() => run({ action: 'no-pass', params: { mode: 'ADMIN' } })}
          />
          <Button
            type="button"
            label="Cancel Add Without Password"
            size="small"
            outlined
            disabled={!valid || action.isPending}
            onClick={() => run({ action: 'no-pass', params: { mode: 'DISABLE' } })}
          />
        </div>
      </div>
    </section>
  );
}
