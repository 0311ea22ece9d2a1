/**
 * Alert contracts (issue 14, DESIGN.md section 5 'Alerts'): a user's subscription to a device's
 * alerts, the verified phone SMS alerts go to, the notification history, and the unsubscribe link.
 */
import { z } from 'zod';
import { ALERT_SCHEDULE_OPTIONS } from '../domain/constants';
import { ALERT_CHANNELS, isAlertSchedule } from '../domain/alerts';
import { MfaCodeSchema, PhoneSchema } from './auth';
import { safeString } from './fields';

export const ALERT_SCHEDULE_MESSAGE = `schedule must be one of ${ALERT_SCHEDULE_OPTIONS.map((o) => `${o.value} (${o.label})`).join(', ')}`;

/** One of the spec's schedule seconds: 2592000 Once, 600 Every 10 Minutes, 3600 Hourly, 86400 Daily. */
export const AlertScheduleSchema = z
  .number({ message: ALERT_SCHEDULE_MESSAGE })
  .min(0, ALERT_SCHEDULE_MESSAGE)
  .max(Math.max(...ALERT_SCHEDULE_OPTIONS.map((o) => o.value)), ALERT_SCHEDULE_MESSAGE)
  .refine(isAlertSchedule, { message: ALERT_SCHEDULE_MESSAGE });

/** What a user is alerted about on a device, how, and how often. */
export const AlertSubscriptionFields = {
  /** Alerts by e-mail. */
  email: z.boolean(),
  /** Alerts by SMS (to the user's verified phone). */
  sms: z.boolean(),
  /** The device's ALERT, WARN and ALARM events. */
  events: z.boolean(),
  /** A key crossing its display-settings warning or alarm limits. */
  limits: z.boolean(),
  /** The device going offline. */
  offline: z.boolean(),
  schedule: AlertScheduleSchema,
};

/** PUT /api/device/{id}/alerts: the caller's whole subscription for the device. */
export const AlertSubscriptionBodySchema = z.strictObject(AlertSubscriptionFields);
export type AlertSubscriptionBody = z.infer<typeof AlertSubscriptionBodySchema>;

/** GET/PUT /api/device/{id}/alerts: the caller's subscription (all off, Hourly, when none is saved). */
export const AlertSubscriptionSchema = z.object({
  deviceid: z.string(),
  ...AlertSubscriptionFields,
  schedule: z.number().int(),
  /** The caller's verified phone, SMS alerts go there; null: none verified, so no SMS goes. */
  verifiedPhone: z.string().nullable(),
});
export type AlertSubscription = z.infer<typeof AlertSubscriptionSchema>;

/** PUT /api/device/{id}/alerts: the subscription saved, and the message the 'Success' dialog shows (ERR-06). */
export const AlertSubscriptionSavedSchema = AlertSubscriptionSchema.extend({ message: z.string() });
export type AlertSubscriptionSaved = z.infer<typeof AlertSubscriptionSavedSchema>;

export const AlertChannelSchema = z.enum(ALERT_CHANNELS);
/** sent; refused by the device's monthly quota; failed: the mail or SMS service did not take it. */
export const NOTIFICATION_STATUSES = ['sent', 'refused', 'failed'] as const;
export const NotificationStatusSchema = z.enum(NOTIFICATION_STATUSES);
export type NotificationStatus = z.infer<typeof NotificationStatusSchema>;

/** One alert e-mail or SMS to the caller: sent, refused by the device's monthly quota, or failed. */
export const NotificationSchema = z.object({
  id: z.number().int(),
  /** When it was sent or refused (epoch s). */
  ts: z.number(),
  deviceid: z.string(),
  deviceName: z.string(),
  channel: AlertChannelSchema,
  /** 'first': the first alert of a schedule period, sent at once; 'digest': the rest of the period. */
  kind: z.enum(['first', 'digest']),
  subject: z.string(),
  status: NotificationStatusSchema,
});
export type Notification = z.infer<typeof NotificationSchema>;

/** Notifications kept in the history the Account page shows (newest first). */
export const NOTIFICATION_HISTORY_LIMIT = 100;

/** GET /api/account/notifications: the caller's newest notifications, newest first. */
export const NotificationsResponseSchema = z.object({ notifications: z.array(NotificationSchema) });
export type NotificationsResponse = z.infer<typeof NotificationsResponseSchema>;

/** GET /api/account/alert-phone: the verified phone, and one waiting for its code. */
export const AlertPhoneSchema = z.object({
  phone: z.string().nullable(),
  pendingPhone: z.string().nullable(),
});
export type AlertPhone = z.infer<typeof AlertPhoneSchema>;

/** POST /api/account/alert-phone: a phone to verify; a code goes to it by SMS. */
export const AlertPhoneBodySchema = z.strictObject({ phone: PhoneSchema });
export type AlertPhoneBody = z.infer<typeof AlertPhoneBodySchema>;

/** POST /api/account/alert-phone/confirm: the code sent to the phone. */
export const AlertPhoneConfirmBodySchema = z.strictObject({ code: MfaCodeSchema });
export type AlertPhoneConfirmBody = z.infer<typeof AlertPhoneConfirmBodySchema>;

/** An answer with the message to show and the phone as it now is. */
export const AlertPhoneResponseSchema = z.object({ message: z.string(), phone: AlertPhoneSchema });
export type AlertPhoneResponse = z.infer<typeof AlertPhoneResponseSchema>;

/** Unsubscribe tokens: 32 random bytes in base64url. */
export const UNSUBSCRIBE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** POST /api/alerts/unsubscribe/{token}: the token of an alert e-mail's link. */
export const UnsubscribeParamsSchema = z.strictObject({
  token: safeString().regex(UNSUBSCRIBE_TOKEN_PATTERN, 'This unsubscribe link is invalid.'),
});

export const ALERT_MESSAGES = {
  saved: 'Your alert settings for this device are saved.',
  smsNeedsPhone: 'Verify a phone on the Account page (Notifications) before choosing SMS alerts.',
  phoneCodeSent: (phone: string) => `We have sent a code to ${phone}. Enter it to verify the phone.`,
  phoneVerified: (phone: string) => `${phone} is verified. SMS alerts go to it.`,
  phoneRemoved: 'The phone is removed. No SMS alerts go out until you verify one.',
  codeInvalid: 'Invalid Code',
  unsubscribed: (device: string) => `You will no longer receive alert e-mails for ${device}.`,
  unsubscribeInvalid: 'This unsubscribe link is invalid.',
} as const;
