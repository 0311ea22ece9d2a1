/**
 * The editor's drawing of a widget card (WGT-01, WGT-12): every item can be selected, dragged with
 * the mouse, a finger or a pen (pointer events), and moved with the arrow keys (one grid step,
 * ten with Shift), landing on the 5 px grid when the card snaps to it (core placeItem,
 * moveByKey). Hidden items show faintly. The drag follows the pointer and is given up once, on
 * release.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import {
  WIDGET_ITEM_NAMES,
  WIDGET_SNAP_GRID_PX,
  indicatorView,
  moveByKey,
  placeItem,
  renderTemplate,
  type WidgetCard,
  type WidgetContext,
} from '@portal/core';
import { useFitScale } from '../hooks/use-fit-scale';
import { WidgetSurface } from './widget-drawing';
import { IndicatorItem, TextItem, indicatorLabel, type ItemProps } from './widget-items';

interface Drag {
  id: string;
  pointerId: number;
  startX: number;
  startY: number;
  from: { x: number; y: number };
  size: { width: number; height: number };
  at: { x: number; y: number };
}

export interface WidgetCanvasProps {
  card: WidgetCard;
  ctx: WidgetContext;
  imageSrc: string | null;
  selectedId: string | null;
  /** An item to give the keyboard focus to (a new one), once. */
  focusId: string | null;
  onFocused: () => void;
  onSelect: (id: string | null) => void;
  onMove: (id: string, at: { x: number; y: number }) => void;
}

export function WidgetCanvas({
  card,
  ctx,
  imageSrc,
  selectedId,
  focusId,
  onFocused,
  onSelect,
  onMove,
}: WidgetCanvasProps) {
  const { ref, scale } = useFitScale<HTMLDivElement>(card.width);
  const [drag, setDrag] = useState<Drag | null>(null);
  const items = useRef(new Map<string, HTMLDivElement>());

  useEffect(() => {
    if (focusId === null) return;
    const element = items.current.get(focusId);
    if (element) {
      element.focus();
      onFocused();
    }
  }, [focusId, onFocused]);

  const keep = (id: string) => (element: HTMLDivElement | null) => {
    if (element) items.current.set(id, element);
    else items.current.delete(id);
  };

  const sizeOf = (element: HTMLElement) => ({ width: element.offsetWidth, height: element.offsetHeight });

  const handlers = (id: string, at: { x: number; y: number }, label: string): ItemProps => ({
    ref: keep(id),
    role: 'button',
    tabIndex: 0,
    'aria-label': `${label}, at ${at.x}, ${at.y}. Arrow keys move it ${card.snapToGrid ? WIDGET_SNAP_GRID_PX : 1} px, Shift with them ten times as far.`,
    'aria-pressed': selectedId === id,
    title: undefined,
    onPointerDown: (e: PointerEvent<HTMLDivElement>) => {
      if (e.button !== 0) return;
      e.preventDefault();
      e.currentTarget.focus();
      e.currentTarget.setPointerCapture(e.pointerId);
      onSelect(id);
      setDrag({
        id,
        pointerId: e.pointerId,
        startX: e.clientX,
        startY: e.clientY,
        from: at,
        size: sizeOf(e.currentTarget),
        at,
      });
    },
    onPointerMove: (e: PointerEvent<HTMLDivElement>) => {
      if (!drag || drag.id !== id || drag.pointerId !== e.pointerId) return;
      const next = placeItem(
        { x: drag.from.x + (e.clientX - drag.startX) / scale, y: drag.from.y + (e.clientY - drag.startY) / scale },
        drag.size,
        card,
        card.snapToGrid,
      );
      if (next.x !== drag.at.x || next.y !== drag.at.y) setDrag({ ...drag, at: next });
    },
    onPointerUp: (e: PointerEvent<HTMLDivElement>) => {
      if (!drag || drag.id !== id || drag.pointerId !== e.pointerId) return;
      setDrag(null);
      if (drag.at.x !== drag.from.x || drag.at.y !== drag.from.y) onMove(id, drag.at);
    },
    onPointerCancel: () => setDrag(null),
    onFocus: () => onSelect(id),
    onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => {
      const next = moveByKey(e.key, e.shiftKey, at, sizeOf(e.currentTarget), card);
      if (next === null) return;
      e.preventDefault();
      if (next.x !== at.x || next.y !== at.y) onMove(id, next);
    },
  });

  const classes = (id: string, hidden: boolean) =>
    [
      'wc-item--editable',
      selectedId === id ? 'wc-item--selected' : '',
      drag?.id === id ? 'wc-item--dragging' : '',
      hidden ? 'wc-item--hidden' : '',
    ].join(' ');

  const placed = (id: string, at: { x: number; y: number }) => (drag?.id === id ? drag.at : at);

  return (
    <div ref={ref} className={`wc-fit wc-canvas${card.snapToGrid ? ' wc-canvas--grid' : ''}`}>
      <WidgetSurface
        card={card}
        imageSrc={imageSrc}
        scale={scale}
        label={`${card.name?.trim() || 'Widget'}: the card being edited`}
      >
        {/* A press on the card itself (not an item) leaves the selection: the widget's own settings show. */}
        <div className="wc-canvas__ground" aria-hidden="true" onPointerDown={() => onSelect(null)} />
        {card.elements.map((e) => {
          const at = placed(e.id, e);
          const view = indicatorView(e, card, ctx);
          return (
            <IndicatorItem
              key={e.id}
              element={e}
              view={view}
              at={at}
              className={classes(e.id, e.settings.displayType === 'hide')}
              itemProps={handlers(e.id, at, indicatorLabel(e, view))}
            />
          );
        })}
        {card.components.map((c) => {
          const at = placed(c.id, c);
          const parts = renderTemplate(c.template, card, ctx);
          return (
            <TextItem
              key={c.id}
              component={c}
              parts={parts}
              at={at}
              className={classes(c.id, c.settings.displayType === 'hide')}
              // The name holds the text as shown (WCAG 2.5.3, label in name).
              itemProps={handlers(
                c.id,
                at,
                `${WIDGET_ITEM_NAMES.text}: ${parts.map((p) => p.text).join('') || '(empty)'}`,
              )}
            />
          );
        })}
      </WidgetSurface>
    </div>
  );
}
