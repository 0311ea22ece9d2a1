/**
 * Renders label drawings (label-drawing.ts): as PDF pages with pdfkit, and as a PNG by way of an
 * SVG of the same drawing rendered with resvg. The PDF uses the standard Helvetica and Courier
 * (no font files); the PNG's texts come from the machine's fonts (Liberation or DejaVu, installed
 * with fontconfig on Debian), each stretched to the width the PDF gives it, so both renderings
 * place every text alike. Without any font on the machine the PNG still has its QR code and
 * border but no texts.
 */
import PDFDocument from 'pdfkit';
import { Resvg } from '@resvg/resvg-js';
import type { LabelDrawing, LabelFont, LabelItem } from './label-drawing';
import { pdfBuffer } from './pdf';

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text safe inside SVG elements and attribute values; control characters (invalid in XML) are dropped. */
export function escapeXml(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

/** Fonts of the PNG standing in for the PDF's standard fonts: metric-compatible ones first. */
const SVG_FONTS: Record<LabelFont, { family: string; weight: 'normal' | 'bold' }> = {
  Helvetica: { family: "'Liberation Sans', Arimo, Helvetica, Arial, 'DejaVu Sans', sans-serif", weight: 'normal' },
  'Helvetica-Bold': { family: "'Liberation Sans', Arimo, Helvetica, Arial, 'DejaVu Sans', sans-serif", weight: 'bold' },
  'Courier-Bold': {
    family: "'Liberation Mono', Cousine, 'Courier New', Courier, 'DejaVu Sans Mono', monospace",
    weight: 'bold',
  },
};

const n = (v: number) => Number(v.toFixed(3)).toString();

function svgItem(item: LabelItem): string {
  switch (item.kind) {
    case 'rect':
      return `<rect x="${n(item.x)}" y="${n(item.y)}" width="${n(item.width)}" height="${n(item.height)}" rx="${n(item.radius)}" fill="none" stroke="${item.stroke}" stroke-width="${n(item.lineWidth)}"/>`;
    case 'qr': {
      const d = item.dark.map(([row, col]) => `M${col} ${row}h1v1h-1z`).join('');
      return `<path transform="translate(${n(item.x)} ${n(item.y)}) scale(${n(item.module)})" fill="#000" shape-rendering="crispEdges" d="${d}"/>`;
    }
    case 'text': {
      const font = SVG_FONTS[item.font];
      return `<text x="${n(item.x)}" y="${n(item.y)}" font-family="${font.family}" font-weight="${font.weight}" font-size="${n(item.size)}" fill="${item.colour}" textLength="${n(item.width)}" lengthAdjust="spacingAndGlyphs">${escapeXml(item.text)}</text>`;
    }
  }
}

/** The drawing as an SVG document, in points (every text escaped). */
export function labelSvg(drawing: LabelDrawing): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${drawing.width}pt" height="${drawing.height}pt" viewBox="0 0 ${drawing.width} ${drawing.height}">`,
    `<title>${escapeXml(drawing.title)}</title>`,
    `<rect width="${drawing.width}" height="${drawing.height}" fill="#fff"/>`,
    ...drawing.items.map(svgItem),
    '</svg>',
    '',
  ].join('\n');
}

/** Pixels per inch of the PNG: 300, the resolution of label printers (1200 x 600 for a 4 x 2 inch label). */
export const LABEL_PNG_DPI = 300;

/** The drawing as a PNG at LABEL_PNG_DPI. */
export function labelPng(drawing: LabelDrawing): Buffer {
  const resvg = new Resvg(labelSvg(drawing), {
    fitTo: { mode: 'width', value: Math.round((drawing.width * LABEL_PNG_DPI) / 72) },
    background: '#ffffff',
    font: { loadSystemFonts: true, sansSerifFamily: 'Liberation Sans', monospaceFamily: 'Liberation Mono' },
    logLevel: 'off',
  });
  return resvg.render().asPng();
}

function drawItem(doc: PDFKit.PDFDocument, item: LabelItem): void {
  switch (item.kind) {
    case 'rect':
      doc
        .roundedRect(item.x, item.y, item.width, item.height, item.radius)
        .lineWidth(item.lineWidth)
        .strokeColor(item.stroke)
        .stroke();
      return;
    case 'qr':
      for (const [row, col] of item.dark)
        doc.rect(item.x + col * item.module, item.y + row * item.module, item.module, item.module);
      doc.fillColor('#000000').fill();
      return;
    case 'text':
      doc
        .font(item.font)
        .fontSize(item.size)
        .fillColor(item.colour)
        .text(item.text, item.x, item.y, { lineBreak: false, baseline: 'alphabetic' });
      return;
  }
}

/** The drawings as one PDF, one page each, each page the drawing's size. */
export function labelsPdf(drawings: readonly LabelDrawing[], title: string): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, margin: 0, info: { Title: title }, compress: true });
  for (const drawing of drawings) {
    doc.addPage({ size: [drawing.width, drawing.height], margin: 0 });
    for (const item of drawing.items) drawItem(doc, item);
  }
  return pdfBuffer(doc);
}
