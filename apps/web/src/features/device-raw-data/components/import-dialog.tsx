/**
 * Import of records from a file GET /export wrote (CSV or JSON) into this device: the file is
 * read in the browser (core parseImportFile; a malformed file gets its message and nothing is
 * sent), previewed (record count, time span, keys, the first rows), then sent in chunks the
 * server takes (core importChunks) with a progress bar, and the counts taken and refused (and
 * why) are shown. The server decides who may import (editDeviceSettings).
 */
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { ProgressBar } from 'primereact/progressbar';
import {
  addImportResult,
  importChunks,
  loadErrorDetail,
  parseImportFile,
  rawValueText,
  type ImportFile,
  type ImportTotals,
} from '@portal/core';
import { LocalTime } from '@/components/ui/local-time';
import { importRawData } from '../api/import-raw-data';
import { WorkCancelButton } from './work-cancel-button';

export interface ImportDialogProps {
  deviceid: string;
  visible: boolean;
  onHide(): void;
  /** Some records were stored: the table reads again. */
  onImported(): void;
}

type State =
  | { step: 'choose'; problem: string | null }
  | { step: 'preview'; fileName: string; file: ImportFile }
  | { step: 'running'; fileName: string; file: ImportFile; sent: number; totals: ImportTotals }
  | { step: 'done'; file: ImportFile; totals: ImportTotals; stopped: string | null };

const EMPTY_TOTALS: ImportTotals = { imported: 0, duplicates: 0, thinned: 0, refused: [] };
/** Rows the preview shows. */
const PREVIEW_ROWS = 5;
/** Keys the preview's table shows (all are listed above it). */
const PREVIEW_KEYS = 6;
/** Refused records listed by number. */
const REFUSED_LISTED = 20;
/** Largest file read (the browser holds it whole). */
const MAX_FILE_BYTES = 200_000_000;

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

export function ImportDialog({ deviceid, visible, onHide, onImported }: ImportDialogProps) {
  const inputId = useId();
  const [state, setState] = useState<State>({ step: 'choose', problem: null });
  const controller = useRef<AbortController | null>(null);

  useEffect(() => {
    if (visible) setState({ step: 'choose', problem: null });
    return () => controller.current?.abort();
  }, [visible]);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (!chosen) return;
    if (chosen.size > MAX_FILE_BYTES) {
      setState({ step: 'choose', problem: `The file is larger than ${MAX_FILE_BYTES / 1e6} MB.` });
      return;
    }
    let text: string;
    try {
      text = await chosen.text();
    } catch {
      setState({ step: 'choose', problem: 'The file could not be read.' });
      return;
    }
    const parsed = parseImportFile(chosen.name, text);
    setState(
      parsed.ok
        ? { step: 'preview', fileName: chosen.name, file: parsed }
        : { step: 'choose', problem: `${chosen.name}: ${parsed.message} Nothing was imported.` },
    );
  };

  const run = async (fileName: string, file: ImportFile) => {
    const abort = new AbortController();
    controller.current = abort;
    let totals = EMPTY_TOTALS;
    let stopped: string | null = null;
    setState({ step: 'running', fileName, file, sent: 0, totals });
    for (const chunk of importChunks(file.records)) {
      if (abort.signal.aborted) {
        stopped = 'Cancelled: the rest of the file was not sent.';
        break;
      }
      try {
        const result = await importRawData(deviceid, chunk.records, abort.signal);
        totals = addImportResult(totals, chunk.start, result);
      } catch (err) {
        stopped = abort.signal.aborted
          ? 'Cancelled: the rest of the file was not sent.'
          : `${loadErrorDetail(err)} The rest of the file was not sent.`;
        break;
      }
      setState({ step: 'running', fileName, file, sent: chunk.start + chunk.records.length, totals });
    }
    if (controller.current === abort) controller.current = null;
    if (totals.imported > 0) onImported();
    setState({ step: 'done', file, totals, stopped });
  };

  const cancel = () => controller.current?.abort();
  const hide = () => {
    cancel();
    onHide();
  };

  return (
    <Dialog
      header="Import records"
      visible={visible}
      onHide={hide}
      className="rd-dialog rd-import-dialog"
      breakpoints={{ '640px': '100vw' }}
      draggable={false}
      footer={
        <div className="rd-dialog__footer">
          <WorkCancelButton step={state.step} onStop={cancel} onHide={hide} />
          {state.step === 'preview' && (
            <Button
              type="button"
              icon="pi pi-upload"
              label={`Import ${plural(state.file.records.length, 'record', 'records')}`}
              onClick={() => void run(state.fileName, state.file)}
            />
          )}
        </div>
      }
    >
      {(state.step === 'choose' || state.step === 'preview') && (
        <div className="rd-file">
          <label htmlFor={inputId}>File (CSV or JSON, as the export writes it)</label>
          <input
            id={inputId}
            type="file"
            accept=".csv,.json,text/csv,application/json"
            onChange={(e) => void choose(e)}
          />
        </div>
      )}
      {state.step === 'choose' && state.problem && (
        <p role="alert" className="rd-problem">
          {state.problem}
        </p>
      )}
      {state.step === 'preview' && <Preview fileName={state.fileName} file={state.file} />}
      {state.step === 'running' && (
        <div className="rd-progress">
          <ProgressBar
            aria-label="Import progress"
            value={Math.round((state.sent / state.file.records.length) * 100)}
            showValue={false}
          />
          <p className="muted" role="status">
            {`${state.sent.toLocaleString()} of ${plural(state.file.records.length, 'record', 'records')} sent, ${state.totals.imported.toLocaleString()} taken`}
          </p>
        </div>
      )}
      {state.step === 'done' && <Outcome file={state.file} totals={state.totals} stopped={state.stopped} />}
    </Dialog>
  );
}

function Preview({ fileName, file }: { fileName: string; file: ImportFile }) {
  const keys = file.keys.slice(0, PREVIEW_KEYS);
  return (
    <section className="rd-preview" aria-label="Preview">
      <p>
        <strong>{fileName}</strong> ({file.format.toUpperCase()}): {plural(file.records.length, 'record', 'records')}{' '}
        from <LocalTime ts={file.from} /> to <LocalTime ts={file.to} />.
      </p>
      <p className="rd-preview__keys">
        {plural(file.keys.length, 'key', 'keys')}: {file.keys.join(', ')}
      </p>
      <div className="data-table-wrap rd-preview__table">
        <table className="data-table">
          <caption className="visually-hidden">The first records of the file</caption>
          <thead>
            <tr>
              <th scope="col">ts</th>
              {keys.map((k) => (
                <th key={k} scope="col">
                  {k}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {file.records.slice(0, PREVIEW_ROWS).map((record, i) => (
              <tr key={i}>
                <td data-label="ts">
                  <LocalTime ts={record.ts as number} />
                </td>
                {keys.map((k) => (
                  <td key={k} data-label={k}>
                    {rawValueText(k, record[k]).text}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Outcome({ file, totals, stopped }: { file: ImportFile; totals: ImportTotals; stopped: string | null }) {
  const refused = totals.refused.length;
  return (
    <section className="rd-outcome" aria-label="Import result">
      <p role="status" className="rd-done">
        <i className={`pi ${stopped ? 'pi-exclamation-triangle' : 'pi-check-circle'}`} aria-hidden="true" /> Taken:{' '}
        {plural(totals.imported, 'record', 'records')}. Refused: {plural(refused, 'record', 'records')}.
      </p>
      {(totals.duplicates > 0 || totals.thinned > 0) && (
        <p className="muted">
          {totals.duplicates > 0 && `${plural(totals.duplicates, 'record was', 'records were')} stored already. `}
          {totals.thinned > 0 && `${plural(totals.thinned, 'record was', 'records were')} thinned by the plan.`}
        </p>
      )}
      {stopped && (
        <p role="alert" className="rd-problem">
          {stopped}
        </p>
      )}
      {refused > 0 && (
        <ul className="rd-refused" aria-label="Refused records">
          {totals.refused.slice(0, REFUSED_LISTED).map((r) => (
            <li key={r.index}>
              Record {r.index + 1}
              {typeof file.records[r.index]?.ts === 'number' && (
                <>
                  {' '}
                  (<LocalTime ts={file.records[r.index]!.ts as number} />)
                </>
              )}
              : {r.reason}
            </li>
          ))}
          {refused > REFUSED_LISTED && (
            <li className="muted">and {plural(refused - REFUSED_LISTED, 'more', 'more')}</li>
          )}
        </ul>
      )}
    </section>
  );
}
