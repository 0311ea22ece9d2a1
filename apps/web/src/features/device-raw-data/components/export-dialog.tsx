/**
 * Export of the range as CSV or JSON: GET /export streams the records oldest first; the dialog
 * shows how far it has come (bytes against content-length when the server gives one, else the
 * time reached across the range), can cancel, and saves the file when it is complete.
 */
import { useEffect, useRef, useState } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { ProgressBar } from 'primereact/progressbar';
import { RadioButton } from 'primereact/radiobutton';
import { exportRangeText, fileNamePart, loadErrorDetail } from '@portal/core';
import { downloadBlob } from '@/lib/download';
import { LocalTime } from '@/components/ui/local-time';
import { exportRawData, type ExportFormat, type ExportProgress } from '../api/export-raw-data';
import type { RawRange } from '../api/get-raw-data';
import { WorkCancelButton } from './work-cancel-button';

export interface ExportDialogProps {
  deviceid: string;
  name: string;
  range: RawRange;
  visible: boolean;
  onHide(): void;
}

type State =
  | { step: 'choose' }
  | { step: 'running'; progress: ExportProgress | null }
  | { step: 'done'; records: number; fileName: string }
  | { step: 'failed'; message: string };

const FORMATS: readonly { value: ExportFormat; label: string }[] = [
  { value: 'csv', label: 'CSV (ts and one column per key)' },
  { value: 'json', label: 'JSON (the records as stored, events included)' },
];

/** Per cent done, or null when it cannot be told. */
function percent(progress: ExportProgress | null, range: RawRange, startedMs: number): number | null {
  if (!progress) return null;
  if (progress.total) return Math.min(100, Math.round((progress.bytes / progress.total) * 100));
  if (progress.lastTs === null) return null;
  const from = range.from ?? progress.firstTs ?? progress.lastTs;
  const to = range.to ?? startedMs / 1000;
  if (to <= from) return null;
  return Math.max(0, Math.min(100, Math.round(((progress.lastTs - from) / (to - from)) * 100)));
}

const size = (bytes: number) =>
  bytes < 1000 ? `${bytes} bytes` : bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} kB` : `${(bytes / 1e6).toFixed(1)} MB`;

export function ExportDialog({ deviceid, name, range, visible, onHide }: ExportDialogProps) {
  const [format, setFormat] = useState<ExportFormat>('csv');
  const [state, setState] = useState<State>({ step: 'choose' });
  const controller = useRef<AbortController | null>(null);
  const started = useRef(0);

  useEffect(() => {
    if (visible) setState({ step: 'choose' });
    return () => controller.current?.abort();
  }, [visible]);

  const run = async () => {
    const abort = new AbortController();
    controller.current = abort;
    started.current = Date.now();
    setState({ step: 'running', progress: null });
    try {
      const file = await exportRawData(deviceid, range, format, {
        signal: abort.signal,
        onProgress: (progress) => setState({ step: 'running', progress }),
      });
      const from = range.from ?? file.progress.firstTs ?? started.current / 1000;
      const to = range.to ?? started.current / 1000;
      const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      const fileName = `${fileNamePart(name)} - raw data - ${exportRangeText({ from, to }, zone)}.${format}`;
      downloadBlob(file.blob, fileName);
      setState({ step: 'done', records: file.progress.records, fileName });
    } catch (err) {
      if (abort.signal.aborted) setState({ step: 'choose' });
      else setState({ step: 'failed', message: loadErrorDetail(err) });
    } finally {
      if (controller.current === abort) controller.current = null;
    }
  };

  const cancel = () => controller.current?.abort();
  const hide = () => {
    cancel();
    onHide();
  };

  const done = percent(state.step === 'running' ? state.progress : null, range, started.current);
  return (
    <Dialog
      header="Export raw data"
      visible={visible}
      onHide={hide}
      className="rd-dialog"
      breakpoints={{ '640px': '100vw' }}
      draggable={false}
      footer={
        <div className="rd-dialog__footer">
          <WorkCancelButton step={state.step} onStop={cancel} onHide={hide} />
          {(state.step === 'choose' || state.step === 'failed') && (
            <Button type="button" label="Export" icon="pi pi-download" onClick={() => void run()} />
          )}
        </div>
      }
    >
      <p className="rd-dialog__range">
        {range.from === null ? (
          'Every record'
        ) : (
          <>
            From <LocalTime ts={range.from} />
          </>
        )}{' '}
        {range.to === null ? (
          'up to now'
        ) : (
          <>
            to <LocalTime ts={range.to} />
          </>
        )}
      </p>
      <fieldset className="rd-formats" disabled={state.step === 'running'}>
        <legend>Format</legend>
        {FORMATS.map((f) => (
          <div key={f.value} className="rd-format">
            <RadioButton
              inputId={`rd-format-${f.value}`}
              name="rd-format"
              value={f.value}
              checked={format === f.value}
              onChange={() => setFormat(f.value)}
            />
            <label htmlFor={`rd-format-${f.value}`}>{f.label}</label>
          </div>
        ))}
      </fieldset>
      {state.step === 'running' && (
        <div className="rd-progress">
          <ProgressBar
            aria-label="Export progress"
            mode={done === null ? 'indeterminate' : 'determinate'}
            value={done ?? undefined}
            showValue={false}
          />
          <p className="muted" role="status">
            {state.progress
              ? `${size(state.progress.bytes)} received${state.progress.records ? `, ${state.progress.records} records` : ''}${done !== null ? ` (${done}%)` : ''}`
              : 'Starting the export…'}
          </p>
        </div>
      )}
      {state.step === 'done' && (
        <p role="status" className="rd-done">
          <i className="pi pi-check-circle" aria-hidden="true" /> Saved {state.fileName} (
          {state.records === 1 ? '1 record' : `${state.records} records`}).
        </p>
      )}
      {state.step === 'failed' && (
        <p role="alert" className="rd-problem">
          {state.message}
        </p>
      )}
    </Dialog>
  );
}
