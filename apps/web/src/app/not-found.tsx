import { Link } from 'react-router';
import { PAGE_NOT_FOUND_TEXT } from '@portal/core';
import { StatusScreen } from '@/components/ui/status-screen';

/** Any path the app does not have (spec 1 section 2). */
export function NotFound() {
  return (
    <StatusScreen
      icon="pi pi-compass"
      title={PAGE_NOT_FOUND_TEXT}
      actions={
        <Link className="p-button" to="/">
          Go to home
        </Link>
      }
    >
      <p>The address may be mistyped, or the page may have moved.</p>
    </StatusScreen>
  );
}
