/**
 * The document title of every page, through one helper (issue 32): 'Portal - {page}', or
 * 'Portal - {subject}: {page}' for a page of a device, a group or the account (core
 * documentTitle, the pattern of HDR-03 and HOME-09); 'Dev Portal' on the development host.
 */
import { useEffect } from 'react';
import { documentTitle } from '@portal/core';
import { baseTitle } from './brand';

/** The title for a page (and what it is a page of). */
export function titleOf(page: string | null | undefined, subject?: string | null): string {
  return documentTitle(baseTitle, page, subject);
}

/**
 * Sets the document title while the page is shown. A page whose name is not known yet (null)
 * leaves the title alone; the next page sets its own.
 */
export function usePageTitle(page: string | null | undefined, subject?: string | null): void {
  useEffect(() => {
    if (page) document.title = titleOf(page, subject);
  }, [page, subject]);
}
