/**
 * A view's dashboard: the read-only grid, or in edit mode (Edit Widgets) the dashboard editor, a
 * lazy chunk loaded when a member who may edit first enters edit mode. While it loads, the grid
 * shows as it was.
 */
import { Suspense, lazy, type ReactNode } from 'react';
import type { View, Widget } from '@portal/core';
import { DashboardGrid } from './dashboard-grid';

const DashboardEditor = lazy(() => import('./dashboard-editor'));

export interface ViewDashboardProps {
  groupid: string;
  view: View;
  /** Edit mode (Edit Widgets); only for members who may edit views. */
  editing: boolean;
  renderWidget: (id: string, widget: Widget) => ReactNode;
}

export function ViewDashboard({ groupid, view, editing, renderWidget }: ViewDashboardProps) {
  const grid = <DashboardGrid widgets={view.widgets} renderWidget={renderWidget} />;
  if (!editing) return grid;
  return (
    <Suspense fallback={grid}>
      <DashboardEditor groupid={groupid} view={view} renderWidget={renderWidget} />
    </Suspense>
  );
}
