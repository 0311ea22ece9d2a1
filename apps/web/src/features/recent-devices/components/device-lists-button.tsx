import { Suspense, lazy, useState } from 'react';
import { Button } from 'primereact/button';

// The dialog's code loads when it is first opened.
const DeviceListsDialog = lazy(() => import('./device-lists-dialog').then((m) => ({ default: m.DeviceListsDialog })));

/** The home page's Favourites button: opens the favourites and recent dialog. */
export function DeviceListsButton({ className }: { className?: string }) {
  const [opened, setOpened] = useState(false);
  const [visible, setVisible] = useState(false);
  return (
    <>
      <Button
        type="button"
        outlined
        icon="pi pi-star"
        label="Favourites"
        className={className}
        aria-haspopup="dialog"
        aria-expanded={visible}
        onClick={() => {
          setOpened(true);
          setVisible(true);
        }}
      />
      {opened && (
        <Suspense fallback={null}>
          <DeviceListsDialog visible={visible} onHide={() => setVisible(false)} />
        </Suspense>
      )}
    </>
  );
}
