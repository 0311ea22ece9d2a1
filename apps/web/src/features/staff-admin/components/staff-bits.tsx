/** Small pieces the staff pages share: the plan tag, a last-contact age, the page header and its skeleton. */
import type { ReactNode } from 'react';
import { PLAN_COLOURS, type PlanName } from '@portal/core';
import { Age } from '@/components/ui/age';
import '@/components/ui/plan-badge.css';

/** The plan as a small coloured tag (the colours of the plan badge). */
export function PlanTag({ plan }: { plan: PlanName }) {
  return <span className={`plan-badge plan-badge--small plan-badge--${PLAN_COLOURS[plan]} staff-plan`}>{plan}</span>;
}

/** '3 min ago' with the absolute time on hover, or 'Never' before the first contact. */
export function LastContact({ ts, nowMs }: { ts: number | null; nowMs: number }) {
  if (ts === null) return <span className="staff-muted">Never</span>;
  return <Age ts={ts} nowMs={nowMs} />;
}

export function StaffHeader({ title, subtitle, actions }: { title: string; subtitle: ReactNode; actions?: ReactNode }) {
  return (
    <header className="page-header staff-header">
      <div>
        <h1 className="page-title">{title}</h1>
        <p className="page-subtitle">{subtitle}</p>
      </div>
      {actions && <div className="staff-header__actions">{actions}</div>}
    </header>
  );
}

/** A page's cards while its data loads. */
export function StaffSkeleton({ cards = 2 }: { cards?: number }) {
  return (
    <div aria-busy="true" role="status" aria-label="Loading">
      {Array.from({ length: cards }, (_, i) => (
        <div key={i} className="card skeleton-stack">
          <div className="skeleton skeleton--title" />
          <div className="skeleton skeleton--row" />
          <div className="skeleton skeleton--row" />
          <div className="skeleton skeleton--row" />
        </div>
      ))}
    </div>
  );
}

/** A failed load: the server's message and Retry. */
export function StaffLoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="card staff-error" role="alert">
      <p>
        <i className="pi pi-exclamation-triangle" aria-hidden="true" /> {message}
      </p>
      <button type="button" className="p-button p-button-outlined p-button-sm" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
