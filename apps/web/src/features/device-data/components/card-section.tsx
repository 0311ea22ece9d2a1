/**
 * One section of the Data page's reading cards (UI.md 'Device page', DESIGN.md section 5): its
 * name as a heading that folds the section away and opens it again (remembered per device by the
 * page), and its cards in the card grid. The section index lists it (its data-dp-* attributes).
 */
import type { ReactNode } from 'react';

export interface CardSectionProps {
  /** Unique on the page: the heading's and the grid's ids derive from it. */
  domId: string;
  name: string;
  count: number;
  collapsed: boolean;
  onToggle: () => void;
  children: ReactNode;
}

export function CardSection({ domId, name, count, collapsed, onToggle, children }: CardSectionProps) {
  const headingId = `${domId}-title`;
  const gridId = `${domId}-cards`;
  return (
    <section
      id={domId}
      className={`dp-section${collapsed ? ' dp-section--collapsed' : ''}`}
      aria-labelledby={headingId}
      data-dp-index={name}
      data-dp-count={count}
      data-dp-folded={collapsed}
    >
      <h2 className="dp-section-title" id={headingId}>
        <button
          type="button"
          className="dp-section-toggle"
          aria-expanded={!collapsed}
          aria-controls={gridId}
          title={collapsed ? `Show ${name}` : `Fold ${name} away`}
          onClick={onToggle}
        >
          <i className="pi pi-chevron-down dp-section-chevron" aria-hidden="true" />
          <span className="dp-section-name">{name}</span>
          <span className="dp-section-count" aria-hidden="true">
            {count}
          </span>
        </button>
      </h2>
      <div id={gridId} className="dp-section-grid" hidden={collapsed}>
        {children}
      </div>
    </section>
  );
}
