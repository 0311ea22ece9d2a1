import { PAGE_NOT_FOUND_TEXT } from '@portal/core';
import { NotFoundScreen } from '@/components/ui/not-found-screen';

/** Any path the app does not have (spec 1 section 2). */
export function NotFound() {
  return (
    <NotFoundScreen icon="pi pi-compass" title={PAGE_NOT_FOUND_TEXT}>
      <p>The address may be mistyped, or the page may have moved.</p>
    </NotFoundScreen>
  );
}
