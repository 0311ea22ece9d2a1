/**
 * The navigation helper of spec 1 section 2 (HOME-10..13) as a hook: a device id opens the
 * device page, a view id that view of the given group (or home), any other id a group; devices
 * and groups are recorded in the recent list on the way.
 */
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { navigationTarget } from '@portal/core';
import { recordRecentDevice } from './use-device-lists';

/** Goes to what an id names: (id, name for the recent list, the group a view id belongs to). */
export type NavigateToId = (id?: string | null, name?: string, groupid?: string | null) => void;

export function useNavigationHelper(): NavigateToId {
  const navigate = useNavigate();
  return useCallback(
    (id, name, groupid) => {
      const target = navigationTarget(id, groupid);
      if (target.recent !== null && id) recordRecentDevice(id, name || id);
      void navigate(target.path);
    },
    [navigate],
  );
}
