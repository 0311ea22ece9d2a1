/**
 * The Excel workbook of an export, written by exceljs. The library (about 250 kB gzip) is loaded
 * with import() only when someone asks for a workbook, so no route carries it.
 */
import type { ExportCell, ExportTable } from '@portal/core';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Longest sheet name Excel accepts. */
const SHEET_NAME_MAX = 31;
/** Widest column the sheet sets (characters). */
const COLUMN_WIDTH_MAX = 60;
/** A number written as text ('12.40', '-3'): stored as a number, its decimals kept by the cell's format. */
const DECIMAL_TEXT = /^-?\d+(?:\.(\d+))?$/;

/** A sheet name Excel accepts: without : \ / ? * [ ], not starting or ending with ', at most 31 characters. */
export function sheetName(title: string): string {
  const name = title
    .replace(/[:\\/?*[\]]/g, ' ')
    .replace(/^'+|'+$/g, '')
    .trim()
    .slice(0, SHEET_NAME_MAX)
    .trim();
  return name === '' ? 'Export' : name;
}

/** A cell's value and number format: decimal text becomes a number shown with the same decimals. */
function cellOf(cell: ExportCell): { value: string | number | null; numFmt?: string } {
  if (typeof cell !== 'string') return { value: cell };
  const decimal = DECIMAL_TEXT.exec(cell);
  if (!decimal) return { value: cell };
  const places = decimal[1]?.length ?? 0;
  return { value: Number(cell), numFmt: places === 0 ? '0' : `0.${'0'.repeat(places)}` };
}

/**
 * The table as an .xlsx workbook of one sheet named after the widget: a bold, frozen header row,
 * then the rows; numbers stay numbers and text stays text (a cell is never a formula).
 */
export async function workbookBlob(table: ExportTable, title: string): Promise<Blob> {
  const { Workbook } = await import('exceljs');
  const workbook = new Workbook();
  workbook.creator = 'Portal';
  const sheet = workbook.addWorksheet(sheetName(title), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.addRow(table.columns).font = { bold: true };
  const widths = table.columns.map((c) => c.length);
  for (const cells of table.rows) {
    const row = sheet.addRow([]);
    cells.forEach((cell, index) => {
      const { value, numFmt } = cellOf(cell);
      const target = row.getCell(index + 1);
      target.value = value;
      if (numFmt) target.numFmt = numFmt;
      if (typeof value === 'string' && value.includes('\n')) target.alignment = { wrapText: true, vertical: 'top' };
      const longest = String(value ?? '')
        .split('\n')
        .reduce((max, line) => Math.max(max, line.length), 0);
      widths[index] = Math.max(widths[index] ?? 0, longest);
    });
  }
  widths.forEach((width, index) => {
    sheet.getColumn(index + 1).width = Math.min(COLUMN_WIDTH_MAX, width + 2);
  });
  const buffer = await workbook.xlsx.writeBuffer();
  return new Blob([buffer], { type: XLSX_TYPE });
}
