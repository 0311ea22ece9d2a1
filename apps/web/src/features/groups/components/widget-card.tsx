import type { ReactNode } from 'react';

export interface WidgetCardProps {
  id: string;
  title: string;
  /** Beside the title: a count, say. */
  aside?: ReactNode;
  children: ReactNode;
}

/** A dashboard widget's card: a title bar and the widget filling the rest, scrolling inside itself. */
export function WidgetCard({ id, title, aside, children }: WidgetCardProps) {
  const titleId = `widget-${id}-title`;
  return (
    <section className="widget-card" aria-labelledby={titleId}>
      <header className="widget-card__header">
        <h2 id={titleId} className="widget-card__title">
          {title}
        </h2>
        {aside}
      </header>
      <div className="widget-card__body">{children}</div>
    </section>
  );
}

/** A widget's card while its code loads: the title and a skeleton of the body. */
export function WidgetCardSkeleton({ id, title }: { id: string; title: string }) {
  return (
    <WidgetCard id={id} title={title}>
      <div className="widget-card__skeleton skeleton" aria-busy="true" aria-label={`Loading ${title}`} />
    </WidgetCard>
  );
}
