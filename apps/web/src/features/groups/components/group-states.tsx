/** Home's group states besides the dashboard: loading, not found, and a failed load (GRP-13). */
import { Button } from 'primereact/button';
import { GROUP_MESSAGES } from '@portal/core';
import { NotFoundScreen } from '@/components/ui/not-found-screen';
import './home.css';
import { usePageTitle } from '@/lib/page-title';

/**
 * The header, tabs and two widget cards in outline while the group loads; with `tabsAndCards`
 * only the tabs and cards (the header is drawn, the views are loading).
 */
export function HomeSkeleton({ tabsAndCards = false }: { tabsAndCards?: boolean }) {
  return (
    <div
      className="home-skeleton"
      aria-busy="true"
      role="status"
      aria-label={tabsAndCards ? 'Loading the views' : 'Loading the group'}
    >
      {!tabsAndCards && <div className="skeleton home-skeleton__title" />}
      {!tabsAndCards && <div className="skeleton home-skeleton__tools" />}
      <div className="skeleton skeleton--tabs" />
      <div className="skeleton home-skeleton__card" />
      <div className="skeleton home-skeleton__card" />
    </div>
  );
}

/** A group that does not exist or is not the user's (the server answers both alike). */
export function GroupNotFound({ groupid }: { groupid: string }) {
  usePageTitle(GROUP_MESSAGES.notFound);
  return (
    <NotFoundScreen title={GROUP_MESSAGES.notFound}>
      <p>
        There is no group <span className="home-id">{groupid}</span> among your groups. Check the link, or ask the
        group&apos;s administrator to add you by e-mail.
      </p>
    </NotFoundScreen>
  );
}

/** A group that failed to load: the server's message, else 'Error Loading Data' (the caller's text), and a retry. */
export function GroupLoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <section className="card empty-state home-error" role="alert">
      <i className="pi pi-exclamation-triangle home-error__icon" aria-hidden="true" />
      <p>{message}</p>
      <Button type="button" outlined label="Try again" onClick={onRetry} />
    </section>
  );
}
