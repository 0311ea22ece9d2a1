import { PAGE_NOT_FOUND_TEXT } from '@portal/core';
import { NotFoundScreen } from '@/components/ui/not-found-screen';
import { usePageTitle } from '@/lib/page-title';

/** The not-found screen's document title ('Page not found!' without its exclamation). */
const PAGE_NOT_FOUND_TITLE = 'Page not found';

/** Any path the app does not have (spec 1 section 2). */
export function NotFound() {
  usePageTitle(PAGE_NOT_FOUND_TITLE);
  return (
    <NotFoundScreen icon="pi pi-compass" title={PAGE_NOT_FOUND_TEXT}>
      <p>The address may be mistyped, or the page may have moved.</p>
    </NotFoundScreen>
  );
}
