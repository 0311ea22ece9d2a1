/**
 * What the two MQTT transports (mqtt-embedded.ts, mqtt-external.ts) share: a device's message read
 * and handed to the services (data and diagnostics to the ingest writer, acknowledgements to
 * delivery, contacts to delivery after a data publish), and a command as the payload published on
 * dev/{id}/cmd (QoS 1).
 */
import { RECORD_LIMITS, type CommandMessage } from '@portal/core';
import type { DeliveryService } from '../modules/delivery/delivery.service';
import type { TelemetryService } from '../modules/telemetry/telemetry.service';
import type { IngestItem } from '../modules/telemetry/ingest-batch';

/** A running MQTT transport, as portal.ts starts and stops it. */
export interface MqttIngest {
  /** The embedded broker's port; null with an external broker. */
  port: number | null;
  close(): Promise<void>;
}

/** The services a device message reaches: the ingest writer and the delivery module. */
export interface DeviceServices {
  telemetry: TelemetryService;
  delivery: DeliveryService;
}

/** Reads one device message and hands it to the writer; resolves once it is stored or logged. */
export function handleDeviceMessage(
  { telemetry, delivery }: DeviceServices,
  deviceId: string,
  kind: string,
  payload: Buffer,
  basic: boolean,
): Promise<void> {
  if (kind === 'ack') return handleAck(telemetry, delivery, deviceId, payload);
  // No async frame here: one would keep the payload, its text and its parsed body alive until
  // the batch commits; the writer keeps only what it stores.
  const stored = telemetry.ingest(readMessage(deviceId, kind, payload, basic, telemetry.now()));
  if (kind !== 'data') return stored.then(() => undefined);
  return stored.then((outcome) => {
    if (outcome.stored + outcome.duplicates > 0) delivery.afterContact(deviceId);
  });
}

/** A device's data or diagnostics message as the writer takes it (or why it cannot be read). */
function readMessage(deviceId: string, kind: string, payload: Buffer, basic: boolean, receivedAt: Date): IngestItem {
  const item: IngestItem = { deviceId, kind: kind === 'diag' ? 'diag' : 'data', basic, receivedAt, source: 'mqtt' };
  if (payload.length > RECORD_LIMITS.maxPayloadBytes) {
    item.error = `Payload of ${payload.length} bytes is over the limit of ${RECORD_LIMITS.maxPayloadBytes}`;
    return item;
  }
  try {
    item.text = payload.toString('utf8');
    item.body = JSON.parse(item.text);
  } catch {
    delete item.text;
    item.error = 'The payload is not valid JSON';
  }
  return item;
}

async function handleAck(
  telemetry: TelemetryService,
  delivery: DeliveryService,
  deviceId: string,
  payload: Buffer,
): Promise<void> {
  let body: unknown;
  try {
    body = JSON.parse(payload.toString('utf8'));
  } catch {
    await telemetry.log(deviceId, 'refused', 'mqtt ack: not valid JSON');
    return;
  }
  await delivery.acknowledge(deviceId, body);
}

export function commandPayload(message: CommandMessage): Buffer {
  return Buffer.from(JSON.stringify(message), 'utf8');
}
