import { loadErrorDetail } from '@portal/core';
import { LocalTime } from '@/components/ui/local-time';
import { RefreshButton } from '@/components/ui/refresh-button';
import { useGroupServerLog } from '../api/get-group-server-log';
import { TabError, TableSkeleton } from './tab-states';

/** The Server Log tab (ADMIN): every change to the group and who made it, newest first. */
export function ServerLogTab({ groupid }: { groupid: string }) {
  const log = useGroupServerLog(groupid, true);

  if (log.isPending) return <TableSkeleton label="Loading the server log" rows={5} />;
  if (log.isError) return <TabError message={loadErrorDetail(log.error)} onRetry={() => void log.refetch()} />;

  return (
    <div className="gs-tab">
      <div className="gs-log-toolbar">
        <span className="muted">
          {log.data.entries.length === 1 ? '1 entry' : `${log.data.entries.length} entries`}
        </span>
        <RefreshButton fetching={log.isFetching} onRefresh={() => void log.refetch()} />
      </div>
      {log.data.entries.length === 0 ? (
        <p className="muted gs-empty">No changes logged yet.</p>
      ) : (
        <div className="data-table-wrap">
          <table className="data-table gs-table gs-table--log">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">User</th>
                <th scope="col">Change</th>
              </tr>
            </thead>
            <tbody>
              {log.data.entries.map((entry) => {
                return (
                  <tr key={entry.id}>
                    <td data-label="Time" className="gs-nowrap">
                      <LocalTime ts={entry.ts} />
                    </td>
                    <td data-label="User" className="gs-break">
                      {entry.user}
                    </td>
                    <td data-label="Change" className="gs-break">
                      {entry.message}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
