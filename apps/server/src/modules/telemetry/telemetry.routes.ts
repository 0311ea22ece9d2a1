/** Device data calls: data, diagnostics, server log, the command queue (rpc) and metrics. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Readable } from 'node:stream';
import {
  DeleteDataBodySchema,
  EXPORT_FORMATS,
  RpcCancelSchema,
  RpcRequestSchema,
  TransferDataBodySchema,
  CommandViewSchema,
} from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import { requireUser, signedInUser } from '../../plugins/auth';
import type { TelemetryService } from './telemetry.service';

/** Device calls take any id: a malformed one is answered like an unknown device (404). */
const DeviceParamsSchema = z.strictObject({ id: z.string().min(1).max(64) });

const optionalNumber = (name: string) =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number({ message: `${name} must be a number` })
      .finite()
      .optional(),
  );

const DataQuerySchema = z.object({
  dataPoints: optionalNumber('dataPoints').pipe(
    z.number().int('dataPoints must be a whole number').min(1).max(10_000).optional(),
  ),
  dataKeys: z.string().max(5000).optional(),
  fromTime: optionalNumber('fromTime'),
  toTime: optionalNumber('toTime'),
  relative: optionalNumber('relative').pipe(z.number().min(0).optional()),
  downsample: z.string().max(20).optional(),
});

const PointsQuerySchema = z.object({
  dataPoints: optionalNumber('dataPoints').pipe(z.number().int().min(1).max(10_000).optional()),
});

const MetricsQuerySchema = z.object({
  currentStartTime: z.coerce.number().finite(),
  currentEndTime: z.coerce.number().finite(),
  previousStartTime: optionalNumber('previousStartTime'),
  previousEndTime: optionalNumber('previousEndTime'),
  includeLatestData: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .optional(),
});

const ExportQuerySchema = z.object({
  fromTime: optionalNumber('fromTime'),
  toTime: optionalNumber('toTime'),
  dataKeys: z.string().max(5000).optional(),
  format: z.enum(EXPORT_FORMATS, { message: 'format must be csv, json or config' }).optional(),
});

const DataCountsSchema = z.object({
  records: z.number(),
  events: z.number(),
  diagnostics: z.number(),
  rollups: z.number(),
  latest: z.number(),
});

const PointSchema = z.object({ v: z.unknown(), ts: z.number() });
const EventSchema = z.object({
  ts: z.number(),
  topic: z.string().nullable(),
  msg: z.string(),
  lv: z.number().nullable(),
  severity: z.string().nullable(),
});
const DataResponseSchema = z.object({
  deviceid: z.string(),
  data: z.record(z.string(), z.array(PointSchema)),
  events: z.array(EventSchema),
  bucketSeconds: z.number().optional(),
});

export function registerTelemetryRoutes(app: FastifyInstance, telemetry: TelemetryService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['device data'];
  const errors = errorResponses(400, 401, 403, 404);

  r.get(
    '/api/device/:id/data',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Records and events of a device, newest first (optionally downsampled into time buckets)',
        description:
          'dataPoints (default 600, at most 10000) limits records, or buckets per key when downsampling; dataKeys is a comma list; fromTime/toTime are epoch seconds; relative is milliseconds before now; downsample is true (width from the range and dataPoints: whole hours from an hour, whole days when that would take more than two hours) or a bucket width in seconds (whole days read daily rollups, whole hours hourly rollups, shorter widths the records; the buckets holding fromTime and toTime count whole).',
        params: DeviceParamsSchema,
        querystring: DataQuerySchema,
        response: { 200: DataResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const json = await telemetry.data(signedInUser(request).id, request.params.id, request.query);
      // The service writes the DataResponse's JSON itself (thousands of points; see
      // telemetry.serialize.ts): a JSON string is sent as it is, not encoded again through the schema.
      return reply.type('application/json; charset=utf-8').send(json as unknown as z.input<typeof DataResponseSchema>);
    },
  );

  r.get(
    '/api/device/:id/diagnostics',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Diagnostics messages of a device, newest first (dataPoints default 600)',
        params: DeviceParamsSchema,
        querystring: PointsQuerySchema,
        response: {
          200: z.object({
            deviceid: z.string(),
            diagnostics: z.array(z.object({ ts: z.number(), data: z.unknown() })),
          }),
          ...errors,
        },
      },
    },
    (request) => telemetry.diagnostics(signedInUser(request).id, request.params.id, request.query.dataPoints),
  );

  r.get(
    '/api/device/:id/serverlog',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "The device's server log: connections, refused messages, dropped keys, commands (ADMIN)",
        params: DeviceParamsSchema,
        querystring: PointsQuerySchema,
        response: {
          200: z.object({
            deviceid: z.string(),
            entries: z.array(z.object({ id: z.number(), ts: z.number(), kind: z.string(), message: z.string() })),
          }),
          ...errors,
        },
      },
    },
    (request) => telemetry.serverLog(signedInUser(request).id, request.params.id, request.query.dataPoints),
  );

  r.get(
    '/api/device/:id/rpc',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'The command queue of a device with each command state, newest first',
        params: DeviceParamsSchema,
        querystring: PointsQuerySchema,
        response: { 200: z.object({ deviceid: z.string(), commands: z.array(CommandViewSchema) }), ...errors },
      },
    },
    (request) => telemetry.listCommands(signedInUser(request).id, request.params.id, request.query.dataPoints),
  );

  r.post(
    '/api/device/:id/rpc',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          "Queue a command ('Admin.Trigger' with {index} needs triggers; anything else editDeviceSettings); delivered at once to an online device, else at its next contact",
        params: DeviceParamsSchema,
        body: RpcRequestSchema,
        response: { 200: CommandViewSchema, ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    (request) =>
      telemetry.queueCommand(signedInUser(request).id, request.params.id, request.body.method, request.body.args),
  );

  r.delete(
    '/api/device/:id/rpc',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Cancel a queued command',
        params: DeviceParamsSchema,
        body: RpcCancelSchema,
        response: {
          200: z.object({ commandID: z.number(), state: z.literal('cancelled') }),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    (request) => telemetry.cancelCommand(signedInUser(request).id, request.params.id, request.body.commandID),
  );

  r.get(
    '/api/device/:id/metrics',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Min, max, avg, sum, diff and acc per key over whole hours (times floored to 3600 s), from the rollups: whole UTC days from the daily ones, the hours around them from the hourly ones',
        params: DeviceParamsSchema,
        querystring: MetricsQuerySchema,
        response: { 200: z.unknown(), ...errors },
      },
    },
    (request) => telemetry.metrics(signedInUser(request).id, request.params.id, request.query),
  );

  r.post(
    '/api/device/:id/delete-data',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          "Delete the device's records, latest values, events, diagnostics and rollups (ADMIN, with the setup password); the server log stays and records the deletion",
        params: DeviceParamsSchema,
        body: DeleteDataBodySchema,
        response: { 200: z.object({ deviceid: z.string(), deleted: DataCountsSchema }), ...errors },
      },
    },
    (request) => telemetry.deleteData(signedInUser(request).id, request.params.id, request.body.setupPassword),
  );

  r.post(
    '/api/device/:id/transfer-data',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          "Move the device's data to targetDeviceid in one transaction (ADMIN of both; the source device's setup password)",
        params: DeviceParamsSchema,
        body: TransferDataBodySchema,
        response: {
          200: z.object({ deviceid: z.string(), targetDeviceid: z.string(), moved: DataCountsSchema }),
          ...errors,
        },
      },
    },
    (request) =>
      telemetry.transferData(
        signedInUser(request).id,
        request.params.id,
        request.body.setupPassword,
        request.body.targetDeviceid,
      ),
  );

  r.get(
    '/api/device/:id/export',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Records of a time range as CSV (ts and one column per key) or JSON, streamed (any role)',
        description:
          'fromTime/toTime are epoch seconds (inclusive); dataKeys is a comma list (default: every key); format csv (default) or json; format config exports the applied config document ({config}) that POST /import takes back.',
        params: DeviceParamsSchema,
        querystring: ExportQuerySchema,
        response: { 200: z.string().describe('CSV (text/csv) or JSON (application/json), streamed'), ...errors },
      },
    },
    async (request, reply) => {
      const out = await telemetry.exportData(signedInUser(request).id, request.params.id, request.query);
      return (
        reply
          .type(out.contentType)
          .header('content-disposition', `attachment; filename="${out.filename}"`)
          .header('cache-control', 'no-store')
          // A stream is piped as it is read, never serialized.
          .send(Readable.from(out.body) as unknown as string)
      );
    },
  );
}
