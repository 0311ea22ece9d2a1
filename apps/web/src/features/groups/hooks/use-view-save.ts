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

export function useViewSave(groupid: string) {
  const save = useSaveView(groupid);
  const messages = useMessageDialog();
  const queryClient = useQueryClient();
  const [stale, setStale] = useState<string | null>(null);
  const [reloading, setReloading] = useState(false);

  const run = useCallback(
    (input: ViewInput, onSaved: (view: View) => void) => {
      setStale(null);
      save.mutate(input, {
        onSuccess: (answer) => onSaved(answer.view),
        onError: (error) => {
          if (isStaleViewError(error)) setStale(mutationErrorMessage(error));
          else messages.show(VIEW_SAVE_ERROR, mutationErrorMessage(error), 'error');
        },
      });
    },
    [save, messages],
  );

  const reload = useCallback(async () => {
    setReloading(true);
    try {
      await queryClient.refetchQueries({ queryKey: viewsQueryOptions(groupid).queryKey });
      setStale(null);
    } finally {
      setReloading(false);
    }
  }, [queryClient, groupid]);

  return { save: run, saving: save.isPending, stale, reload, reloading, clearStale: () => setStale(null) };
}
