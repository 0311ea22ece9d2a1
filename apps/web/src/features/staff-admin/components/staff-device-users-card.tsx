/**
 * The staff device page's users card (STAFF-12): every user of the device with their role and
 * where it comes from (direct or through a group), and the groups the device is in.
 */
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import type { StaffDeviceResponse } from '@portal/core';

/** The users of the device with their roles and sources, and its groups. */
export function StaffDeviceUsersCard({ data }: { data: StaffDeviceResponse }) {
  return (
    <section className="card staff-card" aria-labelledby="staff-users">
      <h2 id="staff-users" className="card__title">
        Users <span className="badge">{data.users.length}</span>
      </h2>
      {data.users.length === 0 ? (
        <p className="staff-muted">Nobody has added this device yet.</p>
      ) : (
        <DataTable
          value={data.users}
          dataKey="userId"
          size="small"
          scrollable
          // The table scrolls sideways on a phone: its wrapper takes keyboard focus to scroll it.
          pt={{
            table: { 'aria-label': 'Users of the device' },
            wrapper: { tabIndex: 0, role: 'region', 'aria-label': 'Users of the device' },
          }}
          tableStyle={{ minWidth: '36rem' }}
        >
          <Column header="E-mail" field="email" frozen className="staff-cell-strong" />
          <Column
            header="Role"
            body={(u: StaffDeviceResponse['users'][number]) => (u.role === 'ADMIN' ? 'ADMIN (owner)' : u.role)}
          />
          <Column
            header="Through"
            body={(u: StaffDeviceResponse['users'][number]) =>
              u.sources
                .map((s) =>
                  s.kind === 'direct' ? `Direct ${s.role}` : `Group ${s.groupName ?? s.groupid} (${s.role})`,
                )
                .join(', ')
            }
          />
        </DataTable>
      )}
      <h3 className="staff-subtitle">Groups</h3>
      {data.groups.length === 0 ? (
        <p className="staff-muted">In no group.</p>
      ) : (
        <ul className="staff-plain-list">
          {data.groups.map((g) => (
            <li key={g.groupid}>
              <strong>{g.groupName}</strong> <span className="staff-id">{g.groupid}</span> · {g.members} member
              {g.members === 1 ? '' : 's'}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
