/**
 * A view's widgets on react-grid-layout's responsive grid (spec 1 section 3 'View'): breakpoints
 * lg 992 / md 576 / sm 0 of the container's width, 12 / 6 / 4 columns, rows of 30.8 px, each
 * widget at its layout for the breakpoint, or at the height `heights` gives it (a table fitted to
 * its rows), the widgets below moving up to close the gap. Static unless `edit` is given (edit mode): then widgets
 * are dragged by their edit bar and resized by the corner handle (not tables), within minW/minH,
 * and each finished drag or resize hands the breakpoint's whole layout to `edit.onLayout`.
 */
import { memo, useCallback, useMemo, type ReactNode } from 'react';
import {
  Responsive,
  useContainerWidth,
  type EventCallback,
  type Layout,
  type ResponsiveLayouts,
} from 'react-grid-layout';
import { verticalCompactor } from 'react-grid-layout/core';
import 'react-grid-layout/css/styles.css';
import {
  GRID_BREAKPOINTS,
  GRID_BREAKPOINT_NAMES,
  GRID_COLS,
  GRID_ROW_HEIGHT,
  canResizeWidget,
  gridBreakpointFor,
  type GridBreakpoint,
  type GridPlacement,
  type View,
  type Widget,
} from '@portal/core';

/** Space between widgets and around the grid: the 8 px scale's 16. */
const MARGIN: readonly [number, number] = [16, 16];
const NO_PADDING: readonly [number, number] = [0, 0];
/** The part of a widget that drags it in edit mode, and what inside it does not. */
export const DRAG_HANDLE_CLASS = 'widget-edit-bar__drag';
const EDIT_DRAG = { enabled: true, handle: `.${DRAG_HANDLE_CLASS}`, cancel: 'button, a', threshold: 3 } as const;
const EDIT_RESIZE = { enabled: true, handles: ['se'] } as const;
const OFF = { enabled: false } as const;

/** Grid rows widgets are drawn at instead of their saved heights: by widget id, then breakpoint. */
export type WidgetHeights = Readonly<Record<string, Readonly<Record<GridBreakpoint, number>>>>;

export interface DashboardGridEdit {
  /** A drag or resize finished at breakpoint `bp`: the grid's layout there (every widget's place). */
  onLayout: (bp: GridBreakpoint, layout: readonly GridPlacement[]) => void;
  /** The edit bar above a widget (drag handle, keyboard moves, Edit, Remove). */
  renderTools: (id: string, widget: Widget, bp: GridBreakpoint) => ReactNode;
}

export interface DashboardGridProps {
  /** The view's widgets (in edit mode, the ones being edited). */
  widgets: View['widgets'];
  /** Draws one widget (the card with its content). */
  renderWidget: (id: string, widget: Widget) => ReactNode;
  /** Edit mode; absent, nothing can be moved, resized or removed. */
  edit?: DashboardGridEdit | undefined;
  /** Out of edit mode: grid rows a widget is drawn at instead of its saved height (by widget id, then breakpoint). */
  heights?: WidgetHeights | undefined;
}

interface WidgetSlotProps {
  id: string;
  widget: Widget;
  render: DashboardGridProps['renderWidget'];
}

/** Same kind and settings (as saved: small documents), whatever the layouts. */
function sameContent(a: Widget, b: Widget): boolean {
  return a.type === b.type && (a.settings === b.settings || JSON.stringify(a.settings) === JSON.stringify(b.settings));
}

/**
 * One widget's content, drawn again only when the drawing function or the widget's kind or
 * settings change: a drop or a resize changes layouts, and must not redraw the table, the map and
 * every chart (the grid moves and sizes the card itself).
 */
const WidgetSlot = memo(
  function WidgetSlot({ id, widget, render }: WidgetSlotProps) {
    return render(id, widget);
  },
  (a, b) => a.id === b.id && a.render === b.render && sameContent(a.widget, b.widget),
);

/**
 * The widgets' layouts per breakpoint, in reading order (top to bottom, left to right). Out of
 * edit mode a widget in `heights` takes that height, and the layout is packed upwards as the grid
 * packs it (its items are static, which the grid itself leaves where they are).
 */
export function viewLayouts(
  widgets: View['widgets'],
  editing = false,
  heights: WidgetHeights = {},
): ResponsiveLayouts<GridBreakpoint> {
  const entries = Object.entries(widgets);
  const at = (bp: GridBreakpoint): Layout => {
    if (editing) {
      return entries
        .map(([id, widget]) => ({ i: id, ...widget.layouts[bp], isResizable: canResizeWidget(widget.type) }))
        .sort((a, b) => a.y - b.y || a.x - b.x);
    }
    const placed = entries.map(([id, widget]) => ({
      i: id,
      ...widget.layouts[bp],
      h: heights[id]?.[bp] ?? widget.layouts[bp].h,
    }));
    return verticalCompactor
      .compact(placed, GRID_COLS[bp])
      .map((item) => ({ ...item, static: true }))
      .sort((a, b) => a.y - b.y || a.x - b.x);
  };
  return Object.fromEntries(GRID_BREAKPOINT_NAMES.map((bp) => [bp, at(bp)])) as ResponsiveLayouts<GridBreakpoint>;
}

export function DashboardGrid({ widgets, renderWidget, edit, heights }: DashboardGridProps) {
  const { width, containerRef, mounted } = useContainerWidth({ measureBeforeMount: true });
  const editing = edit !== undefined;
  const layouts = useMemo(() => viewLayouts(widgets, editing, heights), [widgets, editing, heights]);
  // The spec's breakpoints are minimum widths (lg from 992); react-grid-layout's own choice
  // starts a breakpoint one pixel later, so the grid is told which one applies.
  const bp = gridBreakpointFor(width);
  // Children in the order of the layout shown, so keyboard and reading order follow the screen.
  const ordered = useMemo(
    () => layouts[bp]?.map((item) => [item.i, widgets[item.i]] as const) ?? [],
    [layouts, bp, widgets],
  );
  const onLayout = edit?.onLayout;
  const stop = useCallback<EventCallback>(
    (layout) =>
      onLayout?.(
        bp,
        layout.map(({ i, x, y, w, h }) => ({ i, x, y, w, h })),
      ),
    [onLayout, bp],
  );
  return (
    <div ref={containerRef} className={`dashboard-grid${editing ? ' dashboard-grid--editing' : ''}`}>
      {mounted && (
        <Responsive
          width={width}
          breakpoint={bp}
          breakpoints={GRID_BREAKPOINTS}
          cols={GRID_COLS}
          rowHeight={GRID_ROW_HEIGHT}
          layouts={layouts}
          margin={MARGIN}
          containerPadding={NO_PADDING}
          dragConfig={editing ? EDIT_DRAG : OFF}
          resizeConfig={editing ? EDIT_RESIZE : OFF}
          onDragStop={stop}
          onResizeStop={stop}
        >
          {ordered.map(([id, widget]) =>
            widget ? (
              <div key={id} className="dashboard-grid__item" data-widget-id={id}>
                {edit?.renderTools(id, widget, bp)}
                <WidgetSlot id={id} widget={widget} render={renderWidget} />
              </div>
            ) : null,
          )}
        </Responsive>
      )}
    </div>
  );
}
