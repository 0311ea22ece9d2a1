/**
 * /sqprov (spec 1 section 2, STAFF-02; DESIGN.md section 5: provisioning_account and senquip_admin):
 * look a device up by id, create one device and see its credentials once with its label, or
 * provision a batch. '?mode=batch' opens the batch mode.
 */
import { Suspense, lazy, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { DeviceIdSchema, normaliseDeviceIdInput } from '@portal/core';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { CreateDevice } from './create-device';
import './provisioning.css';
import { usePageTitle } from '@/lib/page-title';

const FIND = fieldIds('prov-find');

// The batch mode (with its results table) loads when it is opened.
const BatchPanel = lazy(() => import('./batch-panel').then((m) => ({ default: m.BatchPanel })));

export function ProvPage() {
  const [params, setParams] = useSearchParams();
  const batch = params.get('mode') === 'batch';
  usePageTitle('Provisioning');

  return (
    <div className="page prov">
      <header className="page-header">
        <h1 className="page-title">Provisioning</h1>
        <p className="page-subtitle">Create devices, print their labels, and open a device's record and log.</p>
      </header>
      <FindDevice />
      <section className="card prov-card" aria-labelledby="prov-create-title">
        <div className="head-row">
          <h2 id="prov-create-title" className="card__title">
            Create devices
          </h2>
          <div className="prov-modes" role="group" aria-label="Mode">
            <Button
              type="button"
              label="One device"
              className={batch ? 'p-button-outlined p-button-sm' : 'p-button-sm'}
              aria-pressed={!batch}
              onClick={() => setParams({}, { replace: true })}
            />
            <Button
              type="button"
              label="Batch"
              className={batch ? 'p-button-sm' : 'p-button-outlined p-button-sm'}
              aria-pressed={batch}
              onClick={() => setParams({ mode: 'batch' }, { replace: true })}
            />
          </div>
        </div>
        {batch ? (
          <Suspense fallback={<div className="skeleton skeleton--input" role="status" aria-label="Loading" />}>
            <BatchPanel />
          </Suspense>
        ) : (
          <CreateDevice />
        )}
      </section>
    </div>
  );
}

function FindDevice() {
  const navigate = useNavigate();
  const [id, setId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = DeviceIdSchema.safeParse(id);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Invalid device id');
      return;
    }
    void navigate(`/sqprov/${parsed.data}`);
  };
  return (
    <section className="card prov-card" aria-labelledby="prov-find-title">
      <h2 id="prov-find-title" className="card__title">
        Find a device
      </h2>
      <form className="prov-find" onSubmit={onSubmit} noValidate role="search" aria-label="Find a device">
        <FormField ids={FIND} label="Device ID" error={error}>
          <div className="prov-inline">
            <InputText
              id={FIND.input}
              value={id}
              onChange={(e) => {
                setId(normaliseDeviceIdInput(e.target.value));
                setError(null);
              }}
              aria-describedby={describedBy(FIND, undefined, error)}
              aria-invalid={error ? true : undefined}
              className="prov-mono"
              placeholder="ABC123456"
              autoComplete="off"
              spellCheck={false}
            />
            <Button type="submit" label="Open" icon="pi pi-arrow-right" iconPos="right" />
          </div>
        </FormField>
      </form>
    </section>
  );
}
