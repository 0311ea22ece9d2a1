import type { ReactNode } from 'react';
import { Link } from 'react-router';

interface SentPanelProps {
  message: string;
  detail?: ReactNode;
  tone?: 'success' | 'danger';
  icon?: string;
  /** Show a 'Sign in' link under the message. */
  signInLink?: boolean;
}

/** The confirmation shown in place of a form once it has been sent. */
export function SentPanel({ message, detail, tone = 'success', icon, signInLink = true }: SentPanelProps) {
  const iconClass = icon ?? (tone === 'success' ? 'pi pi-envelope' : 'pi pi-exclamation-triangle');
  return (
    <div className={`sent-panel sent-panel--${tone}`} role="status">
      <i className={`${iconClass} sent-panel__icon`} aria-hidden="true" />
      <p className="sent-panel__message">{message}</p>
      {detail && <p className="sent-panel__detail">{detail}</p>}
      {signInLink && (
        <Link className="p-button sent-panel__action" to="/login">
          Sign in
        </Link>
      )}
    </div>
  );
}
