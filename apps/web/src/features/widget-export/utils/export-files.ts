/** A widget's CSV file: core's tableToCsv with a byte order mark, so spreadsheets read UTF-8 units such as °C. */
import { tableToCsv, type ExportTable } from '@portal/core';

export const CSV_TYPE = 'text/csv;charset=utf-8';

/** The table as a CSV file's contents: UTF-8 with a byte order mark, records ended by CRLF. */
export function csvBlob(table: ExportTable): Blob {
  return new Blob(['\uFEFF', tableToCsv(table)], { type: CSV_TYPE });
}
