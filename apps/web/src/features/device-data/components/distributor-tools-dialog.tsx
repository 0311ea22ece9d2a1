/**
 * Distributor Tools (spec 2 sections 2, 4 and 8): Reset Trial and its status, Allow Add Without
 * Password and its cancel, through POST /api/billing-distributor-action/{id}. 'Success' with the
 * server's message then a reload of the device; 'Error' with the server's message. The device's
 * settings (the trial and add-without-password states) are read afresh each time it opens; when
 * that fails it says 'Network Error' and 'Error loading device settings' (DLG-32), in place of a
 * toast.
 */
import { useQuery } from '@tanstack/react-query';
import { Dialog } from 'primereact/dialog';
import { DEVICE_SETTINGS_LOAD_ERROR, NETWORK_ERROR, type DistributorActionBody } from '@portal/core';
import { useMessageDialog } from '@/lib/message-dialog';
import { useDistributorAction } from '../api/device-actions';
import { getDeviceSettings } from '../api/device-settings';
import * as queryKeys from '@/lib/query-keys';

export function DistributorToolsDialog({
  deviceid,
  visible,
  onHide,
}: {
  deviceid: string;
  visible: boolean;
  onHide: () => void;
}) {
  const settings = useQuery({
    queryKey: queryKeys.device.distributorTools(deviceid),
    queryFn: ({ signal }) => getDeviceSettings(deviceid, signal),
    enabled: visible,
    staleTime: 0,
    meta: { silent: true },
  });
  const action = useDistributorAction(deviceid);
  const messages = useMessageDialog();

  const run = (body: DistributorActionBody) =>
    action.mutate(body, {
      // 'Success' with the server's message, then the page reloads (spec 2 section 8).
      onSuccess: (answer) => messages.showSuccess(answer, () => window.location.reload()),
      onError: (error) => messages.showError(error),
    });

  const record = settings.data?.deviceSettings;
  const trialStatus = !record
    ? null
    : record.trialResetActive
      ? 'Active: the trial restarts when the next user is added.'
      : record.trialResetAvailable
        ? 'Available'
        : 'Unavailable: the trial has been reset before or has ended.';
  const noPass = record?.PORTAL_add_next_user_without_pass.active ?? false;

  return (
    <Dialog
      header="Distributor Tools"
      visible={visible}
      onHide={onHide}
      className="dp-dialog"
      breakpoints={{ '640px': '100vw' }}
    >
      {settings.isPending ? (
        <div className="skeleton-stack" aria-busy="true">
          <div className="skeleton skeleton--row" />
          <div className="skeleton skeleton--row" />
        </div>
      ) : settings.isError || !record ? (
        <div role="alert" className="dp-dialog-error">
          <strong>{NETWORK_ERROR}</strong>
          <p>{DEVICE_SETTINGS_LOAD_ERROR}</p>
        </div>
      ) : (
        <div className="dp-tools">
          <section>
            <h3>Trial Reset</h3>
            <p className="dp-tools-status">{trialStatus}</p>
            <button
              type="button"
              className="p-button p-button-sm"
              disabled={!record.trialResetAvailable || action.isPending}
              onClick={() => run({ action: 'reset-trial' })}
            >
              Reset Trial
            </button>
          </section>
          <section>
            <h3>Allow Add Without Password</h3>
            <p className="dp-tools-status">
              {noPass ? 'Enabled: the next user added becomes Admin without the setup password.' : 'Inactive'}
            </p>
            {noPass ? (
              <button
                type="button"
                className="p-button p-button-sm p-button-outlined"
                disabled={action.isPending}
                onClick={() => run({ action: 'no-pass', params: { mode: 'DISABLE' } })}
              >
                Cancel Add Without Password
              </button>
            ) : (
              <button
                type="button"
                className="p-button p-button-sm"
                disabled={action.isPending}
                onClick={() => run({ action: 'no-pass', params: { mode: 'ADMIN' } })}
              >
                Allow Add Without Password
              </button>
            )}
          </section>
        </div>
      )}
    </Dialog>
  );
}
