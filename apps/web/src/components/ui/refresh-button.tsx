import { Button } from 'primereact/button';

/** A list's Refresh: asks its call again now, spinning while it answers. */
export function RefreshButton({ fetching, onRefresh }: { fetching: boolean; onRefresh: () => void }) {
  return (
    <Button
      type="button"
      label="Refresh"
      icon="pi pi-refresh"
      className="p-button-text p-button-sm"
      loading={fetching}
      onClick={onRefresh}
    />
  );
}
