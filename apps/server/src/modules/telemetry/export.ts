/**
 * Export of a device's data as a streamed file: the records of a time range as CSV (ts and one
 * column per key) or JSON, read a page at a time while the answer streams; or the applied config
 * as the import takes it back.
 */
import { REQUEST_EPOCH_S_MAX, csvCell, type ExportQuery } from '@portal/core';
import type { Db } from '../../db/db';
import { AppError } from '../../errors';
import * as repo from './telemetry-reads.repository';

/** Records per page when exporting. */
export const EXPORT_PAGE_SIZE = 1000;
/** Time used as "no upper bound": the latest a request may name (2100-01-01). */
export const FAR_FUTURE = REQUEST_EPOCH_S_MAX;
/**
 * Most records one export holds (500 pages): an export with no range reads everything the plan
 * keeps, so its work is bounded by rows, not days. Narrow the range for more.
 */
export const EXPORT_MAX_RECORDS = 500_000;

export interface ExportFile {
  contentType: string;
  filename: string;
  body: AsyncIterable<string>;
}

/** A CSV cell: core's rule (RFC 4180 quoting, the formula guard), the one the web's widget exports use too. */
export { csvCell };

/** The keys of a comma-separated list (blanks dropped), or null for none. */
export function splitKeys(text: string | undefined): string[] | null {
  const keys = text
    ?.split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  return keys && keys.length > 0 ? keys : null;
}

/**
 * The export file of a device (the caller has checked access). `config` is the applied config
 * document; `day` the date stamped into the file name.
 */
export async function exportFile(
  db: Db,
  deviceId: string,
  q: ExportQuery,
  config: Record<string, unknown>,
  day: string,
): Promise<ExportFile> {
  if (q.format === 'config') {
    const body = (async function* () {
      yield JSON.stringify({ config });
    })();
    return { contentType: 'application/json; charset=utf-8', filename: `${deviceId}-config-${day}.json`, body };
  }
  const from = q.fromTime ?? 0;
  const to = q.toTime ?? FAR_FUTURE;
  if (from > to) throw new AppError(400, 'BAD_REQUEST', 'fromTime must not be after toTime');
  const wanted = splitKeys(q.dataKeys);
  const columns = wanted ?? (await repo.selectLatest(db, deviceId)).map((l) => l.key);
  async function* pages(): AsyncGenerator<{ ts: number; data: Record<string, unknown> }[]> {
    let range = { from, to, inclusive: true };
    for (let read = 0; read < EXPORT_MAX_RECORDS;) {
      const page = await repo.selectRecordPage(db, deviceId, range, EXPORT_PAGE_SIZE);
      if (page.length > 0) yield page;
      read += page.length;
      if (page.length < EXPORT_PAGE_SIZE) return;
      range = { from: page[page.length - 1]!.ts, to, inclusive: false };
    }
  }
  async function* csv(): AsyncGenerator<string> {
    yield `${['ts', ...columns].map(csvCell).join(',')}\r\n`;
    for await (const page of pages()) {
      yield page
        .map(
          (r) =>
            [r.ts, ...columns.map((k) => (Object.prototype.hasOwnProperty.call(r.data, k) ? r.data[k] : undefined))]
              .map(csvCell)
              .join(',') + '\r\n',
        )
        .join('');
    }
  }
  async function* json(): AsyncGenerator<string> {
    yield `{"deviceid":${JSON.stringify(deviceId)},"records":[`;
    let first = true;
    for await (const page of pages()) {
      const parts = page.map((r) => {
        const record = wanted
          ? Object.fromEntries(Object.entries(r.data).filter(([k]) => k === 'ts' || wanted.includes(k)))
          : r.data;
        return JSON.stringify(record);
      });
      yield (first ? '' : ',') + parts.join(',');
      first = false;
    }
    yield ']}';
  }
  return q.format === 'json'
    ? { contentType: 'application/json; charset=utf-8', filename: `${deviceId}-${day}.json`, body: json() }
    : { contentType: 'text/csv; charset=utf-8', filename: `${deviceId}-${day}.csv`, body: csv() };
}
