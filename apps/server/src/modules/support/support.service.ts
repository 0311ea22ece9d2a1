/**
 * Support requests (POST /api/support-request): a signed-in user's subject and message, mailed to
 * the support address of configuration with the user's address as Reply-To. A request about a
 * device the user holds a role on carries the device's facts, and its newest server-log lines
 * when the user may read that log (core supportAttachment); any other device id is 404 'Device
 * not found', as every device call answers it.
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  SUPPORT_LIMITS,
  SUPPORT_MESSAGES,
  dataPlan,
  devicePlan,
  supportAttachment,
  supportSentText,
  type BrandConfig,
  type SupportRequestBody,
  type SupportRequestResponse,
} from '@portal/core';
import type { Clock } from '../../clock';
import { AppError } from '../../errors';
import { deviceNotFound, type AccessService } from '../access/access.service';
import type { DeviceLogService } from '../device-log/device-log.service';
import type { DeviceRegistry } from '../devices/devices.registry';
import type { Mailer } from '../mail/mail.service';
import { supportRequestMail, type SupportDevice } from './support.mail';

export interface SupportService {
  /**
   * Mails the sender's request to the support address (502 when the mail fails); about a device
   * it carries the device's facts and, when the sender may read it, its newest server-log lines.
   */
  send(
    sender: SupportSender,
    brand: BrandConfig,
    origin: string,
    body: SupportRequestBody,
  ): Promise<SupportRequestResponse>;
}

export interface SupportSender {
  id: string;
  email: string;
}

export function createSupportService(deps: {
  clock: Clock;
  access: Pick<AccessService, 'roleOf'>;
  devices: Pick<DeviceRegistry, 'getDevice'>;
  deviceLog: Pick<DeviceLogService, 'list' | 'write'>;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** Where requests go (SUPPORT_EMAIL). */
  supportEmail: string;
}): SupportService {
  const { clock, access, devices, deviceLog, mailer, log } = deps;

  /** The device's facts and, when the sender may read it, its newest log lines; 404 for a stranger. */
  async function aboutDevice(userId: string, deviceId: string): Promise<SupportDevice> {
    const role = await access.roleOf(userId, deviceId);
    const device = role === null ? null : await devices.getDevice(deviceId);
    if (role === null || device === null) throw deviceNotFound();
    const nowMs = clock.now().getTime();
    // The server log's own rule: the role's capability on the plan the device's data follows.
    const attachLog = supportAttachment(role, dataPlan(device, nowMs)) === 'factsAndServerLog';
    return {
      id: device.id,
      name: device.name,
      model: device.model,
      fw: device.fw,
      plan: devicePlan(device, nowMs),
      lastContact: device.last_contact,
      role,
      serverLog: attachLog ? (await deviceLog.list(device.id, SUPPORT_LIMITS.serverLogLines)).entries : null,
    };
  }

  return {
    async send(
      sender: SupportSender,
      brand: BrandConfig,
      origin: string,
      body: SupportRequestBody,
    ): Promise<SupportRequestResponse> {
      const device = body.deviceid === undefined ? null : await aboutDevice(sender.id, body.deviceid);
      const mail = supportRequestMail({
        to: deps.supportEmail,
        from: sender.email,
        brand,
        origin,
        subject: body.subject,
        message: body.message,
        device,
        now: clock.now(),
      });
      try {
        await mailer.send(mail);
      } catch (error) {
        log.error({ err: error, supportRequest: { from: sender.email } }, 'Support request not sent');
        throw new AppError(502, 'INTERNAL', SUPPORT_MESSAGES.notSent);
      }
      if (device) await deviceLog.write(device.id, 'support', `Support request sent by ${sender.email}`);
      return {
        message: supportSentText(sender.email),
        deviceid: device?.id ?? null,
        attached: device === null ? 'none' : device.serverLog === null ? 'facts' : 'factsAndServerLog',
      };
    },
  };
}
