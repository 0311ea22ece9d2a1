import type { ReactNode } from 'react';

interface StatusScreenProps {
  icon: string;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  tone?: 'neutral' | 'danger';
}

/** A designed full-page message: not found, crash, and the like. */
export function StatusScreen({ icon, title, children, actions, tone = 'neutral' }: StatusScreenProps) {
  return (
    <section className={`status-screen status-screen--${tone}`} aria-labelledby="status-screen-title">
      <div className="status-screen__icon" aria-hidden="true">
        <i className={icon} />
      </div>
      <h1 id="status-screen-title" className="status-screen__title">
        {title}
      </h1>
      {children && <div className="status-screen__text">{children}</div>}
      {actions && <div className="status-screen__actions">{actions}</div>}
    </section>
  );
}
