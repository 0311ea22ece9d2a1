import type { ReactNode } from 'react';

/** One admin setting: a card with its heading. */
export function AdminCard({
  id,
  title,
  danger = false,
  children,
}: {
  id: string;
  title: string;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <section className={`card as-card${danger ? ' as-card--danger' : ''}`} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="as-card__title">
        {title}
      </h3>
      {children}
    </section>
  );
}

/** A refusal or failure in words (the server's message when it sent one). */
export function ErrorLine({ message, id }: { message: string | null; id?: string }) {
  if (!message) return null;
  return (
    <p className="as-error" role="alert" id={id}>
      <i className="pi pi-exclamation-circle" aria-hidden="true" /> {message}
    </p>
  );
}

/** What a call did. */
export function DoneLine({ children }: { children: ReactNode }) {
  return (
    <p className="as-done" role="status">
      <i className="pi pi-check-circle" aria-hidden="true" /> {children}
    </p>
  );
}

/** A long piece of work: what it is doing and how far it has got. */
export function WorkProgress({ label, fraction }: { label: string; fraction: number }) {
  const percent = Math.round(Math.min(1, Math.max(0, fraction)) * 100);
  return (
    <div className="as-progress" role="status">
      <span>
        {label} {percent}%
      </span>
      <progress max={100} value={percent} aria-label={label} />
    </div>
  );
}
