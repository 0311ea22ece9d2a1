import { Link } from 'react-router';
import type { View } from '@portal/core';
import './home.css';

export interface ViewTabsProps {
  groupid: string;
  /** The group's views by sortOrder. */
  views: readonly View[];
  /** The view shown. */
  activeViewid: string;
  /** The shown view's range as text ('7 days', '1 May 10:00 – 8 May 10:00'). */
  rangeLabel: string;
  /** Opens the View Range dialog. */
  onViewRange: () => void;
  /** For members who may edit views (ADMIN, USER): the Add New View and View Settings dialogs. */
  onAddView?: (() => void) | undefined;
  onViewSettings?: (() => void) | undefined;
  /** For members who may edit views: Edit Widgets / Exit Edit toggles edit mode. */
  onToggleEdit?: (() => void) | undefined;
  /** Whether the dashboard is in edit mode (the toggle reads Exit Edit). */
  editing?: boolean | undefined;
}

/**
 * One tab per view of the group (spec 1 section 2 'Group view'), each a link to
 * /group/{groupid}/{viewid}; for editors a + tab (Add New View). At the end of the row the View
 * Range button (showing the range), Edit Widgets / Exit Edit and View Settings (editors) and the
 * Group Settings link (GRP-09).
 */
export function ViewTabs({
  groupid,
  views,
  activeViewid,
  rangeLabel,
  onViewRange,
  onAddView,
  onViewSettings,
  onToggleEdit,
  editing = false,
}: ViewTabsProps) {
  const group = encodeURIComponent(groupid);
  return (
    <div className="view-tabs">
      <div className="view-tabs__row">
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
        {onAddView && (
          <button
            type="button"
            className="view-tabs__add"
            onClick={onAddView}
            aria-label="Add New View"
            title="Add New View"
          >
            <i className="pi pi-plus" aria-hidden="true" />
          </button>
        )}
      </div>
      <div className="view-tabs__actions">
        <button
          type="button"
          className="p-button p-button-text view-tabs__action"
          onClick={onViewRange}
          aria-haspopup="dialog"
        >
          <i className="pi pi-calendar" aria-hidden="true" />
          <span className="visually-hidden">View Range: </span>
          <span>{rangeLabel}</span>
        </button>
        {onToggleEdit && (
          <button
            type="button"
            className={`p-button view-tabs__action view-tabs__edit${editing ? '' : ' p-button-text'}`}
            onClick={onToggleEdit}
          >
            <i className={`pi ${editing ? 'pi-check' : 'pi-pencil'}`} aria-hidden="true" />
            <span>{editing ? 'Exit Edit' : 'Edit Widgets'}</span>
          </button>
        )}
        {onViewSettings && (
          <button
            type="button"
            className="p-button p-button-text view-tabs__action"
            onClick={onViewSettings}
            aria-haspopup="dialog"
          >
            <i className="pi pi-sliders-h" aria-hidden="true" />
            <span>View Settings</span>
          </button>
        )}
        <Link to={`/group/${group}/settings`} className="p-button p-button-text view-tabs__action">
          <i className="pi pi-cog" aria-hidden="true" />
          <span>Group Settings</span>
        </Link>
      </div>
    </div>
  );
}
