/**
 * A view's widgets on react-grid-layout's responsive grid (spec 1 section 3 'View'): breakpoints
 * lg 992 / md 576 / sm 0 of the container's width, 12 / 6 / 4 columns, rows of 30.8 px, each
 * widget at its layout for the breakpoint. Not editable yet: no dragging, no resizing.
 */
import { useMemo, type ReactNode } from 'react';
import { Responsive, useContainerWidth, type Layout, type ResponsiveLayouts } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import {
  GRID_BREAKPOINTS,
  GRID_BREAKPOINT_NAMES,
  GRID_COLS,
  GRID_ROW_HEIGHT,
  type GridBreakpoint,
  type View,
  type Widget,
} from '@portal/core';

/** Space between widgets and around the grid: the 8 px scale's 16. */
const MARGIN: readonly [number, number] = [16, 16];
const NO_PADDING: readonly [number, number] = [0, 0];

export interface DashboardGridProps {
  view: View;
  /** Draws one widget (the card with its content). */
  renderWidget: (id: string, widget: Widget) => ReactNode;
}

/** The view's layouts per breakpoint, in reading order (top to bottom, left to right). */
export function viewLayouts(view: View): ResponsiveLayouts<GridBreakpoint> {
  const entries = Object.entries(view.widgets);
  const at = (bp: GridBreakpoint): Layout =>
    entries
      .map(([id, widget]) => ({ i: id, ...widget.layouts[bp], static: true }))
      .sort((a, b) => a.y - b.y || a.x - b.x);
  return Object.fromEntries(GRID_BREAKPOINT_NAMES.map((bp) => [bp, at(bp)])) as ResponsiveLayouts<GridBreakpoint>;
}

export function DashboardGrid({ view, renderWidget }: DashboardGridProps) {
  const { width, containerRef, mounted } = useContainerWidth({ measureBeforeMount: true });
  const layouts = useMemo(() => viewLayouts(view), [view]);
  // Children in the order of the lg layout, so keyboard and reading order follow the screen.
  const ordered = useMemo(
    () => layouts.lg?.map((item) => [item.i, view.widgets[item.i]] as const) ?? [],
    [layouts, view.widgets],
  );
  return (
    <div ref={containerRef} className="dashboard-grid">
      {mounted && (
        <Responsive
          width={width}
          breakpoints={GRID_BREAKPOINTS}
          cols={GRID_COLS}
          rowHeight={GRID_ROW_HEIGHT}
          layouts={layouts}
          margin={MARGIN}
          containerPadding={NO_PADDING}
          dragConfig={{ enabled: false }}
          resizeConfig={{ enabled: false }}
        >
          {ordered.map(([id, widget]) =>
            widget ? (
              <div key={id} className="dashboard-grid__item">
                {renderWidget(id, widget)}
              </div>
            ) : null,
          )}
        </Responsive>
      )}
    </div>
  );
}
