/**
 * A widget card drawn (spec 2 sections 2 and 3; WGT-01, WGT-05, WGT-13 - WGT-15): its background
 * colour, its image when image.imageIsActive, then its indicators and texts at their places, from
 * the device's values (core indicatorView and renderTemplate). Drawn at the card's own size and
 * scaled down to fit the width it is given.
 */
import type { ReactNode } from 'react';
import {
  WIDGET_DEFAULT_COLOURS,
  indicatorView,
  renderTemplate,
  type WidgetCard,
  type WidgetContext,
} from '@portal/core';
import { useFitScale } from '../hooks/use-fit-scale';
import { IndicatorItem, TextItem } from './widget-items';
import './device-widget.css';

/** The card's ground: its size, background colour and (when active) image; the items on top. */
export function WidgetSurface({
  card,
  imageSrc,
  scale,
  label,
  children,
  className = '',
}: {
  card: WidgetCard;
  imageSrc: string | null;
  scale: number;
  /** The drawing's accessible name (role group). */
  label: string;
  children: ReactNode;
  className?: string;
}) {
  const showImage = Boolean(card.image?.imageIsActive && imageSrc);
  return (
    <div className="wc-stage" style={{ width: Math.ceil(card.width * scale), height: Math.ceil(card.height * scale) }}>
      <div
        role="group"
        aria-label={label}
        className={`wc-surface ${className}`}
        style={{
          width: card.width,
          height: card.height,
          transform: scale === 1 ? undefined : `scale(${scale})`,
          background: card.backgroundColour ?? WIDGET_DEFAULT_COLOURS.background,
        }}
      >
        {showImage && <img className="wc-image" src={imageSrc!} alt="" draggable={false} />}
        {children}
      </div>
    </div>
  );
}

/** The card's items, read only. */
export function WidgetItems({ card, ctx }: { card: WidgetCard; ctx: WidgetContext }) {
  return (
    <>
      {card.elements
        .filter((e) => e.settings.displayType !== 'hide')
        .map((e) => (
          <IndicatorItem key={e.id} element={e} view={indicatorView(e, card, ctx)} />
        ))}
      {card.components
        .filter((c) => c.settings.displayType !== 'hide')
        .map((c) => (
          <TextItem key={c.id} component={c} parts={renderTemplate(c.template, card, ctx)} />
        ))}
    </>
  );
}

/** A widget card drawn read only, scaled to fit its container's width. */
export function WidgetDrawing({
  card,
  ctx,
  imageSrc,
  label,
}: {
  card: WidgetCard;
  ctx: WidgetContext;
  imageSrc: string | null;
  label: string;
}) {
  const { ref, scale } = useFitScale<HTMLDivElement>(card.width);
  return (
    <div ref={ref} className="wc-fit">
      <WidgetSurface card={card} imageSrc={imageSrc} scale={scale} label={label}>
        <WidgetItems card={card} ctx={ctx} />
      </WidgetSurface>
    </div>
  );
}
