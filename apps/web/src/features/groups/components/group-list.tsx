import { Link } from 'react-router';
import type { GroupSummary } from '../api/get-groups';

/** The user's groups, each leading to its dashboard. */
export function GroupList({ groups }: { groups: readonly GroupSummary[] }) {
  return (
    <section className="card group-list" aria-labelledby="group-list-title">
      <header className="card__header">
        <h2 id="group-list-title" className="card__title">
          Your groups
        </h2>
        <span className="badge" aria-label={`${groups.length} groups`}>
          {groups.length}
        </span>
      </header>
      <ul className="group-list__items">
        {groups.map((group) => (
          <li key={group.groupid}>
            <Link to={`/group/${encodeURIComponent(group.groupid)}`} className="group-list__link">
              <i className="pi pi-th-large" aria-hidden="true" />
              <span className="group-list__name">{group.groupName}</span>
              <span className="group-list__id">{group.groupid}</span>
              <i className="pi pi-angle-right group-list__chevron" aria-hidden="true" />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Placeholder rows shaped like the list while it loads. */
export function GroupListSkeleton() {
  return (
    <section className="card group-list" aria-busy="true" aria-label="Loading groups">
      <header className="card__header">
        <div className="skeleton skeleton--title" />
      </header>
      <ul className="group-list__items">
        {[0, 1, 2].map((row) => (
          <li key={row} className="group-list__skeleton-row">
            <div className="skeleton skeleton--row" />
          </li>
        ))}
      </ul>
    </section>
  );
}
