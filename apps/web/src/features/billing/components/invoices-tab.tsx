/**
 * The Account page's Invoices tab (/account/invoices): the invoices of the user's subscriptions,
 * newest first, with their status and a PDF download. With the built-in invoicing provider it
 * is the "billing portal" (DESIGN.md section 5).
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from 'primereact/button';
import { LoadError, LoadingLines } from '@/components/ui/load-states';
import { BILLING_GRACE_DAYS, loadErrorDetail, subscriptionKindLabel, type Invoice } from '@portal/core';
import { RefreshButton } from '@/components/ui/refresh-button';
import { downloadBlob } from '@/lib/download';
import { useMessageDialog } from '@/lib/message-dialog';
import { getInvoicePdf, useBillingCustomer } from '../api/billing';
import { dayText, money } from './billing-text';
import './billing.css';

const STATUS_TEXT: Record<Invoice['status'], string> = { open: 'Open', paid: 'Paid', void: 'Void' };

function period(invoice: Invoice): string {
  return invoice.periodEnd === null
    ? `From ${dayText(invoice.periodStart)}`
    : `${dayText(invoice.periodStart)} – ${dayText(invoice.periodEnd)}`;
}

export function InvoicesTab() {
  const query = useBillingCustomer();
  const dialog = useMessageDialog();
  const [downloading, setDownloading] = useState<number | null>(null);
  const invoices = query.data?.invoices ?? [];

  const download = (invoice: Invoice) => {
    setDownloading(invoice.invoiceid);
    getInvoicePdf(invoice.invoiceid)
      .then((blob) => downloadBlob(blob, `${invoice.number}.pdf`))
      .catch((error: unknown) => dialog.showError(error))
      .finally(() => setDownloading(null));
  };

  return (
    <section className="billing-invoices" aria-labelledby="invoices-heading">
      <div className="head-row">
        <h2 id="invoices-heading" className="billing-section__title">
          Invoices
        </h2>
        <RefreshButton fetching={query.isFetching} onRefresh={() => void query.refetch()} />
      </div>
      <p className="billing-text">
        An invoice is issued when you subscribe a device and at each renewal. Open invoices are due within{' '}
        {BILLING_GRACE_DAYS} days; support marks them paid when your payment arrives.{' '}
        <Link to="/subscriptions">Manage subscriptions</Link>
      </p>
      {query.isError && !query.data ? (
        <LoadError message={loadErrorDetail(query.error)} onRetry={() => void query.refetch()} />
      ) : query.isPending ? (
        <LoadingLines label="Loading your invoices" count={3} />
      ) : invoices.length === 0 ? (
        <p className="muted">You have no invoices yet.</p>
      ) : (
        <div className="data-table-wrap">
          <table className="data-table billing-table billing-invoices-table">
            <thead>
              <tr>
                <th scope="col">Invoice</th>
                <th scope="col">Date</th>
                <th scope="col">Device</th>
                <th scope="col">Period</th>
                <th scope="col">Amount</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">PDF</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invoices.map((invoice) => (
                <tr key={invoice.invoiceid}>
                  <td data-label="Invoice" className="billing-invoices-table__number">
                    {invoice.number}
                  </td>
                  <td data-label="Date" className="billing-nowrap">
                    {dayText(invoice.issuedAt)}
                  </td>
                  <td data-label="Device">
                    <div className="billing-stack">
                      <span>{invoice.deviceName}</span>
                      <span className="billing-stack__sub">{invoice.deviceid}</span>
                    </div>
                  </td>
                  <td data-label="Period">
                    <div className="billing-stack">
                      <span>{subscriptionKindLabel(invoice.kind)}</span>
                      <span className="billing-stack__sub billing-nowrap">{period(invoice)}</span>
                    </div>
                  </td>
                  <td data-label="Amount" className="billing-invoices-table__amount">
                    {money(invoice.amount, invoice.currency)}
                  </td>
                  <td data-label="Status">
                    <span className={`billing-status billing-status--${invoice.status}`}>
                      {STATUS_TEXT[invoice.status]}
                    </span>
                    {invoice.status === 'open' && (
                      <span className="billing-status__due">due {dayText(invoice.dueAt)}</span>
                    )}
                  </td>
                  <td className="billing-invoices-table__actions">
                    <Button
                      type="button"
                      icon="pi pi-download"
                      label="PDF"
                      text
                      size="small"
                      aria-label={`Download invoice ${invoice.number} as PDF`}
                      loading={downloading === invoice.invoiceid}
                      onClick={() => download(invoice)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
