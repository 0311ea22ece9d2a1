/**
 * Keyboard moves and resizes of one widget (edit mode), through react-grid-layout's own collision
 * handling and vertical compaction, the same as a drag or a resize with the mouse: the grid's
 * layout at the breakpoint after one step, for the same update a drop makes.
 */
import { cloneLayout, getLayoutItem, moveElement, verticalCompactor, type LayoutItem } from 'react-grid-layout/core';
import {
  GRID_COLS,
  steppedLayout,
  type GridBreakpoint,
  type GridPlacement,
  type LayoutStep,
  type ViewWidgets,
} from '@portal/core';

const overlapsColumns = (a: LayoutItem, b: LayoutItem) => a.x < b.x + b.w && b.x < a.x + a.w;

/**
 * The layout at `bp` after one keyboard `step` of widget `id`, or null when it changes nothing.
 * Left, right and the resizes go one cell (core `steppedLayout`, within the columns and minW/minH);
 * up and down swap the widget with its nearest neighbour above or below (the grid packs widgets
 * upwards, so one row up would fall straight back).
 */
export function steppedGridLayout(
  widgets: ViewWidgets,
  bp: GridBreakpoint,
  id: string,
  step: LayoutStep,
): GridPlacement[] | null {
  const cols = GRID_COLS[bp];
  const shown = verticalCompactor.compact(
    Object.entries(widgets).map(([i, w]) => ({ i, ...w.layouts[bp] })),
    cols,
  );
  const layout = cloneLayout(shown);
  const item = getLayoutItem(layout, id);
  const widget = widgets[id];
  if (!item || !widget) return null;
  let moved: LayoutItem[] = layout;
  if (step === 'up' || step === 'down') {
    const up = step === 'up';
    const neighbours = layout.filter(
      (o) => o.i !== id && overlapsColumns(o, item) && (up ? o.y + o.h <= item.y : o.y >= item.y + item.h),
    );
    if (neighbours.length === 0) return null;
    const nearest = neighbours.reduce((best, o) =>
      up ? (o.y + o.h > best.y + best.h ? o : best) : o.y < best.y ? o : best,
    );
    moved = up
      ? moveElement(layout, item, item.x, nearest.y, true, false, 'vertical', cols)
      : moveElement(layout, nearest, nearest.x, item.y, true, false, 'vertical', cols);
  } else {
    const next = steppedLayout({ type: widget.type, layouts: { ...widget.layouts, [bp]: item } }, bp, step);
    if (!next) return null;
    if (next.x !== item.x) moved = moveElement(layout, item, next.x, item.y, true, false, 'vertical', cols);
    else Object.assign(item, { w: next.w, h: next.h });
  }
  const result = verticalCompactor.compact(moved, cols).map(({ i, x, y, w, h }) => ({ i, x, y, w, h }));
  const before = new Map(shown.map((o) => [o.i, o]));
  const same = result.every((o) => {
    const b = before.get(o.i);
    return b && b.x === o.x && b.y === o.y && b.w === o.w && b.h === o.h;
  });
  return same ? null : result;
}
