/**
 * The group table widget (spec 2 sections 2, 3, 8 and 9; spec 1 sections 3 and 5): the group's
 * devices on PrimeReact's DataTable with the special and metric columns of its settings, filters
 * per column kind, sorting, paging 10/25/50, resizable and reorderable columns, rows and a Device
 * Page link leading to /data/{deviceid}, and the refresh button with its countdown.
 *
 * The table is lazy: filtering and sorting run here over the whole group with core's rules, on
 * rows read once per answer, and the DataTable draws only the page it shows (10,000 devices).
 */
import {
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useState,
  type JSX,
  type ReactNode,
  type RefObject,
} from 'react';
import { useNavigate } from 'react-router';
import {
  DataTable,
  type DataTableColReorderEvent,
  type DataTableFilterMeta,
  type DataTablePassThroughOptions,
  type DataTableStateEvent,
} from 'primereact/datatable';
import { Column, type ColumnFilterElementTemplateOptions } from 'primereact/column';
import {
  FILTER_OPERATOR_LABELS,
  NO_ASSETS_MATCH,
  NO_DEVICES_IN_GROUP,
  PAGE_SIZE_OPTIONS,
  columnHeader,
  filterOperatorsFor,
  groupTableExport,
  isCountColumn,
  isSpecialColumn,
  isTextColumn,
  tablePageSize,
  type ActiveFilter,
  type ExportTable,
  type FilterOperator,
  type GroupDataDevice,
  type TableColumn,
  type TableFilter,
  type TableSettings,
} from '@portal/core';
import { buildRows, filterRows, sortRows, type IndexedFilter, type TableRow } from '../utils/table-rows';
import { CountCell, DeviceIdCell, DevicePageLink, LastContactCell, MessagesCell, MetricCell } from './cells';
import { ColumnFilterInput, type FilterInputKind } from './column-filter';
import { RefreshButton } from './refresh-button';
import './group-table.css';

export interface GroupTableWidgetProps {
  /** columns, pageSize?, filters? */
  settings: TableSettings;
  devices: readonly GroupDataDevice[];
  /** First load, no data yet. */
  loading: boolean;
  /** A (re)fetch under way. */
  fetching: boolean;
  /** Load failure message to show. */
  error: string | null;
  /** ms epoch of the data shown. */
  updatedAt: number;
  /** When the next automatic refresh comes (countdown). */
  refreshIntervalMs: number;
  onRefresh: () => void;
  /** More of a row's actions, drawn beside its Device Page link (the app's device dialogs). */
  rowActions?: (device: GroupDataDevice) => ReactNode;
  /**
   * Where the table puts its export getter (the widget card's export menu reads it): the rows as
   * filtered and sorted, the columns in the order shown, each cell as shown (core groupTableExport).
   */
  exportRef?: RefObject<(() => ExportTable | null) | null> | undefined;
}

/** How often relative times (Last Contact) are brought up to date. */
const AGE_REFRESH_MS = 30_000;
const SKELETON_ROWS = [0, 1, 2, 3, 4, 5];

/** Names for the controls PrimeReact leaves unnamed (the page-size dropdown's hidden select). */
const PASS_THROUGH = {
  paginator: {
    // The hidden select named as the focusable input is (by the paginator); the root, a div, may not carry a name.
    RPPDropdown: { select: { 'aria-label': 'Rows per page' } },
  },
} satisfies DataTablePassThroughOptions;

const fieldOf = (index: number) => `c${index}`;
/** The column keys of a reorder, in their new order (the DataTable hands over its Column elements). */
const columnKeysOf = (event: DataTableColReorderEvent): string[] =>
  event.columns.map((column) => (column as unknown as { props: { columnKey?: string } }).props.columnKey ?? '');
const indexOf = (field: string | undefined) => (field?.startsWith('c') ? Number(field.slice(1)) : Number.NaN);

function inputKindOf(column: TableColumn): FilterInputKind {
  if (isTextColumn(column.key)) return 'text';
  return column.key === 'ts' ? 'time' : 'number';
}

interface FilterConstraint {
  value: unknown;
  matchMode: string | undefined;
}

/** The DataTable's filter model for the columns, starting from the settings' filters. */
function initialFilters(
  columns: readonly TableColumn[],
  saved: readonly TableFilter[] | undefined,
): DataTableFilterMeta {
  const meta: DataTableFilterMeta = {};
  columns.forEach((column, index) => {
    const operators = filterOperatorsFor(column.key);
    const filter = saved?.find((f) => f.key === column.key && operators.includes(f.operator));
    const matchMode = (filter?.operator ?? operators[0]) as FilterOperator;
    const value = filter
      ? filter.operator === 'between'
        ? [filter.value, filter.value2 ?? null]
        : filter.value
      : null;
    meta[fieldOf(index)] = { operator: 'and', constraints: [{ value, matchMode }] } as DataTableFilterMeta[string];
  });
  return meta;
}

/** The filters to apply, read from the DataTable's filter model. */
function activeFilters(columns: readonly TableColumn[], meta: DataTableFilterMeta): IndexedFilter[] {
  const out: IndexedFilter[] = [];
  for (const [field, entry] of Object.entries(meta)) {
    const index = indexOf(field);
    const column = columns[index];
    if (!column) continue;
    const constraints: FilterConstraint[] = 'constraints' in entry ? entry.constraints : [entry];
    for (const c of constraints) {
      const operator = c.matchMode as FilterOperator | undefined;
      if (!operator || !filterOperatorsFor(column.key).includes(operator)) continue;
      let filter: ActiveFilter;
      if (operator === 'between') {
        const [low, high] = Array.isArray(c.value) ? (c.value as unknown[]) : [c.value, null];
        filter = {
          key: column.key,
          operator,
          value: typeof low === 'number' ? low : null,
          value2: typeof high === 'number' ? high : null,
        };
      } else {
        // A value kept from 'between' after the mode changed: its first bound, as the input shows it.
        const v: unknown = Array.isArray(c.value) ? (c.value as unknown[])[0] : c.value;
        filter = { key: column.key, operator, value: typeof v === 'number' || typeof v === 'string' ? v : null };
      }
      out.push({ index, filter });
    }
  }
  return out;
}

function TableSkeleton({ columns }: { columns: number }) {
  const cols = Array.from({ length: Math.max(1, Math.min(columns, 6)) }, (_, i) => i);
  return (
    <div className="gt-skeleton" aria-busy="true" role="status" aria-label="Loading the group's devices">
      {SKELETON_ROWS.map((row) => (
        <div key={row} className="gt-skeleton__row">
          {cols.map((c) => (
            <span key={c} className="skeleton gt-skeleton__cell" />
          ))}
        </div>
      ))}
    </div>
  );
}

export function GroupTableWidget(props: GroupTableWidgetProps): JSX.Element {
  const { devices, loading, fetching, error, updatedAt, refreshIntervalMs, onRefresh, rowActions, exportRef } = props;
  const navigate = useNavigate();

  // The settings by content, so a caller passing equal settings anew keeps the table's state;
  // new settings (another view, edited columns) start again from their filters and page size.
  const settingsKey = JSON.stringify(props.settings);
  const [current, setCurrent] = useState(() => ({ key: settingsKey, settings: props.settings }));
  const [filters, setFilters] = useState<DataTableFilterMeta>(() =>
    initialFilters(props.settings.columns, props.settings.filters),
  );
  const [sortField, setSortField] = useState<string | undefined>(undefined);
  const [sortOrder, setSortOrder] = useState<1 | -1 | 0 | null | undefined>(null);
  const [first, setFirst] = useState(0);
  const [rows, setRows] = useState(() => tablePageSize(props.settings));
  const [nowMs, setNowMs] = useState(() => Date.now());
  /** The columns' fields in the order the user dragged them to (null: as configured). */
  const [columnOrder, setColumnOrder] = useState<string[] | null>(null);
  if (current.key !== settingsKey) {
    setCurrent({ key: settingsKey, settings: props.settings });
    setFilters(initialFilters(props.settings.columns, props.settings.filters));
    setRows(tablePageSize(props.settings));
    setSortField(undefined);
    setSortOrder(null);
    setFirst(0);
    setColumnOrder(null);
  }
  const columns = current.settings.columns;

  useEffect(() => {
    const id = window.setInterval(() => setNowMs(Date.now()), AGE_REFRESH_MS);
    return () => window.clearInterval(id);
  }, []);
  // New data: ages measured from its arrival.
  useEffect(() => setNowMs(Date.now()), [updatedAt]);

  const allRows = useMemo(() => buildRows(devices, columns), [devices, columns]);
  const applied = useMemo(() => activeFilters(columns, filters), [columns, filters]);
  const filtered = useMemo(() => filterRows(allRows, applied), [allRows, applied]);
  const sortIndex = indexOf(sortField);
  const sorted = useMemo(
    () =>
      Number.isInteger(sortIndex) && (sortOrder === 1 || sortOrder === -1)
        ? sortRows(filtered, sortIndex, sortOrder)
        : filtered,
    [filtered, sortIndex, sortOrder],
  );
  // A page past the end (fewer rows after new data) falls back to the last page.
  const pageFirst = first < sorted.length ? first : Math.max(0, Math.floor((sorted.length - 1) / rows) * rows);
  const page = useMemo(() => sorted.slice(pageFirst, pageFirst + rows), [sorted, pageFirst, rows]);

  const onFilter = useCallback((e: DataTableStateEvent) => {
    setFilters(e.filters);
    setFirst(0);
  }, []);
  const onSort = useCallback((e: DataTableStateEvent) => {
    setSortField(e.sortField);
    setSortOrder(e.sortOrder);
    setFirst(0);
  }, []);
  const onPage = useCallback((e: DataTableStateEvent) => {
    setFirst(e.first);
    setRows(e.rows);
  }, []);
  const onColReorder = useCallback((e: DataTableColReorderEvent) => setColumnOrder(columnKeysOf(e)), []);

  useImperativeHandle(
    exportRef,
    () => () => {
      if (loading && devices.length === 0) return null;
      const shown = columnOrder
        ? columnOrder.map((field) => columns[indexOf(field)]).filter((c): c is TableColumn => c !== undefined)
        : columns;
      const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
      return groupTableExport(
        sorted.map((row) => row.device),
        shown.length === columns.length ? shown : columns,
        timeZone,
      );
    },
    [loading, devices, columns, columnOrder, sorted],
  );

  const columnViews = useMemo(
    () =>
      columns.map((column, index) => {
        const header = columnHeader(column);
        const kind = inputKindOf(column);
        return {
          column,
          index,
          field: fieldOf(index),
          header,
          matchModes: filterOperatorsFor(column.key).map((value) => ({ label: FILTER_OPERATOR_LABELS[value], value })),
          filterElement: (options: ColumnFilterElementTemplateOptions) => (
            <ColumnFilterInput kind={kind} header={header} options={options} />
          ),
          numeric: kind !== 'text',
        };
      }),
    [columns],
  );

  const bodyFor = useCallback(
    (column: TableColumn) =>
      (row: TableRow): JSX.Element | string => {
        const d = row.device;
        const key = column.key;
        if (!isSpecialColumn(key)) return <MetricCell device={d} column={column} />;
        if (key === 'ts') return <LastContactCell ts={d.ts} nowMs={nowMs} />;
        if (key === 'messages') return <MessagesCell device={d} />;
        if (isCountColumn(key)) return <CountCell kind={key} count={d[key]} />;
        if (key === 'deviceid') return <DeviceIdCell device={d} />;
        return d[key] === '' ? <span className="gt-muted">—</span> : d[key];
      },
    [nowMs],
  );

  const total = devices.length;
  const shown = sorted.length;
  const countText =
    loading && total === 0
      ? ''
      : shown === total
        ? `${total} ${total === 1 ? 'asset' : 'assets'}`
        : `${shown} of ${total} assets`;

  return (
    <div className="gt" data-testid="group-table">
      <div className="gt-toolbar">
        <span className="gt-toolbar__count" aria-live="polite">
          {countText}
        </span>
        <RefreshButton
          fetching={fetching}
          updatedAt={updatedAt}
          refreshIntervalMs={refreshIntervalMs}
          onRefresh={onRefresh}
        />
      </div>
      {error ? (
        <p className="gt-error" role="alert">
          <i className="pi pi-exclamation-triangle" aria-hidden="true" /> {error}
        </p>
      ) : null}
      {loading && total === 0 ? (
        error ? null : (
          <TableSkeleton columns={columns.length + 1} />
        )
      ) : (
        <DataTable
          className={rowActions ? 'gt-table gt-table--actions' : 'gt-table'}
          value={page as TableRow[]}
          dataKey="deviceid"
          lazy
          totalRecords={shown}
          first={pageFirst}
          rows={rows}
          onPage={onPage}
          paginator={shown > 0}
          rowsPerPageOptions={[...PAGE_SIZE_OPTIONS]}
          paginatorTemplate="FirstPageLink PrevPageLink CurrentPageReport NextPageLink LastPageLink RowsPerPageDropdown"
          currentPageReportTemplate="{first}–{last} of {totalRecords}"
          sortField={sortField}
          sortOrder={sortOrder}
          onSort={onSort}
          removableSort
          filters={filters}
          onFilter={onFilter}
          filterDisplay="menu"
          emptyMessage={devices.length === 0 ? NO_DEVICES_IN_GROUP : NO_ASSETS_MATCH}
          scrollable
          scrollHeight="flex"
          resizableColumns
          columnResizeMode="expand"
          reorderableColumns
          onColReorder={onColReorder}
          size="small"
          rowHover
          rowClassName={() => 'gt-row'}
          onRowClick={(e) => {
            const target = e.originalEvent.target as HTMLElement | null;
            if (target?.closest('a, button, input')) return;
            void navigate(`/data/${encodeURIComponent((e.data as TableRow).deviceid)}`);
          }}
          tableStyle={{ minWidth: '100%' }}
          pt={PASS_THROUGH}
        >
          <Column
            key="device-page"
            columnKey="device-page"
            header={<span className="visually-hidden">Device Page</span>}
            body={(row: TableRow) => (
              <span className="gt-row-actions">
                <DevicePageLink device={row.device} />
                {rowActions?.(row.device)}
              </span>
            )}
            reorderable={false}
            resizeable={false}
            className="gt-col-link"
            headerClassName="gt-col-link"
          />
          {columnViews.map((v) => (
            <Column
              key={v.field}
              columnKey={v.field}
              field={v.field}
              header={v.header}
              body={bodyFor(v.column)}
              sortable
              filter
              filterField={v.field}
              dataType={v.numeric ? 'numeric' : 'text'}
              filterMatchModeOptions={v.matchModes}
              filterElement={v.filterElement}
              showFilterOperator={false}
              showAddButton={false}
              maxConstraints={1}
              reorderable={v.index !== 0}
              className={`gt-col gt-col--${v.numeric ? 'num' : 'text'}`}
              headerClassName={`gt-col gt-col--${v.numeric ? 'num' : 'text'}`}
            />
          ))}
        </DataTable>
      )}
    </div>
  );
}

export default GroupTableWidget;
