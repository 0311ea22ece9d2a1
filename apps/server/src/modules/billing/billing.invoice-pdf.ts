/** An invoice as a one-page A4 PDF (pdfkit): number, dates, customer, device, period, amount, status. */
import PDFDocument from 'pdfkit';
import { formatMoney, subscriptionKindLabel, type Invoice } from '@portal/core';

/** 2026-03-01 (UTC): invoices name whole days. */
function day(epochSeconds: number | null): string {
  return epochSeconds === null ? '' : new Date(epochSeconds * 1000).toISOString().slice(0, 10);
}

const STATUS_TEXT: Record<Invoice['status'], string> = { open: 'OPEN', paid: 'PAID', void: 'VOID' };

export function invoicePdf(invoice: Invoice, seller: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin: 56,
      info: { Title: `Invoice ${invoice.number}`, Author: seller, Subject: `Invoice ${invoice.number}` },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    const left = doc.page.margins.left;
    const width = doc.page.width - left - doc.page.margins.right;
    const money = formatMoney(invoice.amount, invoice.currency, 'en-US');

    doc
      .font('Helvetica-Bold')
      .fontSize(22)
      .text(seller, left, 56, { width: width / 2 });
    doc
      .font('Helvetica-Bold')
      .fontSize(22)
      .text('INVOICE', left, 56, { width, align: 'right' })
      .font('Helvetica')
      .fontSize(11)
      .text(`Invoice number: ${invoice.number}`, { width, align: 'right' })
      .text(`Invoice date: ${day(invoice.issuedAt)}`, { width, align: 'right' })
      .text(`Due date: ${day(invoice.dueAt)}`, { width, align: 'right' })
      .text(
        `Status: ${STATUS_TEXT[invoice.status]}${invoice.paidAt !== null ? ` (paid ${day(invoice.paidAt)})` : ''}`,
        {
          width,
          align: 'right',
        },
      );

    doc.moveDown(2).font('Helvetica-Bold').fontSize(12).text('Bill to', left);
    doc.font('Helvetica').fontSize(11).text(invoice.customerEmail);

    const period =
      invoice.periodEnd === null
        ? `From ${day(invoice.periodStart)} (lifetime, never ends)`
        : `${day(invoice.periodStart)} to ${day(invoice.periodEnd)}`;

    doc.moveDown(2);
    const tableTop = doc.y;
    const amountX = left + width - 120;
    doc.font('Helvetica-Bold').fontSize(11);
    doc.text('Description', left, tableTop);
    doc.text('Amount', amountX, tableTop, { width: 120, align: 'right' });
    doc
      .moveTo(left, tableTop + 16)
      .lineTo(left + width, tableTop + 16)
      .stroke('#999999');

    const rowTop = tableTop + 24;
    doc.font('Helvetica').fontSize(11);
    doc.text(`Hosted plan, ${subscriptionKindLabel(invoice.kind).toLowerCase()} subscription`, left, rowTop, {
      width: width - 140,
    });
    doc.text(`Device: ${invoice.deviceName} (${invoice.deviceid})`, { width: width - 140 });
    doc.text(`Period: ${period}`, { width: width - 140 });
    doc.text(money, amountX, rowTop, { width: 120, align: 'right' });

    const totalTop = Math.max(doc.y, rowTop + 48) + 16;
    doc
      .moveTo(left, totalTop)
      .lineTo(left + width, totalTop)
      .stroke('#999999');
    doc.font('Helvetica-Bold').text(`Total (${invoice.currency})`, left, totalTop + 8);
    doc.text(money, amountX, totalTop + 8, { width: 120, align: 'right' });

    doc
      .moveDown(3)
      .font('Helvetica')
      .fontSize(10)
      .fillColor('#444444')
      .text(
        invoice.status === 'paid'
          ? 'Thank you: this invoice is paid.'
          : invoice.status === 'void'
            ? 'This invoice is void: nothing is due.'
            : `Please pay by ${day(invoice.dueAt)}. Unpaid after that date, the device returns to its previous plan.`,
        left,
        undefined,
        { width },
      );
    doc.end();
  });
}
