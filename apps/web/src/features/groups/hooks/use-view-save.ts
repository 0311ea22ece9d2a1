/**
 * A view save with the spec's failure handling (spec 1 section 8): a failure shows the dialog
 * 'An error occurred' with the server's message ('View not found' when the view is gone); a save
 * from a stale copy (409, DESIGN.md section 5) instead sets `stale` to the server's message, which
 * the dialog shows with a Reload button that loads the views again.
 */
import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { VIEW_SAVE_ERROR, mutationErrorMessage, type View, type ViewInput } from '@portal/core';
import { useMessageDialog } from '@/lib/message-dialog';
import { viewsQueryOptions } from '../api/get-views';
import { isStaleViewError, useSaveView } from '../api/save-view';

/**
 * What a failed view save does, for every kind of save (a dialog's, edit mode's): a 409 sets
 * `stale` to the server's message (shown with Reload, which loads the views again), any other
 * failure shows 'An error occurred' with the server's message.
 */
export function useViewSaveFailure(groupid: string) {
  const messages = useMessageDialog();
  const queryClient = useQueryClient();
  const [stale, setStale] = useState<string | null>(null);
  const [reloading, setReloading] = useState(false);

  const fail = useCallback(
    (error: unknown) => {
      if (isStaleViewError(error)) setStale(mutationErrorMessage(error));
      else messages.show(VIEW_SAVE_ERROR, mutationErrorMessage(error), 'error');
    },
    [messages],
  );

  /** Loads the views again after a 409; the next change is made on the other person's version. */
  const reload = useCallback(async () => {
    setReloading(true);
    try {
      await queryClient.refetchQueries({ queryKey: viewsQueryOptions(groupid).queryKey });
      setStale(null);
    } finally {
      setReloading(false);
    }
  }, [queryClient, groupid]);

  const clearStale = useCallback(() => setStale(null), []);
  return { stale, fail, reload, reloading, clearStale };
}

export function useViewSave(groupid: string) {
  const save = useSaveView(groupid);
  const { stale, fail, reload, reloading, clearStale } = useViewSaveFailure(groupid);

  const run = useCallback(
    (input: ViewInput, onSaved: (view: View) => void) => {
      clearStale();
      save.mutate(input, { onSuccess: (answer) => onSaved(answer.view), onError: fail });
    },
    [save, fail, clearStale],
  );

  return { save: run, saving: save.isPending, stale, reload, reloading, clearStale };
}
