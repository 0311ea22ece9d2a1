/**
 * The Diagnostics page's content (spec 2 sections 2, 6 and 7; SUB-18, SUB-19; DESIGN.md section 5
 * 'J1939'): the J1939 active faults each controller last reported (SPN:FMI with the parameter's
 * name and the failure mode's text, and the lamps it lit), the newest diagnostics message, the
 * history of the last 600, and the bus message groups (PGN) heard with their names. ADMIN and USER
 * read it; anyone else sees the server's refusal (the page asks, the server decides).
 */
import { useMemo, useState } from 'react';
import { Button } from 'primereact/button';
import { loadErrorDetail, type ActiveFaultView, type DiagnosticsResponse, type Dm1LampsView } from '@portal/core';
import { RefreshButton } from '@/components/ui/refresh-button';
import { LocalTime } from '@/components/ui/local-time';
import { ApiError } from '@/lib/api';
import { csvBlob, downloadBlob } from '@/lib/download';
import { useDiagnostics } from '../api/get-diagnostics';
import './diagnostics.css';

/** History rows shown at first and added by 'Show more'. */
const HISTORY_STEP = 50;

type Message = DiagnosticsResponse['diagnostics'][number];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const scalar = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** A controller's address as J1939 writes it: decimal with its hex ('0 (0x00)'). */
const address = (source: number) => `${source} (0x${source.toString(16).padStart(2, '0').toUpperCase()})`;

const LAMPS: readonly {
  key: keyof Pick<Dm1LampsView, 'redStop' | 'amberWarning' | 'malfunction' | 'protect'>;
  label: string;
  tone: string;
}[] = [
  { key: 'redStop', label: 'Red stop', tone: 'alarm' },
  { key: 'amberWarning', label: 'Amber warning', tone: 'warning' },
  { key: 'malfunction', label: 'Malfunction', tone: 'warning' },
  { key: 'protect', label: 'Protect', tone: 'info' },
];

export function DiagnosticsPanel({ deviceid, name }: { deviceid: string; name: string }) {
  const query = useDiagnostics(deviceid);

  if (query.isError && !query.data) {
    const refused = query.error instanceof ApiError && query.error.status === 403;
    return (
      <section className="card dg-state" role="alert">
        <i className={`pi ${refused ? 'pi-lock' : 'pi-exclamation-triangle'} dg-state__icon`} aria-hidden="true" />
        <p className="dg-state__message">{loadErrorDetail(query.error)}</p>
        {refused ? (
          <p className="muted">Diagnostics are open to the device&apos;s administrators and users.</p>
        ) : (
          <Button type="button" label="Try again" className="p-button-outlined" onClick={() => void query.refetch()} />
        )}
      </section>
    );
  }
  if (query.isPending) {
    return (
      <div className="dg-grid" role="status" aria-label="Loading the diagnostics">
        {Array.from({ length: 3 }, (_, i) => (
          <div key={i} className="card skeleton dg-skeleton" />
        ))}
      </div>
    );
  }

  const data = query.data;
  return (
    <div className="dg-grid">
      <div className="dg-toolbar">
        <span className="muted dg-fetched" role="status">
          {query.isFetching ? (
            'Refreshing…'
          ) : (
            <>
              As of <LocalTime ts={new Date(query.dataUpdatedAt)} />
            </>
          )}
        </span>
        <RefreshButton fetching={query.isFetching} onRefresh={() => void query.refetch()} />
      </div>
      <FaultsCard faults={data.faults} lamps={data.lamps} />
      <LatestCard message={data.diagnostics[0]} />
      <HistoryCard messages={data.diagnostics} name={name} />
      <BusCard groups={data.busMessages} />
    </div>
  );
}

function FaultsCard({ faults, lamps }: { faults: ActiveFaultView[]; lamps: Dm1LampsView[] }) {
  const lit = lamps.filter((l) => LAMPS.some(({ key }) => l[key]));
  const newest = lamps.reduce((t, l) => Math.max(t, l.ts), 0);
  return (
    <section className="card dg-card dg-faults" aria-labelledby="dg-faults-heading">
      <header className="dg-card__head">
        <h2 id="dg-faults-heading">Active faults</h2>
        <span className={`dg-badge ${faults.length > 0 ? 'dg-badge--alarm' : 'dg-badge--ok'}`}>
          {faults.length === 0 ? 'None' : faults.length}
        </span>
      </header>
      {lit.length > 0 && (
        <ul className="dg-lamps" aria-label="Lamps on">
          {lit.flatMap((l) =>
            LAMPS.filter(({ key }) => l[key]).map(({ key, label, tone }) => (
              <li key={`${l.bus}:${l.source}:${key}`} className={`dg-lamp dg-lamp--${tone}`}>
                <i className="pi pi-circle-fill" aria-hidden="true" /> {label}{' '}
                <span className="muted">
                  CAN {l.bus}, source {address(l.source)}
                </span>
              </li>
            )),
          )}
        </ul>
      )}
      {faults.length === 0 ? (
        <p className="muted dg-empty">
          {lamps.length === 0 ? (
            'No J1939 fault report (DM1) received from this device.'
          ) : (
            <>
              No active faults in the last reports (newest <LocalTime ts={newest} />
              ).
            </>
          )}
        </p>
      ) : (
        <div className="data-table-wrap" tabIndex={0} role="region" aria-label="Active faults">
          <table className="data-table dg-table">
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Parameter</th>
                <th scope="col">Failure mode</th>
                <th scope="col">Source</th>
                <th scope="col">Count</th>
                <th scope="col">Reported</th>
              </tr>
            </thead>
            <tbody>
              {faults.map((f) => (
                <tr key={`${f.bus}:${f.source}:${f.code}`}>
                  <td data-label="Code" className="dg-code">
                    {f.code}
                  </td>
                  <td data-label="Parameter">{f.spnName}</td>
                  <td data-label="Failure mode">{f.fmiText}</td>
                  <td data-label="Source" className="dg-nowrap">
                    CAN {f.bus}, {address(f.source)}
                  </td>
                  <td data-label="Count" className="dg-num">
                    {f.occurrences ?? '---'}
                  </td>
                  <td data-label="Reported" className="dg-nowrap">
                    <LocalTime ts={f.ts} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The newest message's values and log lines. */
function LatestCard({ message }: { message: Message | undefined }) {
  const data = isRecord(message?.data) ? message.data : null;
  const values = data ? Object.entries(data).filter(([key, v]) => key !== 'ts' && scalar(v)) : [];
  const lines = data && Array.isArray(data.log) ? data.log.filter((l): l is string => typeof l === 'string') : [];
  return (
    <section className="card dg-card dg-latest" aria-labelledby="dg-latest-heading">
      <header className="dg-card__head">
        <h2 id="dg-latest-heading">Latest diagnostics</h2>
        {message && <LocalTime ts={message.ts} className="muted dg-when" />}
      </header>
      {!message ? (
        <p className="muted dg-empty">No Data Available</p>
      ) : (
        <>
          <dl className="dg-values">
            {values.map(([key, value]) => (
              <div key={key} className="dg-value">
                <dt>{key}</dt>
                <dd>{String(value)}</dd>
              </div>
            ))}
          </dl>
          {lines.length > 0 && (
            <>
              <h3 className="dg-subhead">Log</h3>
              <ul className="dg-log">
                {lines.map((line, i) => (
                  <li key={i}>{line}</li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </section>
  );
}

/** Every message received (the last 600): one column per value, log lines last. */
function HistoryCard({ messages, name }: { messages: Message[]; name: string }) {
  const [shown, setShown] = useState(HISTORY_STEP);
  const columns = useMemo(() => {
    const keys = new Set<string>();
    for (const m of messages)
      if (isRecord(m.data)) for (const [k, v] of Object.entries(m.data)) if (k !== 'ts' && scalar(v)) keys.add(k);
    return [...keys];
  }, [messages]);
  const cell = (m: Message, key: string) => {
    const v = isRecord(m.data) ? m.data[key] : undefined;
    return scalar(v) ? String(v) : '';
  };
  const logOf = (m: Message) =>
    isRecord(m.data) && Array.isArray(m.data.log) ? m.data.log.filter((l) => typeof l === 'string').join(' · ') : '';
  const exportCsv = () =>
    downloadBlob(
      csvBlob({
        columns: ['Time', ...columns, 'log'],
        rows: messages.map((m) => [new Date(m.ts * 1000).toISOString(), ...columns.map((c) => cell(m, c)), logOf(m)]),
      }),
      `${name}-diagnostics.csv`,
    );

  return (
    <section className="card dg-card dg-history" aria-labelledby="dg-history-heading">
      <header className="dg-card__head">
        <h2 id="dg-history-heading">Diagnostics history</h2>
        <span className="muted dg-count">{messages.length === 1 ? '1 message' : `${messages.length} messages`}</span>
        <Button
          type="button"
          label="Export CSV"
          icon="pi pi-download"
          className="p-button-text p-button-sm dg-head-action"
          disabled={messages.length === 0}
          onClick={exportCsv}
        />
      </header>
      {messages.length === 0 ? (
        <p className="muted dg-empty">No Data Available</p>
      ) : (
        <>
          <div className="dg-scroll" tabIndex={0} role="region" aria-label="Diagnostics messages">
            <table className="dg-history-table">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  {columns.map((c) => (
                    <th key={c} scope="col">
                      {c}
                    </th>
                  ))}
                  <th scope="col">log</th>
                </tr>
              </thead>
              <tbody>
                {messages.slice(0, shown).map((m, i) => (
                  <tr key={`${m.ts}:${i}`}>
                    <td className="dg-nowrap">
                      <LocalTime ts={m.ts} />
                    </td>
                    {columns.map((c) => (
                      <td key={c}>{cell(m, c)}</td>
                    ))}
                    <td className="dg-log-cell">{logOf(m)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {shown < messages.length && (
            <div className="dg-more">
              <Button
                type="button"
                label={`Show more (${Math.min(HISTORY_STEP, messages.length - shown)} of ${messages.length - shown})`}
                icon="pi pi-angle-down"
                className="p-button-text"
                onClick={() => setShown((n) => n + HISTORY_STEP)}
              />
            </div>
          )}
        </>
      )}
    </section>
  );
}

function BusCard({ groups }: { groups: DiagnosticsResponse['busMessages'] }) {
  return (
    <section className="card dg-card dg-bus" aria-labelledby="dg-bus-heading">
      <header className="dg-card__head">
        <h2 id="dg-bus-heading">Bus message groups</h2>
        <span className="muted dg-count">{groups.length === 1 ? '1 group' : `${groups.length} groups`}</span>
      </header>
      {groups.length === 0 ? (
        <p className="muted dg-empty">No J1939 traffic recorded on the device&apos;s CAN buses.</p>
      ) : (
        <div className="data-table-wrap" tabIndex={0} role="region" aria-label="Bus message groups">
          <table className="data-table dg-table">
            <thead>
              <tr>
                <th scope="col">Bus</th>
                <th scope="col">PGN</th>
                <th scope="col">Name</th>
                <th scope="col">Source</th>
                <th scope="col">Last heard</th>
              </tr>
            </thead>
            <tbody>
              {groups.map((g) => (
                <tr key={`${g.bus}:${g.pgn}:${g.source}`}>
                  <td data-label="Bus">CAN {g.bus}</td>
                  <td data-label="PGN" className="dg-num">
                    {g.pgn}
                  </td>
                  <td data-label="Name">{g.name}</td>
                  <td data-label="Source" className="dg-nowrap">
                    {address(g.source)}
                  </td>
                  <td data-label="Last heard" className="dg-nowrap">
                    <LocalTime ts={g.ts} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
