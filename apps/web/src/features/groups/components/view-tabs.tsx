import { Link } from 'react-router';
import type { View } from '@portal/core';
import './home.css';

export interface ViewTabsProps {
  groupid: string;
  views: readonly View[];
  /** The view shown. */
  activeViewid: string;
}

/**
 * One tab per view of the group (spec 1 section 2 'Group view'), each a link to
 * /group/{groupid}/{viewid}, and the Group Settings button (GRP-09) at the end of the row.
 */
export function ViewTabs({ groupid, views, activeViewid }: ViewTabsProps) {
  const group = encodeURIComponent(groupid);
  return (
    <div className="view-tabs">
      <nav className="view-tabs__list" aria-label="Views">
        {views.map((view) => {
          const active = view.viewid === activeViewid;
          return (
            <Link
              key={view.viewid}
              to={`/group/${group}/${encodeURIComponent(view.viewid)}`}
              className={`view-tabs__tab${active ? ' view-tabs__tab--active' : ''}`}
              aria-current={active ? 'page' : undefined}
            >
              {view.name}
            </Link>
          );
        })}
      </nav>
      <Link to={`/group/${group}/settings`} className="p-button p-button-text view-tabs__settings">
        <i className="pi pi-cog" aria-hidden="true" />
        <span>Group Settings</span>
      </Link>
    </div>
  );
}
