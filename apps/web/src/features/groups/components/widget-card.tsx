import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

export interface WidgetCardProps {
  id: string;
  title: string;
  /** Beside the title: a count, say. */
  aside?: ReactNode;
  children: ReactNode;
}

/**
 * Whether the element's content overflows it (it scrolls), kept up to date as either changes size:
 * a region that scrolls must be reachable from the keyboard (WCAG 2.1.1; axe 'scrollable-region-focusable').
 */
function useOverflows(): [RefObject<HTMLDivElement | null>, boolean] {
  const ref = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const check = () =>
      setOverflows(element.scrollHeight > element.clientHeight + 1 || element.scrollWidth > element.clientWidth + 1);
    // The body's own size, and its content's: the widget's children come and go (skeleton, then content).
    const sizes = new ResizeObserver(check);
    const watch = () => {
      sizes.disconnect();
      sizes.observe(element);
      for (const child of Array.from(element.children)) sizes.observe(child);
      check();
    };
    // Content that grows inside a child of fixed size (a value arriving, rows added) changes the
    // body's scroll size with no resize of the body or its children: any change below looks again.
    const children = new MutationObserver(watch);
    children.observe(element, { childList: true, subtree: true, characterData: true });
    watch();
    return () => {
      sizes.disconnect();
      children.disconnect();
    };
  }, []);
  return [ref, overflows];
}

/**
 * A dashboard widget's card: a title bar and the widget filling the rest, scrolling inside itself;
 * when its content does not fit (a small tile, a phone, edit mode's bar), the body takes keyboard
 * focus so it can be scrolled with the arrow keys.
 */
export function WidgetCard({ id, title, aside, children }: WidgetCardProps) {
  const titleId = `widget-${id}-title`;
  const [bodyRef, overflows] = useOverflows();
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
