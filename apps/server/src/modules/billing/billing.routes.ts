/** Billing calls (spec 2 section 7, DESIGN.md section 5): parse, authorise, call the service. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AnyDeviceParamsSchema,
  BillingAdminDeviceResponseSchema,
  BillingCustomerResponseSchema,
  BillingPortalResponseSchema,
  InvoicePaidResponseSchema,
  InvoiceParamsSchema,
  STAFF_ADMIN_GROUP,
  UpdatePlanBodySchema,
  UpdatePlanResponseSchema,
  UpdateSubscriptionBodySchema,
  UpdateSubscriptionResponseSchema,
} from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import { requireGroup, requireUser } from '../access/access.hooks';
import { signedInUser } from '../../plugins/auth';
import { BinaryFileSchema, fileResponse } from '../../plugins/swagger';
import type { BillingService } from './billing.service';

export function registerBillingRoutes(app: FastifyInstance, billing: BillingService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const requireStaff = requireGroup(STAFF_ADMIN_GROUP);

  r.get(
    '/api/billing-get-customer',
    {
      onRequest: requireUser,
      schema: {
        tags: ['billing'],
        summary: "The signed-in user's devices with their plans and subscriptions, the prices and their invoices",
        description:
          "Every device the caller holds a role on, directly or through groups: name, model, the caller's groups holding it, plan, trial days left (server computed), subscription (kind, status, period, cancellation at the period's end, grace end while awaiting payment) and whether the caller may change it (device ADMIN only). Prices are the Hosted plan's (monthly, yearly, lifetime) in the configured currency (CURRENCY). Invoices are those of the caller's subscriptions, newest first.",
        response: { 200: BillingCustomerResponseSchema, ...errorResponses(401) },
      },
    },
    (request) => billing.customer(signedInUser(request)),
  );

  r.post(
    '/api/billing-update-subscription',
    {
      onRequest: requireUser,
      schema: {
        tags: ['billing'],
        summary: 'Subscribe, change or cancel the subscription of one or more devices (all or nothing)',
        description:
          "monthly, yearly or lifetime: the device is Hosted at once and an invoice is issued, due in 30 days; unpaid after that the device returns to its previous plan. Another kind replaces the running subscription from now (a new invoice, the old one's open invoices void). 'none' cancels at the period's end: the device then returns to its trial state while trial days remain, else Basic; asking again for the same kind withdraws the cancellation. A lifetime subscription never ends: cancelling or changing it is 409. A device the caller holds no role on is 404 'Device not found', a role below ADMIN 403; one refusal changes nothing.",
        body: UpdateSubscriptionBodySchema,
        response: { 200: UpdateSubscriptionResponseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => billing.updateSubscription(signedInUser(request), request.body),
  );

  r.post(
    '/api/billing-create-stripe-portal',
    {
      onRequest: requireUser,
      schema: {
        tags: ['billing'],
        summary: "Where the customer manages billing: the payment provider's portal",
        description:
          "With the built-in invoicing provider (BILLING_PROVIDER=invoicing) the portal's own invoices page, /account/invoices.",
        response: { 200: BillingPortalResponseSchema, ...errorResponses(401) },
      },
    },
    (request) => billing.portalUrl(signedInUser(request), request.linkOrigin),
  );

  r.get(
    '/api/billing-invoice/:invoiceid',
    {
      onRequest: requireUser,
      schema: {
        tags: ['billing'],
        summary: 'An invoice as a PDF (its owner or staff)',
        description:
          "Number, dates, customer, device, period, amount in the invoice's currency and status. Anyone but the invoice's owner and staff (senquip_admin) gets 404 'Invoice not found'.",
        params: InvoiceParamsSchema,
        response: {
          200: fileResponse(
            'PDF document, sent as an attachment INV-{number}.pdf',
            ['application/pdf'],
            BinaryFileSchema,
          ),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request, reply) => {
      const { filename, pdf } = await billing.invoiceDocument(
        signedInUser(request),
        request.params.invoiceid,
        request.brand.name,
      );
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf as unknown as string);
    },
  );

  // ---- staff (senquip_admin) ----------------------------------------------------------

  r.post(
    '/api/billing-update-plan',
    {
      onRequest: requireStaff,
      schema: {
        tags: ['billing'],
        summary: 'Staff: put a device on Hosted, Trial or Basic (recorded with who and why)',
        description:
          "Hosted: tier PREMIUM with no invoice. Trial: tier TRIAL; a device whose trial is over starts a fresh 90-day trial. Basic: tier BASIC_ONLY whatever its trial days. A running subscription ends at once and its open invoices are void. senquip_admin only (403 otherwise); an unknown device is 404 'Device not found'.",
        body: UpdatePlanBodySchema,
        response: { 200: UpdatePlanResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => billing.updatePlan(signedInUser(request), request.body),
  );

  r.post(
    '/api/billing-invoice-paid/:invoiceid',
    {
      onRequest: requireStaff,
      schema: {
        tags: ['billing'],
        summary: 'Staff: mark an invoice paid',
        description:
          'The subscription becomes active once none of its invoices is open. Marking a paid invoice again changes nothing; a void invoice (its subscription ended) is 409. senquip_admin only (403 otherwise).',
        params: InvoiceParamsSchema,
        response: { 200: InvoicePaidResponseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    (request) => billing.markInvoicePaid(signedInUser(request), request.params.invoiceid),
  );

  r.get(
    '/api/billing-admin-device/:id',
    {
      onRequest: requireStaff,
      schema: {
        tags: ['billing'],
        summary: "Staff: a device's plan, subscription, invoices and billing events",
        description: 'senquip_admin only (403 otherwise); the newest 200 events.',
        params: AnyDeviceParamsSchema,
        response: { 200: BillingAdminDeviceResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    (request) => billing.adminDevice(signedInUser(request), request.params.id),
  );
}
