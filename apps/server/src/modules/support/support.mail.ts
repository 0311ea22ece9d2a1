/** The e-mail a support request becomes: who sent it, on which brand, and the device's facts and log. */
import { SUPPORT_LIMITS, type BrandConfig, type DeviceRole, type PlanName } from '@portal/core';
import type { MailMessage } from '../mail/mail.service';

/** What a request says about its device: facts always, the newest server-log lines when attached. */
export interface SupportDevice {
  id: string;
  name: string;
  model: string;
  fw: string;
  plan: PlanName;
  /** Epoch seconds of the device's last contact, or null (never). */
  lastContact: number | null;
  /** The sender's role on it. */
  role: DeviceRole;
  /** Newest first; null when the sender may not read the log (not attached). */
  serverLog: { ts: number; kind: string; message: string }[] | null;
}

export interface SupportRequestInput {
  to: string;
  from: string;
  brand: BrandConfig;
  /** The portal's address under the sender's brand (links to the device page). */
  origin: string;
  subject: string;
  message: string;
  device: SupportDevice | null;
  now: Date;
}

/** '2026-03-01 10:20:05 UTC'. */
function utcSeconds(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function deviceLines(device: SupportDevice, origin: string): string[] {
  const lines = [
    `Device ${device.id}`,
    `  Name: ${device.name}`,
    `  Model: ${device.model}`,
    `  Firmware: ${device.fw}`,
    `  Plan: ${device.plan}`,
    `  Last contact: ${device.lastContact === null ? 'never' : utcSeconds(device.lastContact * 1000)}`,
    `  Sender's role: ${device.role}`,
    `  Page: ${origin}/data/${encodeURIComponent(device.id)}`,
    '',
  ];
  if (device.serverLog === null) {
    lines.push("Server log: not attached (only the device's administrators read it, on a plan with a server log).");
  } else if (device.serverLog.length === 0) {
    lines.push('Server log: nothing logged for this device yet.');
  } else {
    lines.push(`Recent server log (newest first, at most ${SUPPORT_LIMITS.serverLogLines} lines):`);
    for (const entry of device.serverLog) {
      lines.push(`${utcSeconds(entry.ts * 1000)}  [${entry.kind}]  ${entry.message.replace(/\r?\n/g, ' ')}`);
    }
  }
  return lines;
}

/** The message to the support address; replies go to the sender. */
export function supportRequestMail(input: SupportRequestInput): MailMessage {
  const about = input.device ? ` (${input.device.id})` : '';
  const text = [
    `Support request from ${input.from} on ${input.brand.name} (${input.origin}), ${utcSeconds(input.now.getTime())}.`,
    'Reply to this e-mail to answer them.',
    '',
    `Subject: ${input.subject}`,
    '',
    input.message,
    '',
    '----',
    ...(input.device ? deviceLines(input.device, input.origin) : ['No device named.']),
  ].join('\n');
  return {
    to: input.to,
    replyTo: input.from,
    subject: `[${input.brand.name} support] ${input.subject}${about}`,
    text,
  };
}
