/** The printable device label: an SVG with the device's id, model, firmware, setup password and a QR code to add it. */
import QRCode from 'qrcode';

export interface LabelFields {
  deviceid: string;
  model: string;
  fw: string;
  setupPassword: string;
  /** The address the QR code opens to add the device (the web route /add). */
  claimUrl: string;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text safe inside SVG elements and attribute values; control characters (invalid in XML) are dropped. */
export function escapeXml(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

/** The address a label's QR code opens: the web page that adds a device, with its id filled in. */
export function claimUrl(origin: string, deviceid: string): string {
  return `${origin}/add?device=${encodeURIComponent(deviceid)}`;
}

/** One SVG path of the dark modules of a QR code, one unit per module, at (x, y). */
function qrPath(text: string): { d: string; size: number } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const parts: string[] = [];
  for (let row = 0; row < modules.size; row += 1) {
    for (let col = 0; col < modules.size; col += 1) {
      if (modules.get(row, col)) parts.push(`M${col} ${row}h1v1h-1z`);
    }
  }
  return { d: parts.join(''), size: modules.size };
}

const WIDTH = 600;
const HEIGHT = 260;
const QR_BOX = 220;
const QR_QUIET = 4;

/** The label as an SVG document (every text escaped). */
export function deviceLabelSvg(fields: LabelFields): string {
  const qr = qrPath(fields.claimUrl);
  const scale = QR_BOX / (qr.size + 2 * QR_QUIET);
  const row = (y: number, label: string, value: string, mono = false) =>
    `<text x="270" y="${y}" font-size="14" fill="#555">${escapeXml(label)}</text>` +
    `<text x="270" y="${y + 24}" font-size="22" font-weight="bold"${mono ? ' font-family="monospace"' : ''}>${escapeXml(value)}</text>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="Helvetica, Arial, sans-serif">`,
    `<title>${escapeXml(`Device ${fields.deviceid}`)}</title>`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
    `<g transform="translate(20 20) scale(${scale.toFixed(6)})"><rect width="${qr.size + 2 * QR_QUIET}" height="${qr.size + 2 * QR_QUIET}" fill="#fff"/>`,
    `<path transform="translate(${QR_QUIET} ${QR_QUIET})" fill="#000" shape-rendering="crispEdges" d="${qr.d}"/></g>`,
    row(40, 'Device ID', fields.deviceid, true),
    row(98, 'Model / firmware', `${fields.model}  ${fields.fw}`),
    row(156, 'Setup password', fields.setupPassword, true),
    `<text x="20" y="${HEIGHT - 6}" font-size="11" fill="#555">${escapeXml(fields.claimUrl)}</text>`,
    '</svg>',
    '',
  ].join('\n');
}
