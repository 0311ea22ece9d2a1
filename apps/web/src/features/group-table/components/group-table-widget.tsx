/**
 * The group table widget (spec 2 sections 2 and 3): the group's devices in a PrimeReact DataTable.
 */
import type { JSX } from 'react';
import { DataTable } from 'primereact/datatable';
import { Column } from 'primereact/column';
import type { GroupDataDevice, TableSettings } from '@portal/core';

export interface GroupTableWidgetProps {
  settings: TableSettings;
  devices: readonly GroupDataDevice[];
  loading: boolean;
  fetching: boolean;
  error: string | null;
  updatedAt: number;
  refreshIntervalMs: number;
  onRefresh: () => void;
}

export function GroupTableWidget(props: GroupTableWidgetProps): JSX.Element {
  const { settings, devices, loading, error } = props;
  if (error) return <p role="alert">{error}</p>;
  return (
    <DataTable
      value={devices as GroupDataDevice[]}
      loading={loading}
      dataKey="deviceid"
      paginator
      rows={settings.pageSize ?? 10}
    >
      {settings.columns.map((c) => (
        <Column
          key={c.key}
          header={c.name}
          body={(d: GroupDataDevice) => {
            const v = (d as unknown as Record<string, unknown>)[c.key] ?? d.values[c.key]?.v;
            return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
          }}
        />
      ))}
    </DataTable>
  );
}

export default GroupTableWidget;
