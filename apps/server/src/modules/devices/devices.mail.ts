/** Texts of the messages the device calls send. */
import type { BrandConfig, DeviceRole } from '@portal/core';
import type { MailMessage } from '../mail/mail.service';

export function deviceInviteMail(
  brand: BrandConfig,
  to: string,
  invitedBy: string,
  deviceName: string,
  permission: DeviceRole,
  signupLink: string,
): MailMessage {
  return {
    to,
    subject: `You have been given access to a device on ${brand.name}`,
    text: [
      `${invitedBy} has given you ${permission} access to the device ${deviceName} on ${brand.name}.`,
      '',
      'Create your account with this e-mail address to see it:',
      signupLink,
      '',
      'The access is granted when you sign up. If you did not expect this message, ignore it.',
    ].join('\n'),
  };
}
