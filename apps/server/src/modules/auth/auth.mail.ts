/** Texts of the messages the sign-in flows send. */
import type { BrandConfig } from '@portal/core';
import type { MailMessage } from '../mail/mail.service';

export function verificationMail(brand: BrandConfig, to: string, link: string): MailMessage {
  return {
    to,
    subject: `Verify your e-mail address for ${brand.name}`,
    text: [
      `Welcome to ${brand.name}.`,
      '',
      'Open this link to verify your e-mail address:',
      link,
      '',
      'The link is valid for 24 hours. If you did not create an account, ignore this message.',
    ].join('\n'),
  };
}

export function resetMail(brand: BrandConfig, to: string, link: string): MailMessage {
  return {
    to,
    subject: `Reset your ${brand.name} password`,
    text: [
      `Someone asked to reset the password of your ${brand.name} account.`,
      '',
      'Open this link to choose a new password:',
      link,
      '',
      'The link is valid for 1 hour and works once. If you did not ask for it, ignore this message.',
    ].join('\n'),
  };
}

export function signInCodeSms(brand: BrandConfig, code: string): string {
  return `${code} is your ${brand.name} sign-in code.`;
}

export function enrolmentCodeSms(brand: BrandConfig, code: string): string {
  return `${code} is your ${brand.name} code to turn on SMS sign-in codes.`;
}

export function stepUpCodeSms(brand: BrandConfig, code: string): string {
  return `${code} is your ${brand.name} code to confirm this request. Nobody from ${brand.name} will ask you for it.`;
}
