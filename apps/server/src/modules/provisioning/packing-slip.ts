/**
 * The packing slip (POST /billing-packing-slip): an A4 PDF with the brand, the date, the order
 * reference and the address shipped to, a table of the devices (id, model, firmware) over as
 * many pages as it takes, the count, and lines to sign. Drawn with pdfkit's standard Helvetica.
 */
import PDFDocument from 'pdfkit';
import { pdfBuffer } from './pdf';

export interface PackingSlipDevice {
  deviceid: string;
  model: string;
  fw: string;
}

export interface PackingSlip {
  /** Who ships: the brand's name. */
  sender: string;
  /** YYYY-MM-DD. */
  date: string;
  reference: string | null;
  address: string | null;
  devices: readonly PackingSlipDevice[];
}

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const ROW = 18;
const COLUMNS = [
  { title: '#', x: MARGIN, width: 40 },
  { title: 'Device ID', x: MARGIN + 40, width: 150 },
  { title: 'Model', x: MARGIN + 190, width: 130 },
  { title: 'Firmware', x: MARGIN + 320, width: PAGE.width - 2 * MARGIN - 320 },
] as const;
const INK = '#111111';
const MUTED = '#555555';
const RULE = '#bbbbbb';

export function packingSlipPdf(slip: PackingSlip): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: `Packing slip ${slip.reference ?? slip.date}`, Author: slip.sender },
  });
  const right = PAGE.width - MARGIN;
  const bottom = PAGE.height - MARGIN - 30;

  doc.font('Helvetica-Bold').fontSize(20).fillColor(INK).text(slip.sender, MARGIN, MARGIN, { lineBreak: false });
  doc
    .font('Helvetica-Bold')
    .fontSize(16)
    .text('Packing slip', MARGIN, MARGIN + 4, { width: right - MARGIN, align: 'right' });

  let y = MARGIN + 48;
  const field = (label: string, value: string) => {
    doc.font('Helvetica').fontSize(9).fillColor(MUTED).text(label, MARGIN, y, { lineBreak: false });
    doc
      .font('Helvetica')
      .fontSize(11)
      .fillColor(INK)
      .text(value, MARGIN + 90, y - 1, { width: right - MARGIN - 90 });
    y = Math.max(y + 18, doc.y + 6);
  };
  field('Date', slip.date);
  field('Reference', slip.reference || '-');
  field('Ship to', slip.address || '-');
  field('Devices', String(slip.devices.length));

  const header = () => {
    doc.font('Helvetica-Bold').fontSize(10).fillColor(INK);
    for (const c of COLUMNS) doc.text(c.title, c.x, y, { width: c.width, lineBreak: false });
    y += ROW - 4;
    doc.moveTo(MARGIN, y).lineTo(right, y).lineWidth(1).strokeColor(INK).stroke();
    y += 6;
  };
  y += 10;
  header();
  slip.devices.forEach((device, index) => {
    if (y + ROW > bottom) {
      doc.addPage();
      y = MARGIN;
      header();
    }
    doc.font('Helvetica').fontSize(10).fillColor(INK);
    const cells = [String(index + 1), device.deviceid, device.model, device.fw];
    cells.forEach((text, i) => doc.text(text, COLUMNS[i]!.x, y, { width: COLUMNS[i]!.width, lineBreak: false }));
    y += ROW - 5;
    doc.moveTo(MARGIN, y).lineTo(right, y).lineWidth(0.5).strokeColor(RULE).stroke();
    y += 5;
  });

  if (y + 90 > bottom) {
    doc.addPage();
    y = MARGIN;
  }
  y += 12;
  doc
    .font('Helvetica-Bold')
    .fontSize(11)
    .fillColor(INK)
    .text(`Total: ${slip.devices.length} device${slip.devices.length === 1 ? '' : 's'}`, MARGIN, y, {
      lineBreak: false,
    });
  y += 50;
  for (const [i, label] of ['Packed by', 'Checked by'].entries()) {
    const x = MARGIN + i * 250;
    doc
      .moveTo(x, y)
      .lineTo(x + 200, y)
      .lineWidth(0.75)
      .strokeColor(MUTED)
      .stroke();
    doc
      .font('Helvetica')
      .fontSize(9)
      .fillColor(MUTED)
      .text(label, x, y + 4, { lineBreak: false });
  }

  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i += 1) {
    doc.switchToPage(range.start + i);
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor(MUTED)
      .text(`Page ${i + 1} of ${range.count}`, MARGIN, PAGE.height - MARGIN - 10, {
        width: right - MARGIN,
        align: 'right',
        lineBreak: false,
      });
  }
  return pdfBuffer(doc);
}
