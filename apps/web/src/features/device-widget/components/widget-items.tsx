/**
 * The pieces of a widget card (spec 2 sections 2 and 3): a status or level indicator and a text,
 * each drawn at its place on the card from what core works out (indicatorView, renderTemplate).
 * The same pieces draw the card on the Data page and in the editor, where they are also
 * focusable and draggable (the editor passes its handlers in `itemProps`).
 */
import type { CSSProperties, HTMLAttributes, Ref } from 'react';
import {
  WIDGET_DEFAULT_COLOURS,
  WIDGET_ITEM_NAMES,
  indicatorSize,
  type IndicatorView,
  type TemplatePart,
  type WidgetComponent,
  type WidgetElement,
} from '@portal/core';

export type ItemProps = HTMLAttributes<HTMLDivElement> & { ref?: Ref<HTMLDivElement> };

const STATE_WORDS = { normal: 'normal', warning: 'warning', alarm: 'alarm' } as const;

/** What a screen reader hears for an indicator: its kind, key, value and state. */
export function indicatorLabel(element: WidgetElement, view: IndicatorView): string {
  const what = `${WIDGET_ITEM_NAMES[element.active]}${view.name ? ` ${view.name}` : ''}`;
  const value = `${view.text}${view.units ? ` ${view.units}` : ''}`;
  const state = view.stale ? ', last known value' : view.state ? `, ${STATE_WORDS[view.state]}` : '';
  return `${what}: ${value}${state}`;
}

/** Where a level indicator's fill starts: rotation 0 fills upwards, 90 from the left, 180 downwards. */
function fillStyle(rotation: number, fraction: number, colour: string): CSSProperties {
  const size = `${Math.round(fraction * 1000) / 10}%`;
  if (rotation === 90) return { left: 0, top: 0, bottom: 0, width: size, background: colour };
  if (rotation === 180) return { left: 0, right: 0, top: 0, height: size, background: colour };
  return { left: 0, right: 0, bottom: 0, height: size, background: colour };
}

export function IndicatorItem({
  element,
  view,
  at = element,
  itemProps,
  className = '',
}: {
  element: WidgetElement;
  view: IndicatorView;
  /** Where it is drawn (the element's place, or where a drag has it now). */
  at?: { x: number; y: number };
  itemProps?: ItemProps;
  className?: string;
}) {
  const s = element.settings;
  const { width, height } = indicatorSize(element);
  const level = element.active === 'levelIndicator';
  const border = s.borderThickness
    ? `${s.borderThickness}px solid ${s.borderColor ?? WIDGET_DEFAULT_COLOURS.border}`
    : 'none';
  const shape: CSSProperties = {
    borderRadius: s.radius ?? 0,
    border,
    boxShadow: s.shadow ? '0 2px 6px rgba(16, 24, 40, 0.35)' : undefined,
    background: level ? (s.backgroundColor ?? WIDGET_DEFAULT_COLOURS.levelTrack) : view.colour,
  };
  const fontSize = Math.max(10, Math.min(16, Math.round(Math.min(width, height) / 4)));
  return (
    <div
      role="img"
      aria-label={indicatorLabel(element, view)}
      title={indicatorLabel(element, view)}
      {...itemProps}
      className={`wc-item wc-indicator wc-indicator--${level ? 'level' : 'status'} ${className}`}
      style={{ left: at.x, top: at.y, width, height }}
      data-state={view.state ?? 'none'}
      data-colour={view.colour}
    >
      <div className="wc-indicator__shape" style={shape}>
        {level && <div className="wc-indicator__fill" style={fillStyle(s.rotation, view.fraction, view.colour)} />}
      </div>
      <span className="wc-indicator__value" style={{ fontSize }} aria-hidden="true">
        {view.text}
        {view.units && <span className="wc-indicator__units"> {view.units}</span>}
      </span>
    </div>
  );
}

export function TextItem({
  component,
  parts,
  at = component,
  itemProps,
  className = '',
}: {
  component: WidgetComponent;
  parts: readonly TemplatePart[];
  at?: { x: number; y: number };
  itemProps?: ItemProps;
  className?: string;
}) {
  const s = component.settings;
  return (
    <div
      {...itemProps}
      className={`wc-item wc-text ${className}`}
      style={{
        left: at.x,
        top: at.y,
        fontSize: s.fontSize,
        fontWeight: s.bold ? 700 : 400,
        textDecoration: s.underline ? 'underline' : undefined,
        color: s.colour ?? WIDGET_DEFAULT_COLOURS.text,
      }}
    >
      {parts.length === 0 && itemProps ? (
        <span className="wc-text__empty">{WIDGET_ITEM_NAMES.text}</span>
      ) : (
        parts.map((part, i) => (
          <span
            key={i}
            style={part.colour ? { color: part.colour } : undefined}
            data-ref={part.ref}
            data-state={part.state}
            data-stale={part.stale ? 'true' : undefined}
          >
            {part.text}
          </span>
        ))
      )}
    </div>
  );
}
