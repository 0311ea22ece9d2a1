/**
 * How tall a group table widget is drawn (issue 32): as many grid rows as its devices need, up to
 * a page of them, instead of the saved height (a 12-row table for 4 devices pushed the map below
 * the fold at 1280 x 800). Decided from the group's device count before the data answers (GET
 * /groups counts them), so the dashboard does not move when the rows arrive.
 */
import { GRID_BREAKPOINT_NAMES, GRID_ROW_HEIGHT, type GridBreakpoint } from '@portal/core';

/** Vertical space between grid rows (dashboard-grid.tsx MARGIN). */
export const GRID_MARGIN_Y = 16;

/**
 * The table card's parts as drawn (group-table.css, home.css; measured at 1280 and 390 px): the
 * card's borders and header, the count and refresh row, the column headings, and room for a
 * sideways scroll bar when the columns are wider than the card; the paginator under any rows.
 */
const TABLE_CHROME_PX = 2 + 65 + 42 + 45 + 16;
const TABLE_PAGINATOR_PX = 62;
/**
 * One row: the Device ID cell with the name under it (50 px drawn at 1280 px); narrower columns
 * wrap an event message onto a second line (71 px drawn at 390 px).
 */
const TABLE_ROW_PX: Readonly<Record<GridBreakpoint, number>> = { lg: 51, md: 62, sm: 68 };
/** The empty table's one line ('No devices in this group'). */
const TABLE_EMPTY_PX = 32;

/** Grid rows of a table showing `rows` rows at breakpoint `bp` (none: the empty table's message, without a paginator). */
export function tableGridHeight(rows: number, bp: GridBreakpoint): number {
  const px = TABLE_CHROME_PX + (rows > 0 ? rows * TABLE_ROW_PX[bp] + TABLE_PAGINATOR_PX : TABLE_EMPTY_PX);
  return Math.ceil((px + GRID_MARGIN_Y) / (GRID_ROW_HEIGHT + GRID_MARGIN_Y));
}

/** The height at each breakpoint of a table of `deviceCount` devices paged by `pageSize`: its rows up to a page. */
export function fittedTableHeights(deviceCount: number, pageSize: number): Record<GridBreakpoint, number> {
  const rows = Math.min(deviceCount, pageSize);
  return Object.fromEntries(GRID_BREAKPOINT_NAMES.map((bp) => [bp, tableGridHeight(rows, bp)])) as Record<
    GridBreakpoint,
    number
  >;
}
