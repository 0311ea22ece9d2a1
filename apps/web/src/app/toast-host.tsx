import { Suspense, lazy, useEffect, useState } from 'react';
import { forgetToast, onToastNeeded, registerToast } from '@/lib/toast';

const Toast = lazy(() => import('primereact/toast').then((m) => ({ default: m.Toast })));

/** The app-wide toast area, mounted (and its code loaded) when the first toast is shown. */
export function ToastHost() {
  const [needed, setNeeded] = useState(false);
  useEffect(() => onToastNeeded(() => setNeeded(true)), []);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Toast ref={registerToast} onRemove={forgetToast} position="top-right" />
    </Suspense>
  );
}
