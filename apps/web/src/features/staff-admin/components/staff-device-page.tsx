/**
 * /sqadmin/{deviceid} (STAFF-01, STAFF-12; DESIGN.md section 5 billing): a device as staff see
 * it: its plan, trial and distributor; every user with their role and where it comes from; its
 * groups; its subscription and invoices (GET /billing-admin-device/{id}, marking open ones paid);
 * its newest server-log lines. Staff change the plan (POST /billing-update-plan, confirmed, with
 * a reason) and run the distributor actions (reset the trial, add without password: 'Success'
 * with the server's message and a reload, or 'Error', DLG-30/31).
 */
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dialog } from 'primereact/dialog';
import { InputTextarea } from 'primereact/inputtextarea';
import {
  DEVICE_MESSAGES,
  STAFF_PLAN_CHOICES,
  formatMoney,
  loadErrorDetail,
  subscriptionKindLabel,
  type DistributorActionBody,
  type Invoice,
  type PlanName,
  type StaffDeviceResponse,
} from '@portal/core';
import { NotFoundScreen } from '@/components/ui/not-found-screen';
import { LocalTime } from '@/components/ui/local-time';
import { useMessageDialog } from '@/lib/message-dialog';
import { ApiError } from '@/lib/api';
import { useBillingAdminDevice, useStaffDevice } from '../api/staff-device';
import { useMarkInvoicePaid, useStaffDistributorAction, useUpdatePlan } from '../api/staff-actions';
import { LastContact, PlanTag, StaffHeader, StaffLoadError, StaffSkeleton } from './staff-bits';
import './staff.css';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { usePageTitle } from '@/lib/page-title';

const TRIAL_RESET_TEXT: Record<StaffDeviceResponse['device']['trialResetState'], string> = {
  available: 'Available',
  active: 'Active: the trial restarts when the next user is added',
  used: 'Used',
};

export function StaffDevicePage({ deviceid }: { deviceid: string }) {
  const device = useStaffDevice(deviceid);
  usePageTitle('Staff Admin', deviceid);

  if (device.isPending) {
    return (
      <div className="page staff">
        <StaffHeader title={deviceid} subtitle="Loading the device…" />
        <StaffSkeleton cards={3} />
      </div>
    );
  }
  if (device.isError) {
    if (device.error instanceof ApiError && device.error.status === 404) {
      return (
        <NotFoundScreen
          title={DEVICE_MESSAGES.notFound}
          moreActions={
            <Link className="p-button p-button-outlined" to="/sqadmin">
              Search again
            </Link>
          }
        >
          <p>
            There is no device <span className="staff-id">{deviceid}</span>.
          </p>
        </NotFoundScreen>
      );
    }
    return (
      <div className="page staff">
        <StaffHeader title={deviceid} subtitle="The device could not be loaded." />
        <StaffLoadError message={loadErrorDetail(device.error)} onRetry={() => void device.refetch()} />
      </div>
    );
  }
  return <DeviceDossier data={device.data} />;
}

function DeviceDossier({ data }: { data: StaffDeviceResponse }) {
  const { device } = data;
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
                {device.addWithoutPass === 'ADMIN'
                  ? 'Enabled: the next user added becomes Admin without the setup password.'
                  : 'Inactive'}
              </p>
            </div>
            {device.addWithoutPass === 'ADMIN' ? (
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
      <UsersCard data={data} />
      <BillingCard deviceid={device.deviceid} />
      <ServerLogCard data={data} />
      <PlanDialog
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

function UsersCard({ data }: { data: StaffDeviceResponse }) {
  return (
    <section className="card staff-card" aria-labelledby="staff-users">
      <h2 id="staff-users" className="card__title">
        Users <span className="badge">{data.users.length}</span>
      </h2>
      {data.users.length === 0 ? (
        <p className="staff-muted">Nobody has added this device yet.</p>
      ) : (
        <DataTable
          value={data.users}
          dataKey="userId"
          size="small"
          scrollable
          // The table scrolls sideways on a phone: its wrapper takes keyboard focus to scroll it.
          pt={{
            table: { 'aria-label': 'Users of the device' },
            wrapper: { tabIndex: 0, role: 'region', 'aria-label': 'Users of the device' },
          }}
          tableStyle={{ minWidth: '36rem' }}
        >
          <Column header="E-mail" field="email" frozen className="staff-cell-strong" />
          <Column
            header="Role"
            body={(u: StaffDeviceResponse['users'][number]) => (u.role === 'ADMIN' ? 'ADMIN (owner)' : u.role)}
          />
          <Column
            header="Through"
            body={(u: StaffDeviceResponse['users'][number]) =>
              u.sources
                .map((s) =>
                  s.kind === 'direct' ? `Direct ${s.role}` : `Group ${s.groupName ?? s.groupid} (${s.role})`,
                )
                .join(', ')
            }
          />
        </DataTable>
      )}
      <h3 className="staff-subtitle">Groups</h3>
      {data.groups.length === 0 ? (
        <p className="staff-muted">In no group.</p>
      ) : (
        <ul className="staff-plain-list">
          {data.groups.map((g) => (
            <li key={g.groupid}>
              <strong>{g.groupName}</strong> <span className="staff-id">{g.groupid}</span> · {g.members} member
              {g.members === 1 ? '' : 's'}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function BillingCard({ deviceid }: { deviceid: string }) {
  const billing = useBillingAdminDevice(deviceid);
  const paid = useMarkInvoicePaid();
  const messages = useMessageDialog();
  const [confirm, setConfirm] = useState<Invoice | null>(null);

  const markPaid = (invoice: Invoice) =>
    paid.mutate(invoice.invoiceid, {
      onSuccess: () => messages.show('Success', `Invoice ${invoice.number} is marked paid.`, 'success'),
      onError: (error) => messages.showError(error),
      onSettled: () => setConfirm(null),
    });

  return (
    <section className="card staff-card" aria-labelledby="staff-billing">
      <h2 id="staff-billing" className="card__title">
        Subscription and invoices
      </h2>
      {billing.isPending ? (
        <div className="skeleton-stack" aria-busy="true">
          <div className="skeleton skeleton--row" />
          <div className="skeleton skeleton--row" />
        </div>
      ) : billing.isError ? (
        <StaffLoadError message={loadErrorDetail(billing.error)} onRetry={() => void billing.refetch()} />
      ) : (
        <>
          <p>
            {billing.data.subscription.kind === 'none' ? (
              <span className="staff-muted">No subscription.</span>
            ) : (
              <>
                <strong>{subscriptionKindLabel(billing.data.subscription.kind)}</strong>,{' '}
                {billing.data.subscription.status === 'awaiting_payment' ? 'awaiting payment' : 'paid'}
                {billing.data.subscription.graceEndsAt !== null && (
                  <>
                    ; the grace ends <LocalTime ts={billing.data.subscription.graceEndsAt} />
                  </>
                )}
                {billing.data.subscription.periodEnd === null ? (
                  '; never ends'
                ) : (
                  <>
                    ; the period {billing.data.subscription.cancelAtPeriodEnd ? 'and the subscription end' : 'ends'}{' '}
                    <LocalTime ts={billing.data.subscription.periodEnd} />
                  </>
                )}
              </>
            )}
          </p>
          {billing.data.invoices.length === 0 ? (
            <p className="staff-muted">No invoices.</p>
          ) : (
            <DataTable
              value={billing.data.invoices}
              dataKey="invoiceid"
              size="small"
              scrollable
              pt={{ table: { 'aria-label': 'Invoices' } }}
              tableStyle={{ minWidth: '44rem' }}
            >
              <Column header="Invoice" field="number" frozen className="staff-cell-strong staff-nowrap" />
              <Column header="Plan" body={(i: Invoice) => subscriptionKindLabel(i.kind)} />
              <Column
                header="Amount"
                body={(i: Invoice) => formatMoney(i.amount, i.currency)}
                className="staff-num"
                alignHeader="right"
              />
              <Column header="Issued" body={(i: Invoice) => <LocalTime ts={i.issuedAt} />} />
              <Column
                header="Status"
                body={(i: Invoice) =>
                  i.status === 'paid' && i.paidAt !== null ? (
                    <span>
                      Paid <LocalTime ts={i.paidAt} />
                    </span>
                  ) : i.status === 'open' ? (
                    <span>
                      Open, due <LocalTime ts={i.dueAt} />
                    </span>
                  ) : (
                    'Void'
                  )
                }
              />
              <Column
                header={<span className="visually-hidden">Actions</span>}
                body={(i: Invoice) =>
                  i.status === 'open' ? (
                    <Button
                      type="button"
                      label="Mark paid"
                      size="small"
                      outlined
                      aria-label={`Mark invoice ${i.number} paid`}
                      onClick={() => setConfirm(i)}
                    />
                  ) : null
                }
              />
            </DataTable>
          )}
        </>
      )}
      <ConfirmDialog
        visible={confirm !== null}
        header="Mark invoice paid"
        confirmLabel="Mark paid"
        tone="primary"
        busy={paid.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() => confirm && markPaid(confirm)}
      >
        {confirm &&
          `Record payment of ${formatMoney(confirm.amount, confirm.currency)} for invoice ${confirm.number} (${confirm.customerEmail})? The subscription becomes active.`}
      </ConfirmDialog>
    </section>
  );
}

function ServerLogCard({ data }: { data: StaffDeviceResponse }) {
  return (
    <section className="card staff-card" aria-labelledby="staff-log">
      <h2 id="staff-log" className="card__title">
        Server log <span className="staff-muted staff-small">newest {data.serverLog.length} lines</span>
      </h2>
      {data.serverLog.length === 0 ? (
        <p className="staff-muted">No server log lines.</p>
      ) : (
        // The log scrolls within its card: it takes keyboard focus to scroll it.
        <ol className="staff-log" tabIndex={0} aria-labelledby="staff-log">
          {data.serverLog.map((line) => (
            <li key={line.id}>
              <LocalTime ts={line.ts} className="staff-log__time" />
              <span className="staff-log__kind">{line.kind}</span>
              <span className="staff-log__message">{line.message}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function PlanDialog({
  visible,
  deviceid,
  current,
  onHide,
}: {
  visible: boolean;
  deviceid: string;
  current: PlanName;
  onHide: () => void;
}) {
  const [plan, setPlan] = useState<PlanName>(current);
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState(false);
  const update = useUpdatePlan();
  const messages = useMessageDialog();
  const reasonId = useId();
  const groupId = useId();

  useEffect(() => {
    if (visible) {
      setPlan(current);
      setReason('');
      setConfirming(false);
      update.reset();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a fresh form each time it opens
  }, [visible]);

  const submit = () =>
    update.mutate(
      { deviceid, plan, ...(reason.trim() ? { reason: reason.trim() } : {}) },
      {
        onSuccess: (answer) => {
          onHide();
          messages.show(
            'Success',
            `${deviceid} is now on the ${answer.plan} plan (was ${answer.previousPlan}).`,
            'success',
          );
        },
        onError: (error) => {
          setConfirming(false);
          messages.showError(error);
        },
      },
    );

  return (
    <Dialog
      visible={visible}
      onHide={() => {
        if (!update.isPending) onHide();
      }}
      header={confirming ? 'Confirm plan change' : 'Change plan'}
      className="view-dialog"
      style={{ width: '30rem' }}
      breakpoints={{ '575px': '100vw' }}
      draggable={false}
      resizable={false}
      footer={
        <div className="view-dialog__footer">
          {confirming ? (
            <>
              <Button
                type="button"
                label="Back"
                text
                disabled={update.isPending}
                onClick={() => setConfirming(false)}
              />
              <Button type="button" label={`Change to ${plan}`} loading={update.isPending} onClick={submit} autoFocus />
            </>
          ) : (
            <>
              <Button type="button" label="Cancel" text onClick={onHide} />
              <Button type="button" label="Continue" disabled={plan === current} onClick={() => setConfirming(true)} />
            </>
          )}
        </div>
      }
    >
      {confirming ? (
        <p className="view-dialog__text">
          Change {deviceid} from {current} to {plan}? Any running subscription ends and its open invoices are voided.
          {plan === 'Trial' && ' A device whose trial is over gets a fresh 90-day trial.'}
          {reason.trim() && <> Reason: “{reason.trim()}”.</>}
        </p>
      ) : (
        <div className="staff-form">
          <fieldset className="staff-plan-choice">
            <legend id={groupId}>Plan</legend>
            {STAFF_PLAN_CHOICES.map((choice) => (
              <label key={choice} className="staff-radio">
                <input
                  type="radio"
                  name="staff-plan"
                  value={choice}
                  checked={plan === choice}
                  onChange={() => setPlan(choice)}
                />
                {choice}
                {choice === current && <span className="staff-muted"> (current)</span>}
              </label>
            ))}
          </fieldset>
          <label htmlFor={reasonId} className="staff-label">
            Reason <span className="staff-muted">(optional, kept with the change)</span>
          </label>
          <InputTextarea
            id={reasonId}
            value={reason}
            rows={3}
            maxLength={500}
            autoResize
            onChange={(event) => setReason(event.target.value)}
          />
        </div>
      )}
    </Dialog>
  );
}
