/**
 * A view's dashboard: the read-only grid, or in edit mode (Edit Widgets) the dashboard editor, a
 * lazy chunk loaded when a member who may edit first enters edit mode. While it loads, the grid
 * shows as it was.
 */
import { Suspense, lazy, type ReactNode } from 'react';
import type { View, Widget } from '@portal/core';
import { DashboardGrid, type WidgetHeights } from './dashboard-grid';

const DashboardEditor = lazy(() => import('./dashboard-editor'));

export interface ViewDashboardProps {
  groupid: string;
  view: View;
  /** Edit mode (Edit Widgets); only for members who may edit views. */
  editing: boolean;
  renderWidget: (id: string, widget: Widget) => ReactNode;
  /** Out of edit mode: grid rows a widget is drawn at instead of its saved height (a table fitted to its rows). */
  heights?: WidgetHeights | undefined;
}

export function ViewDashboard({ groupid, view, editing, renderWidget, heights }: ViewDashboardProps) {
  const grid = <DashboardGrid widgets={view.widgets} renderWidget={renderWidget} heights={heights} />;
  if (!editing) return grid;
  return (
    <Suspense fallback={grid}>
      <DashboardEditor groupid={groupid} view={view} renderWidget={renderWidget} />
    </Suspense>
  );
}
