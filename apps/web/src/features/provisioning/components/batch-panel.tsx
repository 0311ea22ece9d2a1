/**
 * /sqprov's batch mode: provisions N devices (1 to 200) of one model and brand one call after another
 * with generated ids (an optional prefix), with a progress bar and Stop. Lists each device's setup password and key
 * (this once; downloadable as CSV) and fetches the batch's labels as one PDF (a page per device).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { ProgressBar } from 'primereact/progressbar';
import {
  DEFAULT_FIRMWARE,
  PROV_LIMITS,
  ProvEditDeviceBodySchema,
  batchCount,
  batchCsvFileName,
  batchResultsTable,
  mutationErrorMessage,
  normaliseDeviceIdInput,
  prefixError,
  randomDeviceId,
  type BatchResult,
  type BrandId,
  type DeviceModel,
} from '@portal/core';
import { FormField, describedBy, fieldIds } from '@/components/ui/form-field';
import { LabelledDropdown } from '@/components/ui/labelled-dropdown';
import { csvBlob, downloadBlob } from '@/lib/download';
import { editProvDevice } from '../api/prov-device';
import { useDeviceLabels } from '../api/prov-labels';
import { deviceExists, randomBytes } from './create-device';
import { LabelAddressWarning, MODEL_OPTIONS, issuesByField, printFile } from './prov-bits';
import { BrandField } from './brand-field';

const COUNT = fieldIds('prov-batch-count');
const MODEL = fieldIds('prov-batch-model');
const FW = fieldIds('prov-batch-fw');
const PREFIX = fieldIds('prov-batch-prefix');
const BRAND = fieldIds('prov-batch-brand');
/** Fresh ids tried for one device when a generated id exists already. */
const ID_ATTEMPTS = 5;

type RunState = { phase: 'idle' } | { phase: 'running' | 'stopped' | 'done'; total: number };

/** A new id that no device has (checked with the existence call), or null after ID_ATTEMPTS tries. */
async function freeDeviceId(prefix: string): Promise<string | null> {
  for (let i = 0; i < ID_ATTEMPTS; i += 1) {
    const id = randomDeviceId(prefix, randomBytes);
    if (!(await deviceExists(id))) return id;
  }
  return null;
}

export function BatchPanel() {
  const [count, setCount] = useState('10');
  const [model, setModel] = useState<DeviceModel>('ORB-C1');
  const [fw, setFw] = useState(DEFAULT_FIRMWARE);
  const [prefix, setPrefix] = useState('');
  const [brand, setBrand] = useState<BrandId>('default');
  // What the server said with its answers: false when the labels' QR codes would open localhost.
  const [publicUrlConfigured, setPublicUrlConfigured] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [run, setRun] = useState<RunState>({ phase: 'idle' });
  const [results, setResults] = useState<BatchResult[]>([]);
  const stop = useRef(false);
  // leaving the page stops the batch after the call in flight
  useEffect(
    () => () => {
      stop.current = true;
    },
    [],
  );

  const onStart = async (event: FormEvent) => {
    event.preventDefault();
    const n = batchCount(count, PROV_LIMITS.batchMax);
    const body = ProvEditDeviceBodySchema.safeParse({ model, fw, brand });
    const found = {
      ...(n === null ? { count: `A whole number from 1 to ${PROV_LIMITS.batchMax}` } : {}),
      ...(prefixError(prefix) ? { prefix: prefixError(prefix)! } : {}),
      ...(body.success ? {} : issuesByField(body.error.issues)),
    };
    setErrors(found);
    if (n === null || !body.success || Object.keys(found).length > 0) return;
    stop.current = false;
    setResults([]);
    setRun({ phase: 'running', total: n });
    for (let i = 0; i < n; i += 1) {
      if (stop.current) {
        setRun({ phase: 'stopped', total: n });
        return;
      }
      let result: BatchResult;
      let id: string | null = null;
      try {
        id = await freeDeviceId(prefix);
        if (id === null) throw new Error(`No free device id with the prefix ${prefix} after ${ID_ATTEMPTS} tries`);
        const device = await editProvDevice(id, body.data);
        setPublicUrlConfigured(device.publicUrlConfigured);
        result =
          device.setupPassword && device.deviceKey
            ? {
                ok: true,
                deviceid: device.deviceid,
                model: device.model,
                fw: device.fw,
                name: device.name,
                setupPassword: device.setupPassword,
                deviceKey: device.deviceKey,
              }
            : { ok: false, deviceid: id, message: 'The device existed already: it was edited, not created' };
      } catch (err) {
        result = { ok: false, deviceid: id ?? '-', message: mutationErrorMessage(err) };
      }
      setResults((list) => [...list, result]);
    }
    setRun({ phase: 'done', total: n });
  };

  const running = run.phase === 'running';
  const done = results.length;
  const made = results.filter((r) => r.ok).map((r) => r.deviceid);

  return (
    <div className="prov-batch">
      <form className="prov-form" onSubmit={(e) => void onStart(e)} noValidate aria-label="Provision a batch">
        <div className="prov-form__grid">
          <FormField ids={COUNT} label="Number of devices" hint={`1 to ${PROV_LIMITS.batchMax}`} error={errors.count}>
            <InputText
              id={COUNT.input}
              value={count}
              inputMode="numeric"
              onChange={(e) => setCount(e.target.value.replace(/\D/g, '').slice(0, 3))}
              aria-describedby={describedBy(COUNT, 'hint', errors.count)}
              aria-invalid={errors.count ? true : undefined}
              disabled={running}
            />
          </FormField>
          <FormField ids={MODEL} label="Model" error={errors.model}>
            <LabelledDropdown
              inputId={MODEL.input}
              label="Model"
              value={model}
              options={MODEL_OPTIONS}
              onChange={(e) => setModel(e.value as DeviceModel)}
              disabled={running}
            />
          </FormField>
          <FormField ids={FW} label="Firmware" hint="Like SFW003-1.2.3" error={errors.fw}>
            <InputText
              id={FW.input}
              value={fw}
              onChange={(e) => setFw(e.target.value.trim())}
              aria-describedby={describedBy(FW, 'hint', errors.fw)}
              aria-invalid={errors.fw ? true : undefined}
              className="prov-mono"
              disabled={running}
            />
          </FormField>
          <FormField ids={PREFIX} label="Id prefix (optional)" hint="Up to 6 letters or digits" error={errors.prefix}>
            <InputText
              id={PREFIX.input}
              value={prefix}
              onChange={(e) => setPrefix(normaliseDeviceIdInput(e.target.value).slice(0, 6))}
              aria-describedby={describedBy(PREFIX, 'hint', errors.prefix)}
              aria-invalid={errors.prefix ? true : undefined}
              className="prov-mono"
              disabled={running}
            />
          </FormField>
          <BrandField
            ids={BRAND}
            value={brand}
            onChange={setBrand}
            hint="Their labels open this brand's site"
            error={errors.brand}
            disabled={running}
          />
        </div>
        <div className="prov-actions">
          {running ? (
            <Button
              type="button"
              label="Stop"
              icon="pi pi-stop-circle"
              severity="danger"
              className="p-button-outlined"
              onClick={() => {
                stop.current = true;
              }}
            />
          ) : (
            <Button type="submit" label="Provision batch" icon="pi pi-play" />
          )}
        </div>
      </form>

      {run.phase !== 'idle' && (
        <section className="prov-batch__results" aria-label="Batch results">
          <div className="prov-progress">
            <ProgressBar
              value={Math.round((done / run.total) * 100)}
              showValue={false}
              aria-label="Batch progress"
              aria-valuenow={done}
              aria-valuemin={0}
              aria-valuemax={run.total}
            />
            <p className="prov-progress__text" role="status">
              {run.phase === 'running' && `Provisioning ${done} of ${run.total}…`}
              {run.phase === 'stopped' && `Stopped after ${done} of ${run.total}.`}
              {run.phase === 'done' && `Done: ${made.length} of ${run.total} created.`}
              {results.length > made.length && ` ${results.length - made.length} failed.`}
            </p>
          </div>
          {made.length > 0 && (
            <Message
              severity="warn"
              className="prov-message"
              text="The setup passwords and device keys are shown only now. Download the CSV before you leave this page."
            />
          )}
          <BatchDownloads results={results} made={made} disabled={running} publicUrlConfigured={publicUrlConfigured} />
          <DataTable
            value={results}
            dataKey="deviceid"
            size="small"
            scrollable
            className="prov-table"
            emptyMessage="No devices yet."
            rowClassName={(r: BatchResult) => (r.ok ? '' : 'prov-row--failed')}
          >
            <Column header="#" body={(_r: BatchResult, o: { rowIndex: number }) => o.rowIndex + 1} />
            <Column field="deviceid" header="Device ID" frozen bodyClassName="prov-mono" />
            <Column
              header="Setup password"
              body={(r: BatchResult) => (r.ok ? r.setupPassword : '')}
              bodyClassName="prov-mono"
            />
            <Column
              header="Device key"
              body={(r: BatchResult) => (r.ok ? r.deviceKey : '')}
              bodyClassName="prov-mono prov-key"
            />
            <Column header="Result" body={(r: BatchResult) => (r.ok ? 'Created' : r.message)} />
          </DataTable>
        </section>
      )}
    </div>
  );
}

function BatchDownloads({
  results,
  made,
  disabled,
  publicUrlConfigured,
}: {
  results: BatchResult[];
  made: string[];
  disabled: boolean;
  publicUrlConfigured: boolean;
}) {
  const labels = useDeviceLabels();
  const [busy, setBusy] = useState<'pdf' | 'print' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const onLabels = async (print: boolean) => {
    setBusy(print ? 'print' : 'pdf');
    setError(null);
    try {
      if (print) await printFile(() => labels.mutateAsync(made));
      else {
        const file = await labels.mutateAsync(made);
        downloadBlob(file.blob, file.fileName);
      }
    } catch (err) {
      setError(mutationErrorMessage(err));
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      <div className="prov-actions">
        <Button
          type="button"
          label="Download CSV"
          icon="pi pi-download"
          className="p-button-outlined"
          disabled={results.length === 0}
          onClick={() =>
            downloadBlob(
              csvBlob(batchResultsTable(results)),
              batchCsvFileName(new Date().toISOString().slice(0, 10), results.length),
            )
          }
        />
        <Button
          type="button"
          label="Labels PDF"
          icon="pi pi-file-pdf"
          className="p-button-outlined"
          disabled={disabled || made.length === 0 || busy !== null}
          loading={busy === 'pdf'}
          onClick={() => void onLabels(false)}
        />
        <Button
          type="button"
          label="Print labels"
          icon="pi pi-print"
          className="p-button-outlined"
          disabled={disabled || made.length === 0 || busy !== null}
          loading={busy === 'print'}
          onClick={() => void onLabels(true)}
        />
      </div>
      {made.length > 0 && <LabelAddressWarning publicUrlConfigured={publicUrlConfigured} />}
      {error && <Message severity="error" text={error} className="prov-message" />}
    </>
  );
}
