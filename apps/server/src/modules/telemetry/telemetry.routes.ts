/**
 * Device data calls: data, diagnostics, server log, metrics, deleting and moving data, and its
 * import and export (POST /import hands a config document to the device config module).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Readable } from 'node:stream';
import {
  AnyDeviceParamsSchema,
  DataPointsQuerySchema,
  DataQuerySchema,
  DataResponseSchema,
  DEFAULT_DATA_POINTS,
  DEFAULT_SERVER_LOG_ENTRIES,
  DeleteDataBodySchema,
  DeviceImportBodySchema,
  DeviceImportResultSchema,
  MAX_IMPORT_RECORDS,
  DeviceExportJsonSchema,
  DeleteDataResultSchema,
  DiagnosticsResponseSchema,
  ExportQuerySchema,
  MAX_DATA_POINTS,
  MetricsQuerySchema,
  MetricsResponseSchema,
  ServerLogQuerySchema,
  ServerLogResponseSchema,
  TransferDataBodySchema,
  TransferDataResultSchema,
} from '@portal/core';
import { errorResponses } from '../../plugins/errors';
import { requireUser } from '../access/access.hooks';
import { signedInUser } from '../../plugins/auth';
import type { DeviceConfigService } from '../device-config/device-config.service';
import type { TelemetryService } from './telemetry.service';

/** A records import carries up to 5,000 records: its own body limit (a device record is at most 64 kB). */
const IMPORT_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * `configImport` takes the config documents POST /import is given (the device config module);
 * telemetry imports the records.
 */
export function registerTelemetryRoutes(
  app: FastifyInstance,
  telemetry: TelemetryService,
  configImport: Pick<DeviceConfigService, 'importConfig'>,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['device data'];
  const errors = errorResponses(400, 401, 403, 404);

  r.get(
    '/api/device/:id/data',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Records and events of a device, newest first (optionally downsampled into time buckets)',
        description: `dataPoints (default ${DEFAULT_DATA_POINTS}, at most ${MAX_DATA_POINTS}) limits records, or buckets per key when downsampling; dataKeys is a comma list; fromTime/toTime are epoch seconds; relative is milliseconds before now; downsample is true (width from the range and dataPoints: whole hours from 20 minutes, whole days when that would take more than two hours) or a bucket width in seconds (whole days read daily rollups, whole hours hourly rollups, shorter widths the records; the buckets holding fromTime and toTime count whole); events=false leaves the events out (a chart's read).`,
        params: AnyDeviceParamsSchema,
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
      onRequest: requireUser,
      schema: {
        tags,
        summary: `Diagnostics messages of a device, newest first (dataPoints default ${DEFAULT_DATA_POINTS})`,
        params: AnyDeviceParamsSchema,
        querystring: DataPointsQuerySchema,
        response: { 200: DiagnosticsResponseSchema, ...errors },
      },
    },
    (request) => telemetry.diagnostics(signedInUser(request).id, request.params.id, request.query.dataPoints),
  );

  r.get(
    '/api/device/:id/serverlog',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: `The device's server log, newest first: connections, refused messages, dropped keys, commands`,
        description: `ADMIN only, on a plan with a server log (not Basic: 403 'The server log is unavailable on the Basic Plan'). dataPoints (default ${DEFAULT_SERVER_LOG_ENTRIES}) entries, only those of \`kind\` when given, only those older than the entry \`before\` (an entry id: the last one shown) when given; \`more\` says whether older entries remain, \`kinds\` lists every kind in the device's log.`,
        params: AnyDeviceParamsSchema,
        querystring: ServerLogQuerySchema,
        response: { 200: ServerLogResponseSchema, ...errors },
      },
    },
    (request) => telemetry.serverLog(signedInUser(request).id, request.params.id, request.query),
  );

  r.get(
    '/api/device/:id/metrics',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary:
          'Min, max, avg, sum, diff and acc per key over whole hours (times floored to 3600 s), from the rollups: whole UTC days from the daily ones, the hours around them from the hourly ones',
        params: AnyDeviceParamsSchema,
        querystring: MetricsQuerySchema,
        response: { 200: MetricsResponseSchema, ...errors },
      },
    },
    (request) => telemetry.metrics(signedInUser(request).id, request.params.id, request.query),
  );

  r.post(
    '/api/device/:id/delete-data',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary:
          "Delete the device's records, latest values, events, diagnostics and rollups (ADMIN, with the setup password); the server log stays and records the deletion",
        params: AnyDeviceParamsSchema,
        body: DeleteDataBodySchema,
        response: { 200: DeleteDataResultSchema, ...errors },
      },
    },
    (request) => telemetry.deleteData(signedInUser(request).id, request.params.id, request.body.setupPassword),
  );

  r.post(
    '/api/device/:id/transfer-data',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary:
          "Move the device's data to targetDeviceid in one transaction (ADMIN of both; the source device's setup password)",
        params: AnyDeviceParamsSchema,
        body: TransferDataBodySchema,
        response: { 200: TransferDataResultSchema, ...errors },
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

  r.post(
    '/api/device/:id/import',
    {
      onRequest: requireUser,
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        // Documented with the device config calls, where it always was.
        tags: ['device config'],
        summary: `Import a config document ({config: {settings}}, queued like PUT /config) or records ({records: [...]}, at most ${MAX_IMPORT_RECORDS}, stored like a device's); editDeviceSettings`,
        description:
          'A config document is what GET /config answers as `config` or GET /export?format=config exports; settings.device id, model and fw describe the device and are ignored (listed in ignoredFields). The answer is the config view with importedConfig, or the records import result.',
        params: AnyDeviceParamsSchema,
        body: DeviceImportBodySchema,
        response: { 200: DeviceImportResultSchema, ...errorResponses(400, 401, 403, 404, 413) },
      },
    },
    (request) =>
      request.body.config === undefined
        ? telemetry.importRecords(signedInUser(request).id, request.params.id, request.body.records ?? [])
        : configImport.importConfig(signedInUser(request), request.params.id, request.body.config),
  );

  r.get(
    '/api/device/:id/export',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Records of a time range as CSV (ts and one column per key) or JSON, streamed (any role)',
        description:
          'fromTime/toTime are epoch seconds (inclusive); dataKeys is a comma list (default: every key); format csv (default) or json; format config exports the applied config document ({config}) that POST /import takes back.',
        params: AnyDeviceParamsSchema,
        querystring: ExportQuerySchema,
        response: {
          200: {
            description:
              'The file, streamed: CSV (format csv, the default), the records as JSON (format json) or the applied config (format config)',
            content: { 'text/csv': { schema: z.string() }, 'application/json': { schema: DeviceExportJsonSchema } },
          },
          ...errors,
        },
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
