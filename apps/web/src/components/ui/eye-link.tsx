import { Link } from 'react-router';

/**
 * The eye button of a device page's card to the page of what it shows (CARD-05): a reading's
 * widget or chart key, a widget card, a chart card.
 */
export function EyeLink({ to, label, title }: { to: string; label: string; title?: string }) {
  return (
    <Link
      to={to}
      className="p-button p-button-text p-button-sm p-button-icon-only dp-eye"
      aria-label={label}
      title={title}
    >
      <i className="pi pi-eye" aria-hidden="true" />
    </Link>
  );
}
