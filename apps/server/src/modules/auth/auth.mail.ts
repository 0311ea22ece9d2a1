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

/** To the owner of an address someone tried to sign up with again; the links are to sign in and reset. */
export function signupAttemptMail(
  brand: BrandConfig,
  to: string,
  links: { signIn: string; resetPassword: string },
): MailMessage {
  return {
    to,
    subject: `Someone tried to create a ${brand.name} account with your address`,
    text: [
      `Someone tried to create a ${brand.name} account with this e-mail address, but you already have one, so no account was created and nothing was changed.`,
      '',
      'If it was you, sign in here:',
      links.signIn,
      '',
      'Forgotten your password? Choose a new one here:',
      links.resetPassword,
      '',
      'If it was not you, ignore this message: your account and password are unchanged.',
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
