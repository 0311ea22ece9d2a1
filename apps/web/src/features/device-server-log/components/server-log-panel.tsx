/**
 * The Server Log page's content (spec 2 sections 2 and 6; SUB-25, SUB-26): what the server did
 * with and for the device, newest first, a kind at a time or all, 50 entries a page with older
 * ones on request, refreshed on request, exported as CSV as shown. Only a device ADMIN on a plan
 * with a server log reads it: anyone else sees the server's refusal (the page asks, the server
 * decides), with the way to plans when the plan is the reason.
 */
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { isServerLogUnavailableMessage, loadErrorDetail, upgradeLink } from '@portal/core';
import { RefreshButton } from '@/components/ui/refresh-button';
import { LabelledDropdown } from '@/components/ui/labelled-dropdown';
import { LocalTime } from '@/components/ui/local-time';
import { ApiError } from '@/lib/api';
import { brand } from '@/lib/brand';
import { csvBlob, downloadBlob } from '@/lib/download';
import { SERVER_LOG_PAGE, useServerLog, type ServerLogEntry } from '../api/get-server-log';
import './server-log.css';

/** The filter's 'All kinds' (a kind is letters, digits, _ and -, so never '*'; an empty value would show no label). */
const ALL_KINDS = '*';

export function ServerLogPanel({ deviceid, name }: { deviceid: string; name: string }) {
  const [kind, setKind] = useState(ALL_KINDS);
  const filtered = kind === ALL_KINDS ? null : kind;
  const log = useServerLog(deviceid, filtered);
  const entries = useMemo(() => log.data?.pages.flatMap((p) => p.entries) ?? [], [log.data]);
  // The kinds come with every page; keep the chosen one listed even if it has gone meanwhile.
  const kinds = log.data?.pages[0]?.kinds ?? (filtered ? [filtered] : []);
  const options = [
    { label: 'All kinds', value: ALL_KINDS },
    ...[...new Set([...kinds, ...(filtered ? [filtered] : [])])].map((k) => ({ label: k, value: k })),
  ];

  if (log.isError && !log.data) {
    const refused = log.error instanceof ApiError && log.error.status === 403;
    const message = loadErrorDetail(log.error);
    // Plans, or Support on a brand that hides Plans (DESIGN.md section 5).
    const upgrade = upgradeLink(brand, deviceid);
    return (
      <section className="card sl-state" role="alert">
        <i className={`pi ${refused ? 'pi-lock' : 'pi-exclamation-triangle'} sl-state__icon`} aria-hidden="true" />
        <p className="sl-state__message">{message}</p>
        {refused ? (
          isServerLogUnavailableMessage(message) ? (
            <Link className="p-button p-button-outlined" to={upgrade.to}>
              {upgrade.label}
            </Link>
          ) : (
            <p className="muted">Only the device&apos;s administrators read its server log.</p>
          )
        ) : (
          <Button type="button" label="Try again" className="p-button-outlined" onClick={() => void log.refetch()} />
        )}
      </section>
    );
  }

  const exportCsv = () => {
    const rows = entries.map((e) => [new Date(e.ts * 1000).toISOString(), e.kind, e.message]);
    const suffix = filtered ? `-${filtered}` : '';
    downloadBlob(csvBlob({ columns: ['Time', 'Kind', 'Message'], rows }), `${name}-server-log${suffix}.csv`);
  };

  return (
    <section className="card sl-panel" aria-labelledby="sl-heading">
      <div className="sl-toolbar">
        <h2 id="sl-heading" className="sl-heading">
          Server log
        </h2>
        <span className="muted sl-count" role="status">
          {log.isPending ? 'Loading…' : countText(entries.length, log.hasNextPage)}
        </span>
        <div className="sl-actions">
          <label className="sl-filter">
            <span>Kind</span>
            <LabelledDropdown
              value={kind}
              options={options}
              onChange={(e) => setKind(String(e.value ?? ALL_KINDS))}
              className="p-inputtext-sm"
              label="Kind"
              triggerLabel="Show the kinds"
            />
          </label>
          <RefreshButton fetching={log.isFetching && !log.isFetchingNextPage} onRefresh={() => void log.refetch()} />
          <Button
            type="button"
            label="Export CSV"
            icon="pi pi-download"
            className="p-button-text p-button-sm"
            disabled={entries.length === 0}
            onClick={exportCsv}
          />
        </div>
      </div>

      {log.isPending ? (
        <div className="sl-skeleton" role="status" aria-label="Loading the server log">
          {Array.from({ length: 6 }, (_, i) => (
            <div key={i} className="skeleton skeleton--label" />
          ))}
        </div>
      ) : entries.length === 0 ? (
        <p className="muted sl-empty">{filtered ? `No ${filtered} entries.` : 'Nothing logged for this device yet.'}</p>
      ) : (
        <div className="data-table-wrap">
          <table className="data-table sl-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Kind</th>
                <th scope="col">Message</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <LogRow key={entry.id} entry={entry} />
              ))}
            </tbody>
          </table>
        </div>
      )}

      {log.isFetchNextPageError && (
        <p className="sl-more-error" role="alert">
          {loadErrorDetail(log.error)}
        </p>
      )}
      {log.hasNextPage && (
        <div className="sl-more">
          <Button
            type="button"
            label={`Older entries (${SERVER_LOG_PAGE} more)`}
            icon="pi pi-angle-down"
            className="p-button-outlined p-button-sm"
            loading={log.isFetchingNextPage}
            onClick={() => void log.fetchNextPage()}
          />
        </div>
      )}
    </section>
  );
}

function countText(count: number, more: boolean): string {
  if (count === 0) return 'No entries';
  const shown = count === 1 ? '1 entry' : `${count} entries`;
  return more ? `${shown} shown, older ones below` : shown;
}

function LogRow({ entry }: { entry: ServerLogEntry }) {
  return (
    <tr>
      <td data-label="Time" className="sl-nowrap">
        <LocalTime ts={entry.ts} />
      </td>
      <td data-label="Kind">
        <span className="sl-kind">{entry.kind}</span>
      </td>
      <td data-label="Message" className="sl-message">
        {entry.message}
      </td>
    </tr>
  );
}
