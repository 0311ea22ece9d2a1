/**
 * The records of a page on PrimeReact's DataTable: the time (pinned while the table scrolls
 * sideways inside its wrapper), one column per key, the events compactly; a row opens its raw
 * JSON on a click, or on Enter from its time button.
 */
import { DataTable } from 'primereact/datatable';
import { Column } from 'primereact/column';
import { rawValueText, type RawRecordRow } from '@portal/core';
import { LocalTime, localTimeText } from '@/components/ui/local-time';

export interface RecordsTableProps {
  rows: RawRecordRow[];
  keys: string[];
  /** PORTAL_displaySettings: a key set to base64 is decoded like serial capture. */
  displaySettings: Record<string, unknown>;
  loading: boolean;
  onOpen(row: RawRecordRow): void;
}

/** Texts longer than this may end in an ellipsis: the whole text is on hover. */
const LONG_TEXT = 40;

function ValueCell({ name, value, setting }: { name: string; value: unknown; setting: unknown }) {
  const shown = rawValueText(name, value, setting);
  if (shown.base64 !== null) {
    return (
      <span className="rd-value rd-value--serial" title={`base64: ${shown.base64}`}>
        {shown.text}
      </span>
    );
  }
  return (
    <span className="rd-value" title={shown.text.length > LONG_TEXT ? shown.text : undefined}>
      {shown.text}
    </span>
  );
}

function EventsCell({ row }: { row: RawRecordRow }) {
  if (row.events.length === 0) return null;
  const all = row.events.map((e) => (e.topic ? `${e.topic}: ${e.msg}` : e.msg)).join('\n');
  return (
    <span className="rd-events" title={all}>
      {row.events.length > 1 && <span className="rd-events__count">{row.events.length}</span>}
      <span className="rd-events__text">{row.events.map((e) => e.msg).join(' · ')}</span>
    </span>
  );
}

export function RecordsTable({ rows, keys, displaySettings, loading, onOpen }: RecordsTableProps) {
  const hasEvents = rows.some((r) => r.events.length > 0);
  return (
    <DataTable
      className="rd-table"
      value={rows}
      dataKey="ts"
      scrollable
      size="small"
      rowHover
      loading={loading}
      rowClassName={() => 'rd-row'}
      onRowClick={(e) => {
        const target = e.originalEvent.target as HTMLElement | null;
        if (target?.closest('button')) return;
        onOpen(e.data as RawRecordRow);
      }}
      tableStyle={{ minWidth: '100%' }}
      // The name on the table itself: the DataTable's root is a div, which may not carry one.
      pt={{ table: { 'aria-label': 'Records' } }}
    >
      <Column
        key="ts"
        columnKey="ts"
        header="Time"
        frozen
        className="rd-col-time"
        headerClassName="rd-col-time"
        body={(row: RawRecordRow) => (
          <button
            type="button"
            className="rd-open"
            aria-label={`${localTimeText(row.ts)}: show the record as JSON`}
            onClick={() => onOpen(row)}
          >
            <LocalTime ts={row.ts} />
          </button>
        )}
      />
      {keys.map((key) => (
        <Column
          key={key}
          columnKey={key}
          header={key}
          className="rd-col"
          body={(row: RawRecordRow) => <ValueCell name={key} value={row.values[key]} setting={displaySettings[key]} />}
        />
      ))}
      {hasEvents && (
        <Column
          key="events"
          columnKey="events"
          header="Events"
          className="rd-col rd-col-events"
          body={(row: RawRecordRow) => <EventsCell row={row} />}
        />
      )}
    </DataTable>
  );
}
