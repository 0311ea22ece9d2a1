import { tableToCsv, type ExportTable } from '@portal/core';

/** Saves `blob` as a download named `fileName` (a link with `download`, clicked once). */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the blob once the click is handled; revoke on the next task.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}

export const CSV_TYPE = 'text/csv;charset=utf-8';

/** A table as a CSV file's contents: core's tableToCsv, UTF-8 with a byte order mark (so spreadsheets read units such as °C), records ended by CRLF. */
export function csvBlob(table: ExportTable): Blob {
  return new Blob(['\uFEFF', tableToCsv(table)], { type: CSV_TYPE });
}
