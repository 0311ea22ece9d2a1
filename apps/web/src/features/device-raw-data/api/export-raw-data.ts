import { NETWORK_ERROR } from '@portal/core';
import { API_BASES, ApiError } from '@/lib/api';
import type { RawRange } from './get-raw-data';

export type ExportFormat = 'csv' | 'json';

/** How far an export has come. */
export interface ExportProgress {
  bytes: number;
  /** Bytes the answer announced (content-length), when it did. */
  total: number | null;
  /** Records received (CSV: its lines; JSON: its records' ts). */
  records: number;
  /** The newest record time received (the export runs oldest first), for progress over the range. */
  lastTs: number | null;
  /** The oldest record time received. */
  firstTs: number | null;
}

export interface ExportedFile {
  blob: Blob;
  progress: ExportProgress;
}

/** A record's ts in the export: CSV lines after the header start with it, JSON records carry "ts". */
const TS_PATTERNS: Record<ExportFormat, RegExp> = {
  csv: /\n(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)[,\r]/g,
  json: /"ts":(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g,
};

async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { message?: unknown; code?: unknown };
    return new ApiError(
      response.status,
      typeof body.code === 'string' ? body.code : `HTTP_${response.status}`,
      typeof body.message === 'string' ? body.message : '',
    );
  } catch {
    return new ApiError(response.status, `HTTP_${response.status}`, '');
  }
}

/**
 * GET /api/device/{id}/export?fromTime&toTime&format: the records of the range (oldest first),
 * read as the server streams them, `onProgress` told after each piece; `signal` cancels.
 */
export async function exportRawData(
  deviceid: string,
  range: RawRange,
  format: ExportFormat,
  options: { signal: AbortSignal; onProgress: (progress: ExportProgress) => void },
): Promise<ExportedFile> {
  const query = new URLSearchParams({ format });
  if (range.from !== null) query.set('fromTime', String(range.from));
  if (range.to !== null) query.set('toTime', String(range.to));
  let response: Response;
  try {
    response = await fetch(`${API_BASES.device}/device/${encodeURIComponent(deviceid)}/export?${query}`, {
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK', NETWORK_ERROR);
  }
  if (!response.ok) throw await errorOf(response);
  const length = Number(response.headers.get('content-length'));
  const progress: ExportProgress = {
    bytes: 0,
    total: Number.isFinite(length) && length > 0 ? length : null,
    records: 0,
    lastTs: null,
    firstTs: null,
  };
  const type = response.headers.get('content-type') ?? (format === 'csv' ? 'text/csv' : 'application/json');
  const parts: Uint8Array[] = [];
  const decoder = new TextDecoder();
  const pattern = TS_PATTERNS[format];
  // The end of the text so far that may hold the start of a record cut by a piece's end.
  let carry = '';
  const reader = response.body?.getReader();
  if (!reader) return { blob: new Blob([await response.arrayBuffer()], { type }), progress };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      progress.bytes += value.byteLength;
      const text = carry + decoder.decode(value, { stream: true });
      let end = 0;
      for (const match of text.matchAll(pattern)) {
        const ts = Number(match[1]);
        progress.records += 1;
        progress.firstTs ??= ts;
        progress.lastTs = ts;
        end = (match.index ?? 0) + match[0].length;
      }
      // Keep what follows the last match (at most a record's start) for the next piece.
      carry = text.slice(Math.max(end, text.length - 64));
      options.onProgress({ ...progress });
    }
  } catch (err) {
    await reader.cancel().catch(() => undefined);
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK', NETWORK_ERROR);
  }
  return { blob: new Blob(parts as BlobPart[], { type }), progress };
}
