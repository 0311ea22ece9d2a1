/**
 * Alert calls: a device user's subscription (GET/PUT /api/device/{id}/alerts), the phone SMS
 * alerts go to (verified by a code), the notification history, and the unsubscribe link.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AlertPhoneBodySchema,
  AlertPhoneConfirmBodySchema,
  AlertPhoneResponseSchema,
  AlertPhoneSchema,
  AlertSubscriptionBodySchema,
  AlertSubscriptionSchema,
  AlertSubscriptionSavedSchema,
  ALERT_MESSAGES,
  AnyDeviceParamsSchema,
  MessageResponseSchema,
  NotificationsResponseSchema,
  UnsubscribeParamsSchema,
} from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import { requireUser } from '../access/access.hooks';
import { signedInUser } from '../../plugins/auth';
import type { RateLimit } from '../../plugins/rate-limit';
import type { AlertsService } from './alerts.service';

export function registerAlertsRoutes(app: FastifyInstance, alerts: AlertsService, rateLimit: RateLimit): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['alerts'];
  // Calls that send an SMS or check a code are limited like sign-in.
  const limited = { config: { rateLimit } };

  r.get(
    '/api/device/:id/alerts',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: "The caller's alert subscription for the device (any device user; all off and Hourly when none)",
        params: AnyDeviceParamsSchema,
        response: { 200: AlertSubscriptionSchema, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => alerts.getSubscription(signedInUser(request).id, request.params.id),
  );

  r.put(
    '/api/device/:id/alerts',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: "Set the caller's alert subscription for the device: channels, what alerts, and the schedule",
        description:
          'schedule is 2592000 (Once), 600 (Every 10 Minutes), 3600 (Hourly) or 86400 (Daily): the first alert of a period goes at once, later ones in one digest at its end. sms needs a verified phone (409 otherwise).',
        params: AnyDeviceParamsSchema,
        body: AlertSubscriptionBodySchema,
        response: { 200: AlertSubscriptionSavedSchema, ...errorResponses(400, 401, 404, 409, 413) },
      },
    },
    async (request) => ({
      ...(await alerts.putSubscription(signedInUser(request).id, request.params.id, request.body)),
      message: ALERT_MESSAGES.saved,
    }),
  );

  r.get(
    '/api/account/notifications',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: "The caller's alert notifications, newest first: sent, refused by the device's quota, or failed",
        response: { 200: NotificationsResponseSchema, ...errorResponses(401) },
      },
    },
    (request) => alerts.notifications(signedInUser(request).id),
  );

  r.get(
    '/api/account/alert-phone',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'The verified phone SMS alerts go to, and one waiting for its code',
        response: { 200: AlertPhoneSchema, ...errorResponses(401) },
      },
    },
    (request) => alerts.getPhone(signedInUser(request).id),
  );

  r.post(
    '/api/account/alert-phone',
    {
      ...limited,
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Start verifying a phone for SMS alerts: a 6-digit code is sent to it (valid 10 minutes)',
        body: AlertPhoneBodySchema,
        response: { 200: AlertPhoneResponseSchema, ...errorResponses(400, 401, 403, 413, 429) },
      },
    },
    (request) => alerts.setPhone(signedInUser(request).id, request.brand, request.body.phone),
  );

  r.post(
    '/api/account/alert-phone/confirm',
    {
      ...limited,
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Verify the phone with the code sent to it; SMS alerts go there from now on',
        body: AlertPhoneConfirmBodySchema,
        response: { 200: AlertPhoneResponseSchema, ...errorResponses(400, 401, 403, 413, 429) },
      },
    },
    (request) => alerts.confirmPhone(signedInUser(request).id, request.body.code),
  );

  r.delete(
    '/api/account/alert-phone',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Remove the phone; SMS alerts are turned off on every subscription',
        response: { 200: AlertPhoneResponseSchema, ...errorResponses(401, 403) },
      },
    },
    (request) => alerts.removePhone(signedInUser(request).id),
  );

  r.post(
    '/api/alerts/unsubscribe/:token',
    {
      ...limited,
      schema: {
        tags,
        summary: "The link in every alert e-mail: turns that subscription's e-mail off, without signing in",
        params: UnsubscribeParamsSchema,
        response: { 200: MessageResponseSchema, ...errorResponses(400, 403, 404, 429) },
      },
    },
    (request) => alerts.unsubscribe(request.params.token),
  );
}
