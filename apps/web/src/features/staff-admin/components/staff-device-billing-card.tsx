/**
 * The staff device page's billing card (DESIGN.md section 5 billing): the device's subscription
 * and invoices (GET /billing-admin-device/{id}), with open invoices marked paid after a confirmation.
 */
import { useState } from 'react';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { formatMoney, loadErrorDetail, subscriptionKindLabel, type Invoice } from '@portal/core';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LocalTime } from '@/components/ui/local-time';
import { useMessageDialog } from '@/lib/message-dialog';
import { useMarkInvoicePaid } from '../api/staff-actions';
import { useBillingAdminDevice } from '../api/staff-device';
import { StaffLoadError } from './staff-bits';

/** The subscription and invoices of the device; staff mark an open invoice paid. */
export function StaffDeviceBillingCard({ deviceid }: { deviceid: string }) {
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
