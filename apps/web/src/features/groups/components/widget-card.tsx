import type { ReactNode } from 'react';
import { useOverflows } from '@/lib/use-overflows';

export interface WidgetCardProps {
  id: string;
  title: string;
  /** Beside the title: a count, say. */
  aside?: ReactNode;
  children: ReactNode;
}

/**
 * A dashboard widget's card: a title bar and the widget filling the rest, scrolling inside itself;
 * when its content does not fit (a small tile, a phone, edit mode's bar), the body takes keyboard
 * focus so it can be scrolled with the arrow keys.
 */
export function WidgetCard({ id, title, aside, children }: WidgetCardProps) {
  const titleId = `widget-${id}-title`;
  const [bodyRef, overflows] = useOverflows<HTMLDivElement>();
  return (
    <section className="widget-card" aria-labelledby={titleId}>
      <header className="widget-card__header">
        <h2 id={titleId} className="widget-card__title">
          {title}
        </h2>
        {aside}
      </header>
      <div
        ref={bodyRef}
        className="widget-card__body"
        tabIndex={overflows ? 0 : undefined}
        aria-labelledby={overflows ? titleId : undefined}
        role={overflows ? 'group' : undefined}
      >
        {children}
      </div>
    </section>
  );
}

/** A widget's card while its code loads: the title and a skeleton of the body. */
export function WidgetCardSkeleton({ id, title }: { id: string; title: string }) {
  return (
    <WidgetCard id={id} title={title}>
      <div className="widget-card__skeleton skeleton" aria-busy="true" role="status" aria-label={`Loading ${title}`} />
    </WidgetCard>
  );
}
