/** The message sent when someone is given access to a device or a group (a member, or an invitation). */
import type { BrandConfig, DeviceRole } from '@portal/core';
import type { MailMessage } from './mail.service';

export interface AccessGranted {
  brand: BrandConfig;
  to: string;
  /** The e-mail address of who gave the access. */
  by: string;
  what: 'device' | 'group';
  name: string;
  permission: DeviceRole;
  /** Opens what was shared, or the sign-up page for an invitation. */
  link: string;
  /** True for an address without an account: the access comes with sign-up. */
  invited: boolean;
}

export function accessGrantedMail(grant: AccessGranted): MailMessage {
  const { brand, what } = grant;
  return {
    to: grant.to,
    subject: `You have been given access to a ${what} on ${brand.name}`,
    text: [
      `${grant.by} has given you ${grant.permission} access to the ${what} ${grant.name} on ${brand.name}.`,
      '',
      grant.invited ? 'Create your account with this e-mail address to see it:' : 'Open it here:',
      grant.link,
      '',
      grant.invited
        ? 'The access is granted when you sign up. If you did not expect this message, ignore it.'
        : 'If you did not expect this message, ignore it.',
    ].join('\n'),
  };
}
