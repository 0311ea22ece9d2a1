import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { StatusScreen } from './status-screen';

interface NotFoundScreenProps {
  /** The spec's not-found message for the thing asked for. */
  title: string;
  /** What the user can do about it. */
  children: ReactNode;
  /** Ways out besides home, after it. */
  moreActions?: ReactNode;
  icon?: string;
}

/** A page, group or device that is not there (or not the user's): the message and the way home. */
export function NotFoundScreen({ title, children, moreActions, icon = 'pi pi-search' }: NotFoundScreenProps) {
  return (
    <StatusScreen
      icon={icon}
      title={title}
      actions={
        <>
          <Link className="p-button" to="/">
            Go to home
          </Link>
          {moreActions}
        </>
      }
    >
      {children}
    </StatusScreen>
  );
}
