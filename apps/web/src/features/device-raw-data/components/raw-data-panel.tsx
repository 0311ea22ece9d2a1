/**
 * The Raw Data page's content (spec 2 sections 2 and 7; ledger SUB-01): the device's records of a
 * time range in a table, newest first, 100 a page with older and newer pages by time; a record's
 * raw JSON; serial capture decoded; export of the range as CSV or JSON, and import of such a file
 * for those who may (editDeviceSettings; the server decides every call again).
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { RAW_DATA_MESSAGES, RAW_DATA_PAGE, loadErrorDetail, type RawRecordRow } from '@portal/core';
import { RefreshButton } from '@/components/ui/refresh-button';
import * as queryKeys from '@/lib/query-keys';
import { LocalTime } from '@/components/ui/local-time';
import { useRawData, type RawRange } from '../api/get-raw-data';
import { ExportDialog } from './export-dialog';
import { ImportDialog } from './import-dialog';
import { RangeChooser, presetRange, type RangePreset } from './range-chooser';
import { RecordJsonDialog } from './record-json-dialog';
import { RecordsTable } from './records-table';
import './raw-data.css';

export interface RawDataPanelProps {
  deviceid: string;
  name: string;
  /** PORTAL_displaySettings of the device. */
  displaySettings: Record<string, unknown>;
  /** The role may import records (editDeviceSettings). */
  canImport: boolean;
  /** Data limited to the latest point (the server answers what the plan allows). */
  dataRestricted: boolean;
}

export function RawDataPanel({ deviceid, name, displaySettings, canImport, dataRestricted }: RawDataPanelProps) {
  const queryClient = useQueryClient();
  const [preset, setPreset] = useState<RangePreset>('latest');
  const [range, setRange] = useState<RawRange>({ from: null, to: null });
  // The pages walked back from the newest: each is the time its page reads before (exclusive).
  const [pages, setPages] = useState<number[]>([]);
  const before = pages.at(-1) ?? null;
  const [open, setOpen] = useState<RawRecordRow | null>(null);
  const [exporting, setExporting] = useState(false);
  const [importing, setImporting] = useState(false);
  const data = useRawData(deviceid, range, before);
  const page = data.data;

  const chooseRange = (next: RangePreset, nextRange: RawRange) => {
    setPreset(next);
    setRange(nextRange);
    setPages([]);
  };
  // A last hour, day or week on its newest page moves to now; anything else reads its page again.
  const refresh = () => {
    const moves = preset === 'hour' || preset === 'day' || preset === 'week';
    if (moves && pages.length === 0) chooseRange(preset, presetRange(preset, Date.now(), range));
    else void data.refetch();
  };
  const reload = () => void queryClient.invalidateQueries({ queryKey: queryKeys.device.raw(deviceid) });

  const rows = page?.rows ?? [];
  const newest = rows[0]?.ts;
  const oldest = rows.at(-1)?.ts;

  return (
    <section className="card rd-panel" aria-labelledby="rd-heading">
      <div className="rd-toolbar">
        <h2 id="rd-heading" className="rd-heading">
          Raw data
        </h2>
        <RangeChooser preset={preset} custom={range} nowMs={Date.now()} onChange={chooseRange} />
        <div className="rd-actions">
          <RefreshButton fetching={data.isFetching} onRefresh={refresh} />
          <Button
            type="button"
            label="Export"
            icon="pi pi-download"
            className="p-button-text p-button-sm"
            onClick={() => setExporting(true)}
          />
          {canImport && (
            <Button
              type="button"
              label="Import"
              icon="pi pi-upload"
              className="p-button-text p-button-sm"
              onClick={() => setImporting(true)}
            />
          )}
        </div>
      </div>
      {dataRestricted && <p className="muted rd-note">The plan limits this device&apos;s data to its latest record.</p>}

      {data.isPending ? (
        <div className="rd-skeleton" role="status" aria-label="Loading the records">
          {Array.from({ length: 8 }, (_, i) => (
            <div key={i} className="skeleton skeleton--label" />
          ))}
        </div>
      ) : data.isError && !page ? (
        <div className="rd-state" role="alert">
          <i className="pi pi-exclamation-triangle rd-state__icon" aria-hidden="true" />
          <p className="rd-state__message">{loadErrorDetail(data.error)}</p>
          <Button type="button" label="Try again" className="p-button-outlined" onClick={() => void data.refetch()} />
        </div>
      ) : rows.length === 0 ? (
        <div className="rd-state">
          <p className="rd-state__message">{RAW_DATA_MESSAGES.noData}</p>
          <p className="muted">
            {pages.length > 0
              ? 'Nothing older in this range.'
              : preset === 'latest'
                ? 'The device has sent no records yet.'
                : 'No records in this range: choose a longer one.'}
          </p>
        </div>
      ) : (
        <>
          {data.isError && (
            <p className="rd-problem" role="alert">
              {loadErrorDetail(data.error)}
            </p>
          )}
          <p className="muted rd-count" role="status">
            {rows.length === 1 ? '1 record' : `${rows.length} records`}
            {newest !== undefined && oldest !== undefined && (
              <>
                {' '}
                from <LocalTime ts={oldest} /> to <LocalTime ts={newest} />
              </>
            )}
          </p>
          <div className="rd-table-wrap">
            <RecordsTable
              rows={rows}
              keys={page?.keys ?? []}
              displaySettings={displaySettings}
              loading={data.isFetching && data.isPlaceholderData}
              onOpen={setOpen}
            />
          </div>
        </>
      )}

      <nav className="rd-pager" aria-label="Pages of records">
        <Button
          type="button"
          label="Newest"
          icon="pi pi-angle-double-up"
          className="p-button-text p-button-sm"
          disabled={pages.length === 0}
          onClick={() => setPages([])}
        />
        <Button
          type="button"
          label="Newer"
          icon="pi pi-angle-up"
          className="p-button-outlined p-button-sm"
          disabled={pages.length === 0}
          onClick={() => setPages((p) => p.slice(0, -1))}
        />
        <Button
          type="button"
          label={`Older (${RAW_DATA_PAGE})`}
          icon="pi pi-angle-down"
          className="p-button-outlined p-button-sm"
          disabled={!page || page.olderThan === null || data.isPlaceholderData}
          onClick={() => {
            const next = page?.olderThan;
            if (next !== null && next !== undefined) setPages((p) => [...p, next]);
          }}
        />
      </nav>

      <RecordJsonDialog row={open} onHide={() => setOpen(null)} />
      <ExportDialog
        deviceid={deviceid}
        name={name}
        range={range}
        visible={exporting}
        onHide={() => setExporting(false)}
      />
      {canImport && (
        <ImportDialog deviceid={deviceid} visible={importing} onHide={() => setImporting(false)} onImported={reload} />
      )}
    </section>
  );
}
