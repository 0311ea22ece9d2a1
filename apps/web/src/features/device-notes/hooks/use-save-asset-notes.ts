import { useMutation, useQueryClient } from '@tanstack/react-query';
import { NOTES_IMAGE_SLOTS, type DeviceNotes, type NotesImageSlot } from '@portal/core';
import { deleteNotesImage } from '../api/delete-notes-image';
import * as queryKeys from '@/lib/query-keys';
import { updateDeviceNotes } from '../api/update-device-notes';
import { uploadNotesImage } from '../api/upload-notes-image';

/** Per image slot: a file to upload, null to remove the stored image; a slot left out stays as it is. */
export type NotesImageChanges = Partial<Record<NotesImageSlot, File | null>>;

export interface AssetNotesSave {
  notes: DeviceNotes;
  images: NotesImageChanges;
}

/**
 * Saves the Asset Notes: the text fields with PUT settings, then each changed image with its own
 * upload or delete; the device's settings record is refreshed afterwards, also after a failure
 * (part may have been saved). Answers the text fields' save (its message is the one shown).
 */
export function useSaveAssetNotes(deviceid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ notes, images }: AssetNotesSave) => {
      const saved = await updateDeviceNotes(deviceid, notes);
      for (const slot of NOTES_IMAGE_SLOTS) {
        const change = images[slot];
        if (change === null) await deleteNotesImage(deviceid, slot);
        else if (change !== undefined) await uploadNotesImage(deviceid, slot, change);
      }
      return saved;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.device.settings(deviceid) }),
  });
}
