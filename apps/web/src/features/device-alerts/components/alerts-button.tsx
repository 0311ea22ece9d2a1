import { Suspense, lazy, useState } from 'react';

// The dialog's code (and PrimeReact's dialog and dropdown) loads when it is first opened.
const AlertsDialog = lazy(() => import('./alerts-dialog').then((m) => ({ default: m.AlertsDialog })));

/** The device page's "Alerts" button: the caller's own alert subscription for the device, in a dialog. */
export function AlertsButton({ deviceid }: { deviceid: string }) {
  const [visible, setVisible] = useState(false);
  const [opened, setOpened] = useState(false);
  return (
    <>
      <button
        type="button"
        className="p-button p-button-sm p-button-text"
        aria-haspopup="dialog"
        onClick={() => {
          setOpened(true);
          setVisible(true);
        }}
      >
        <i className="pi pi-bell" aria-hidden="true" /> Alerts
      </button>
      {opened && (
        <Suspense fallback={null}>
          <AlertsDialog deviceid={deviceid} visible={visible} onHide={() => setVisible(false)} />
        </Suspense>
      )}
    </>
  );
}
