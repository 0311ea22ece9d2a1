/** Small pieces the staff pages share: the plan tag, a last-contact age, the page header and its skeleton. */
import type { ReactNode } from 'react';
import type { PlanName } from '@portal/core';
import { Age } from '@/components/ui/age';

const PLAN_TONE: Record<PlanName, string> = { Hosted: 'success', Trial: 'warning', Basic: 'secondary' };

/** The plan as a small coloured tag (the colours of the plan badge). */
export function PlanTag({ plan }: { plan: PlanName }) {
  return <span className={`staff-plan staff-plan--${PLAN_TONE[plan]}`}>{plan}</span>;
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
