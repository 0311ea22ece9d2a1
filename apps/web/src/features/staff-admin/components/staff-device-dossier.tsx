/**
 * The staff device page's dossier (STAFF-12): the device's header with its plan and the Change
 * plan button, its overview (plan, trial, last contact, distributor), the distributor actions
 * (reset the trial, add without password: 'Success' with the server's message and a reload, or
 * 'Error', DLG-30/31, confirmed first), and the users, billing and server-log cards below.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { noPassActive, type DistributorActionBody, type StaffDeviceResponse } from '@portal/core';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LocalTime } from '@/components/ui/local-time';
import { useMessageDialog } from '@/lib/message-dialog';
import { useStaffDistributorAction } from '../api/staff-actions';
import { LastContact, PlanTag, StaffHeader } from './staff-bits';
import { StaffDeviceBillingCard } from './staff-device-billing-card';
import { StaffDeviceLogCard } from './staff-device-log-card';
import { StaffDeviceUsersCard } from './staff-device-users-card';
import { StaffPlanDialog } from './staff-plan-dialog';

const TRIAL_RESET_TEXT: Record<StaffDeviceResponse['device']['trialResetState'], string> = {
  available: 'Available',
  active: 'Active: the trial restarts when the next user is added',
  used: 'Used',
};

/** A device as staff see it: its header, overview and distributor actions, then its users, billing and log cards. */
export function StaffDeviceDossier({ data }: { data: StaffDeviceResponse }) {
  const { device } = data;
  const noPassOn = noPassActive(device.addWithoutPass);
  const nowMs = Date.now();
  const [planOpen, setPlanOpen] = useState(false);
  const [confirmAction, setConfirmAction] = useState<DistributorActionBody | null>(null);
  const action = useStaffDistributorAction();
  const messages = useMessageDialog();

  const run = (body: DistributorActionBody) =>
    action.mutate(
      { deviceid: device.deviceid, body },
      {
        // 'Success' with the server's message, then the page reloads (spec 2 section 8, DLG-30)
        onSuccess: (answer) => messages.showSuccess(answer, () => window.location.reload()),
        onError: (error) => messages.showError(error),
        onSettled: () => setConfirmAction(null),
      },
    );

  return (
    <div className="page staff">
      <nav aria-label="Breadcrumb" className="staff-breadcrumb">
        <Link to="/sqadmin">Staff administration</Link> <span aria-hidden="true">/</span>{' '}
        <span aria-current="page">{device.deviceid}</span>
      </nav>
      <StaffHeader
        title={device.name}
        subtitle={
          <>
            <span className="staff-id">{device.deviceid}</span> · {device.model} · {device.fw}
          </>
        }
        actions={
          <>
            <PlanTag plan={device.plan} />
            <Button
              type="button"
              label="Change plan"
              icon="pi pi-credit-card"
              size="small"
              onClick={() => setPlanOpen(true)}
            />
          </>
        }
      />
      <div className="staff-grid">
        <section className="card" aria-labelledby="staff-overview">
          <h2 id="staff-overview" className="card__title">
            Overview
          </h2>
          <dl className="staff-facts">
            <dt>Plan</dt>
            <dd>
              <PlanTag plan={device.plan} /> <span className="staff-muted">tier {device.tier}</span>
            </dd>
            <dt>Trial</dt>
            <dd>
              {device.trialDaysRemaining === null
                ? 'Not started (nobody has added the device)'
                : device.trialDaysRemaining >= 0
                  ? `${device.trialDaysRemaining} day${device.trialDaysRemaining === 1 ? '' : 's'} left`
                  : 'Ended'}
            </dd>
            <dt>Last contact</dt>
            <dd>
              <LastContact ts={device.lastContact} nowMs={nowMs} />
            </dd>
            <dt>First added</dt>
            <dd>{device.addedAt === null ? 'Never' : <LocalTime ts={device.addedAt} />}</dd>
            <dt>Provisioned</dt>
            <dd>
              <LocalTime ts={device.createdAt} />
            </dd>
            <dt>Distributor</dt>
            <dd>
              {data.distributor ? (
                <>
                  <strong>{data.distributor.name}</strong>
                  <span className="staff-muted staff-block">
                    assigned by {data.distributor.assignedBy}, <LocalTime ts={data.distributor.assignedAt} />
                  </span>
                </>
              ) : (
                <span className="staff-muted">None</span>
              )}
            </dd>
          </dl>
        </section>
        <section className="card" aria-labelledby="staff-tools">
          <h2 id="staff-tools" className="card__title">
            Distributor actions
          </h2>
          <div className="staff-action">
            <div>
              <h3 className="staff-subtitle">Trial Reset</h3>
              <p className="staff-muted">{TRIAL_RESET_TEXT[device.trialResetState]}</p>
            </div>
            <Button
              type="button"
              label="Reset Trial"
              size="small"
              outlined
              disabled={device.trialResetState !== 'available' || action.isPending}
              onClick={() => setConfirmAction({ action: 'reset-trial' })}
            />
          </div>
          <div className="staff-action">
            <div>
              <h3 className="staff-subtitle">Allow Add Without Password</h3>
              <p className="staff-muted">
                {noPassOn ? 'Enabled: the next user added becomes Admin without the setup password.' : 'Inactive'}
              </p>
            </div>
            {noPassOn ? (
              <Button
                type="button"
                label="Cancel"
                size="small"
                outlined
                disabled={action.isPending}
                onClick={() => run({ action: 'no-pass', params: { mode: 'DISABLE' } })}
              />
            ) : (
              <Button
                type="button"
                label="Allow"
                size="small"
                outlined
                disabled={action.isPending}
                onClick={() => setConfirmAction({ action: 'no-pass', params: { mode: 'ADMIN' } })}
              />
            )}
          </div>
        </section>
      </div>
      <StaffDeviceUsersCard data={data} />
      <StaffDeviceBillingCard deviceid={device.deviceid} />
      <StaffDeviceLogCard data={data} />
      <StaffPlanDialog
        visible={planOpen}
        deviceid={device.deviceid}
        current={device.plan}
        onHide={() => setPlanOpen(false)}
      />
      <ConfirmDialog
        visible={confirmAction !== null}
        header={confirmAction?.action === 'reset-trial' ? 'Reset Trial' : 'Allow Add Without Password'}
        confirmLabel={confirmAction?.action === 'reset-trial' ? 'Reset Trial' : 'Allow'}
        tone="primary"
        busy={action.isPending}
        onCancel={() => setConfirmAction(null)}
        onConfirm={() => confirmAction && run(confirmAction)}
      >
        {confirmAction?.action === 'reset-trial'
          ? `The trial of ${device.deviceid} restarts when the next user is added. A trial can be reset once only.`
          : `The next user to add ${device.deviceid} becomes its Admin without the setup password.`}
      </ConfirmDialog>
    </div>
  );
}
