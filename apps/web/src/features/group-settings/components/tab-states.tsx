import { Button } from 'primereact/button';

/** Rows shaped like the table while it loads. */
export function TableSkeleton({ label, rows = 3 }: { label: string; rows?: number }) {
  return (
    <div className="skeleton-stack gs-skeleton" aria-busy="true" role="status" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton skeleton--row" />
      ))}
    </div>
  );
}

/** A tab's load failure in place: the server's message (else 'Error Loading Data') and a retry. */
export function TabError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="gs-error" role="alert">
      <i className="pi pi-exclamation-triangle" aria-hidden="true" />
      <span>{message}</span>
      <Button
        type="button"
        label="Try again"
        icon="pi pi-refresh"
        className="p-button-text p-button-sm"
        onClick={onRetry}
      />
    </div>
  );
}
