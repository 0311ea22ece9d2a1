/**
 * Device labels and packing slips (DESIGN.md section 5): a device's label as a PDF or a PNG of the
 * same drawing, the labels of a batch as one PDF, and the packing slip of a shipment. Every label
 * download is written to the devices' provisioning log. Unknown ids are named in a 404 and
 * nothing is made. A label's QR code opens the add page on the configured host of the device's
 * brand, whoever prints it and from whichever host; without PUBLIC_URL the answer carries a warning.
 */
import {
  DEVICE_MESSAGES,
  LABEL_CONTENT_TYPES,
  PROV_MESSAGES,
  PUBLIC_ADDRESS_MESSAGES,
  labelFileName,
  labelsFileName,
  packingSlipFileName,
  unknownDevicesMessage,
  type LabelFormat,
  type PackingSlipBody,
} from '@portal/core';
import type { Clock } from '../../clock';
import type { Db } from '../../db/db';
import { AppError } from '../../errors';
import type { PublicAddresses } from '../../public-addresses';
import { claimUrl, labelDrawing, type LabelDrawing } from './label-drawing';
import { labelPng, labelsPdf } from './label-render';
import { packingSlipPdf } from './packing-slip';
import * as repo from './provisioning.repository';

export interface ProvisioningDeps {
  db: Db;
  clock: Clock;
  /** The configured origin of each brand (label QR codes), and whether PUBLIC_URL is set. */
  addresses: Pick<PublicAddresses, 'originOf' | 'configured'>;
}

/** A file the routes send as an attachment. */
export interface FileAnswer {
  filename: string;
  contentType: string;
  body: Buffer;
  /** Sent as the X-Portal-Warning header: what about the file will not work (labels without PUBLIC_URL). */
  warning?: string;
}

/** What labels and packing slips offer the routes. */
export interface ProvisioningService {
  /** One device's label, as a PDF page or a PNG; the download is logged. */
  label(id: string, format: LabelFormat, author: string | null): Promise<FileAnswer>;
  /** The labels of a batch as one PDF, one page per device in the order given; each download is logged. */
  labels(ids: readonly string[], author: string | null): Promise<FileAnswer>;
  /** The packing slip of the devices (in the order given), dated today (UTC), from the brand. */
  packingSlip(body: PackingSlipBody, sender: string): Promise<FileAnswer>;
}

export function createProvisioningService(deps: ProvisioningDeps): ProvisioningService {
  const { db, clock, addresses } = deps;
  /** Label answers warn while no public address is configured: their QR codes open localhost. */
  const labelWarning = () => (addresses.configured ? {} : { warning: PUBLIC_ADDRESS_MESSAGES.labelWithoutPublicUrl });

  /**
   * The devices of `ids` in that order. Unknown ids: 404, 'Device not found' for one device
   * asked by its path, else naming every unknown id of the list.
   */
  async function devicesInOrder(ids: readonly string[], asList: boolean): Promise<repo.LabelDeviceRow[]> {
    const rows = await repo.findLabelDevices(db, ids);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const missing = ids.filter((id) => !byId.has(id));
    if (missing.length > 0)
      throw new AppError(404, 'NOT_FOUND', asList ? unknownDevicesMessage(missing) : DEVICE_MESSAGES.notFound);
    return ids.map((id) => byId.get(id)!);
  }

  const drawingOf = (row: repo.LabelDeviceRow): LabelDrawing =>
    labelDrawing({
      deviceid: row.id,
      model: row.model,
      fw: row.fw,
      setupPassword: row.setup_password,
      claimUrl: claimUrl(addresses.originOf(row.brand), row.id),
    });

  return {
    async label(id, format, author) {
      const [row] = await devicesInOrder([id], false);
      const drawing = drawingOf(row!);
      const body = format === 'png' ? labelPng(drawing) : await labelsPdf([drawing], drawing.title);
      await repo.insertProvLogLines(db, [id], PROV_MESSAGES.labelDownloaded, author, clock.now());
      return { filename: labelFileName(id, format), contentType: LABEL_CONTENT_TYPES[format], body, ...labelWarning() };
    },

    async labels(ids, author) {
      const rows = await devicesInOrder(ids, true);
      const body = await labelsPdf(
        rows.map((row) => drawingOf(row)),
        `Labels of ${ids.length} device${ids.length === 1 ? '' : 's'}`,
      );
      await repo.insertProvLogLines(db, ids, PROV_MESSAGES.labelDownloaded, author, clock.now());
      return { filename: labelsFileName(ids), contentType: LABEL_CONTENT_TYPES.pdf, body, ...labelWarning() };
    },

    async packingSlip(body, sender) {
      const rows = await devicesInOrder(body.deviceList, true);
      const date = clock.now().toISOString().slice(0, 10);
      const pdf = await packingSlipPdf({
        sender,
        date,
        reference: body.reference || null,
        address: body.address || null,
        devices: rows.map((r) => ({ deviceid: r.id, model: r.model, fw: r.fw })),
      });
      return { filename: packingSlipFileName(date), contentType: LABEL_CONTENT_TYPES.pdf, body: pdf };
    },
  };
}
