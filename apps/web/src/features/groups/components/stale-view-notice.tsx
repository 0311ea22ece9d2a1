import { Button } from 'primereact/button';

export interface StaleViewNoticeProps {
  /** The server's 409 message. */
  message: string;
  reloading: boolean;
  onReload: () => void;
}

/** Inside a view dialog: the view changed since it was loaded; Reload loads it again (DESIGN.md section 5). */
export function StaleViewNotice({ message, reloading, onReload }: StaleViewNoticeProps) {
  return (
    <div className="view-dialog__stale" role="alert">
      <i className="pi pi-exclamation-triangle" aria-hidden="true" />
      <p>{message}</p>
      <Button type="button" label="Reload" icon="pi pi-refresh" size="small" loading={reloading} onClick={onReload} />
    </div>
  );
}
