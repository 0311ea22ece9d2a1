/**
 * The device label as one drawing (DESIGN.md section 5, 'Device labels'): its texts, the QR
 * code of the address that adds the device, and a border, in PDF points on a 4 x 2 inch label.
 * label-render.ts draws it as a PDF page (pdfkit) and as a PNG (an SVG rendered by resvg), so
 * both show the same thing in the same places.
 */
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';

export interface LabelFields {
  deviceid: string;
  model: string;
  fw: string;
  setupPassword: string;
  /** The address the QR code opens to add the device (the web route /add). */
  claimUrl: string;
}

/** The standard PDF fonts the label uses (no font file needed in the PDF). */
export type LabelFont = 'Helvetica' | 'Helvetica-Bold' | 'Courier-Bold';

export interface LabelText {
  kind: 'text';
  text: string;
  /** Left end of the baseline. */
  x: number;
  y: number;
  size: number;
  font: LabelFont;
  colour: string;
  /** The text's advance width in the font (Helvetica/Courier metrics): the PNG stretches to it. */
  width: number;
}

export interface LabelQr {
  kind: 'qr';
  /** Top left of the dark modules' grid (the quiet zone lies around it, inside the label). */
  x: number;
  y: number;
  /** Side of one module. */
  module: number;
  /** The dark modules as [row, column]. */
  dark: [number, number][];
  size: number;
}

export interface LabelRect {
  kind: 'rect';
  x: number;
  y: number;
  width: number;
  height: number;
  radius: number;
  stroke: string;
  lineWidth: number;
}

export type LabelItem = LabelText | LabelQr | LabelRect;

export interface LabelDrawing {
  /** In PDF points (1/72 inch). */
  width: number;
  height: number;
  /** The document title (the PDF's Title, the SVG's title). */
  title: string;
  items: LabelItem[];
}

/** A 4 x 2 inch label, the usual size of thermal label printers. */
export const LABEL_WIDTH = 288;
export const LABEL_HEIGHT = 144;
const MARGIN = 8;
const QR_QUIET_MODULES = 4;
const TEXT_X = 142;
const TEXT_WIDTH = LABEL_WIDTH - TEXT_X - MARGIN - 4;
const INK = '#000000';
const MUTED = '#444444';

/** Measures text in the standard fonts (their AFM metrics ship with pdfkit). */
let measurer: PDFKit.PDFDocument | undefined;
function textWidth(text: string, font: LabelFont, size: number): number {
  measurer ??= new PDFDocument({ autoFirstPage: false });
  return measurer.font(font).fontSize(size).widthOfString(text);
}

/** Text at its size, or smaller down to `minSize` until it fits `maxWidth`. */
function fitted(
  text: string,
  x: number,
  y: number,
  size: number,
  font: LabelFont,
  colour: string,
  maxWidth: number,
  minSize = 4,
): LabelText {
  let s = size;
  let width = textWidth(text, font, s);
  while (width > maxWidth && s > minSize) {
    s = Math.max(minSize, s - 0.5);
    width = textWidth(text, font, s);
  }
  return { kind: 'text', text, x, y, size: s, font, colour, width };
}

/** The dark modules of the QR code of `text`, and its size in modules. */
export function qrModules(text: string): { dark: [number, number][]; size: number } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const dark: [number, number][] = [];
  for (let row = 0; row < modules.size; row += 1)
    for (let col = 0; col < modules.size; col += 1) if (modules.get(row, col)) dark.push([row, col]);
  return { dark, size: modules.size };
}

/** The address a label's QR code opens: the web page that adds a device, with its id filled in. */
export function claimUrl(origin: string, deviceid: string): string {
  return `${origin}/add?device=${encodeURIComponent(deviceid)}`;
}

/** The label of one device. */
export function labelDrawing(fields: LabelFields): LabelDrawing {
  const qr = qrModules(fields.claimUrl);
  const qrBox = LABEL_HEIGHT - 2 * MARGIN;
  const module = qrBox / (qr.size + 2 * QR_QUIET_MODULES);
  const caption = (text: string, y: number) => fitted(text, TEXT_X, y, 7, 'Helvetica', MUTED, TEXT_WIDTH);
  return {
    width: LABEL_WIDTH,
    height: LABEL_HEIGHT,
    title: `Device ${fields.deviceid}`,
    items: [
      {
        kind: 'rect',
        x: 2,
        y: 2,
        width: LABEL_WIDTH - 4,
        height: LABEL_HEIGHT - 4,
        radius: 6,
        stroke: MUTED,
        lineWidth: 0.75,
      },
      {
        kind: 'qr',
        x: MARGIN + QR_QUIET_MODULES * module,
        y: MARGIN + QR_QUIET_MODULES * module,
        module,
        dark: qr.dark,
        size: qr.size,
      },
      caption('Device ID', 22),
      fitted(fields.deviceid, TEXT_X, 40, 17, 'Courier-Bold', INK, TEXT_WIDTH),
      caption('Setup password', 58),
      fitted(fields.setupPassword, TEXT_X, 76, 17, 'Courier-Bold', INK, TEXT_WIDTH),
      caption('Model / firmware', 94),
      fitted(`${fields.model} · ${fields.fw}`, TEXT_X, 106, 9.5, 'Helvetica-Bold', INK, TEXT_WIDTH),
      caption('Scan the code or open', 122),
      fitted(fields.claimUrl, TEXT_X, 132, 7, 'Helvetica', INK, TEXT_WIDTH),
    ],
  };
}
