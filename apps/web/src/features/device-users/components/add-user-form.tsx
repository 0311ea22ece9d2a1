import type { DeviceRole } from '@portal/core';
import { AddByEmailForm } from '@/components/ui/add-by-email-form';
import { useMessageDialog } from '@/lib/message-dialog';
import { useAddDeviceUser } from '../api/device-users';

const DEFAULT_ROLE: DeviceRole = 'VIEW';

/** ADMIN only (SUB-15, API-19): add a user by e-mail with a role; the address is checked by core's rule first. */
export function AddUserForm({ deviceid }: { deviceid: string }) {
  const add = useAddDeviceUser(deviceid);
  const messages = useMessageDialog();
  return (
    <AddByEmailForm
      idPrefix="device-user"
      title="Add a user"
      className="du-section"
      titleClassName="du-section-title"
      hint="An address without an account gets an invitation, applied when it signs up."
      roleLabel="Permission"
      defaultRole={DEFAULT_ROLE}
      submitLabel="Add user"
      pendingLabel="Adding…"
      pending={add.isPending}
      onAdd={(targetEmail, targetPermission, added) =>
        add.mutate(
          { targetEmail, targetPermission },
          {
            onSuccess: (answer) => {
              added();
              messages.showSuccess(answer);
            },
            onError: (err) => messages.showError(err),
          },
        )
      }
    />
  );
}
