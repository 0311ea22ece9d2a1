/**
 * The OpenAPI document, generated from the Zod contracts of every route, and its reference page.
 * What the route options already say is not declared again: each operation's operationId comes
 * from its method and path, its security requirement from its guard hooks (route-security.ts),
 * and the error answers of the plugins (validation 400, guard 401, CSRF 403, body 413/415, path
 * parameter 414, rate limit 429) from its schema and config. A route declares its own answers only:
 * its 2xx and the errors of its service (404, 409, a role's 403).
 */
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import swagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_KEY_REQUESTS_PER_MINUTE, MQTT_AUTH_SECRET_HEADER, MQTT_AUTH_SECRET_QUERY } from '@portal/core';
import { SESSION_COOKIE } from './auth';
import { demandsCsrfHeader } from './csrf';
import { errorResponses } from './errors';
import { acceptsApiKey, refusesApiKey, routeSecurity, type SecuritySchemeName } from './route-security';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';

/** The tags routes use, each with its description (a route with another tag fails the lint test). */
const TAGS: { name: string; description: string }[] = [
  { name: 'system', description: 'Health, site configuration and client error reports' },
  { name: 'auth', description: 'Sign-up, sign-in (with its multi-factor step), sign-out, password reset' },
  { name: 'account', description: "The signed-in user's profile, password and multi-factor settings" },
  { name: 'groups', description: 'The groups of the signed-in user' },
  { name: 'device', description: 'Adding a device, its users, settings, notes images and setup password' },
  { name: 'device data', description: 'Records, events, diagnostics, metrics, exports and commands of a device' },
  { name: 'device config', description: 'The config, custom settings, script, firmware and files of a device' },
  {
    name: 'alerts',
    description:
      "A device user's alert subscription, the phone SMS alerts go to, notification history and unsubscribe links",
  },
  { name: 'support', description: 'Support requests from signed-in users to the support address' },
  { name: 'provisioning', description: 'Creating and testing devices (provisioning staff)' },
  { name: 'billing', description: 'Distributor tools' },
  { name: 'staff', description: 'Staff tools' },
  { name: 'ingest', description: 'What devices call, with their device key' },
  {
    name: 'mqtt-auth',
    description:
      'What an external MQTT broker asks (with MQTT_AUTH_HOOK_SECRET): may a client connect, publish, subscribe',
  },
];

type SecurityScheme =
  | { type: 'apiKey'; in: 'cookie' | 'header' | 'query'; name: string; description: string }
  | { type: 'http'; scheme: 'bearer'; description: string };

/** The scheme offered beside the session on the calls an API key opens (route-security.ts, acceptsApiKey). */
export const API_KEY_SCHEME = 'apiKey';
/** The broker hooks' secret as a query parameter, offered beside the header (some brokers send no headers). */
export const HOOK_SECRET_QUERY_SCHEME = 'hookSecretQuery';

const SECURITY_SCHEMES: Record<
  SecuritySchemeName | typeof API_KEY_SCHEME | typeof HOOK_SECRET_QUERY_SCHEME,
  SecurityScheme
> = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'The session cookie set by POST /api/auth/login (HttpOnly, 7 days)',
  },
  deviceKey: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: "A device's key, as `Authorization: Device <key>`",
  },
  hookSecret: {
    type: 'apiKey',
    in: 'header',
    name: MQTT_AUTH_SECRET_HEADER,
    description: 'MQTT_AUTH_HOOK_SECRET, sent by the broker on each hook call',
  },
  [HOOK_SECRET_QUERY_SCHEME]: {
    type: 'apiKey',
    in: 'query',
    name: MQTT_AUTH_SECRET_QUERY,
    description: 'MQTT_AUTH_HOOK_SECRET in the hook URL, for brokers that send no headers (mosquitto-go-auth)',
  },
  [API_KEY_SCHEME]: {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API key from the Account page (API tab), as `Authorization: Bearer ppk_...`: acts as its user, read-only or read-write, no CSRF header, no cookie; default brand only',
  },
};

/** The bytes of a file (an image, a device file) in the document: `type: string, format: binary`. */
export const BinaryFileSchema = z.string().meta({ format: 'binary' });

/**
 * A route's answer that is not JSON, for its `schema.response`: `schema` (text by default) in each
 * of `contentTypes`, so the document names the real content types.
 */
export function fileResponse(description: string, contentTypes: readonly string[], schema: z.ZodType = z.string()) {
  return { description, content: Object.fromEntries(contentTypes.map((type) => [type, { schema }])) };
}

/** A word of an operationId: first letter upper case (fileId -> FileId, notes-image -> NotesImage). */
const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

/**
 * The operationId of a route: its method and the path after /api in camelCase, a parameter as
 * By{Name} (GET /api/device/:id/settings -> getDeviceByIdSettings). Unique as method and path are.
 */
export function operationIdOf(method: string, url: string): string {
  const segments = url
    .replace(/^\/api(?=\/)/, '')
    .split('/')
    .filter(Boolean);
  const words = segments.map((segment) =>
    segment.startsWith(':') ? `By${pascal(segment.slice(1))}` : pascal(segment),
  );
  return method.toLowerCase() + words.join('');
}

/** Methods whose requests Fastify reads a body of, whether or not the route's schema has one. */
const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The error statuses the plugins answer on this route, whatever its handler does. */
function pluginErrorStatuses(route: RouteOptions, schema: FastifySchema, secured: boolean): number[] {
  const methods = [route.method].flat();
  // A body is parsed (malformed JSON: 400), limited (413) and typed (415) even where none is expected.
  const readsBody = methods.some((m) => BODY_METHODS.has(m));
  const statuses: number[] = [];
  if (schema.params || schema.querystring || schema.body || schema.headers || readsBody) statuses.push(400);
  if (secured) statuses.push(401);
  if (methods.some((m) => demandsCsrfHeader(m, route.config))) statuses.push(403);
  if (readsBody) statuses.push(413);
  // The router's limit on a path parameter (app.ts, maxParamLength).
  if (route.url.includes(':')) statuses.push(414);
  if (readsBody) statuses.push(415);
  // An API key is refused by a read-only key, a device's plan, another brand or a session-only
  // call (403), and is limited per key (429).
  const apiKey = acceptsApiKey(route);
  if (apiKey || refusesApiKey(route)) statuses.push(403);
  if (route.config?.rateLimit || apiKey) statuses.push(429);
  // Every call reads the database: on PostgreSQL a statement past DB_STATEMENT_TIMEOUT_MS is stopped (503).
  statuses.push(503);
  return [...new Set(statuses)].sort((a, b) => a - b);
}

/** The schemes a guarded route also takes, each on its own: an API key beside the session, the hook secret's query form. */
function alternativeSchemes(route: RouteOptions, security: SecuritySchemeName): Record<string, []>[] {
  if (security === 'hookSecret') return [{ [HOOK_SECRET_QUERY_SCHEME]: [] }];
  return acceptsApiKey(route) ? [{ [API_KEY_SCHEME]: [] }] : [];
}

const transform: SwaggerTransform = (input) => {
  const { route, schema } = input;
  if (!schema || (schema as { hide?: boolean }).hide) return jsonSchemaTransform(input);
  const security = routeSecurity(route);
  const response = {
    ...errorResponses(...pluginErrorStatuses(route, schema, security !== null)),
    ...(schema.response as object | undefined),
  };
  const out = jsonSchemaTransform({ ...input, schema: { ...schema, response } });
  const method = [route.method].flat()[0] ?? 'GET';
  return {
    url: out.url,
    schema: {
      operationId: operationIdOf(method, route.url),
      security: security ? [{ [security]: [] }, ...alternativeSchemes(route, security)] : [],
      ...out.schema,
    },
  };
};

type Paths = Record<string, Record<string, { responses?: Record<string, { content?: unknown }> }>>;

/** Removes the registered components no operation uses (the input variants of output-only schemas). */
function dropUnusedComponents(paths: Paths, schemas: Record<string, unknown>): void {
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === '$ref' && typeof child === 'string') {
          const name = child.replace('#/components/schemas/', '');
          if (!used.has(name)) {
            used.add(name);
            visit(schemas[name]);
          }
        } else visit(child);
      }
    }
  };
  visit(paths);
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}

const transformObject: SwaggerTransformObject = (input) => {
  const document = jsonSchemaTransformObject(input) as {
    paths?: Paths;
    components?: { schemas?: Record<string, unknown> };
  };
  const paths = document.paths ?? {};
  dropUnusedComponents(paths, document.components?.schemas ?? {});
  // A 204 answer has no content, whatever schema its route gives the serializer.
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) delete operation.responses?.['204']?.content;
  }
  return document as ReturnType<SwaggerTransformObject>;
};

/** The document's introduction (Markdown), shown at the top of the API reference page. */
const API_DESCRIPTION = [
  'JSON API of the device-monitoring portal. Errors are HTTP status + `{ message, code }`.',
  '',
  `**In the browser** the session is the HttpOnly cookie \`${SESSION_COOKIE}\`, and state-changing calls need the header \`X-Requested-With: portal\`.`,
  '',
  '**From a script** use an API key: create one on the Account page, API tab (main portal site only). Send it as `Authorization: Bearer <key>`; ' +
    'it acts as its user with the same access to devices and groups, needs no CSRF header and never sets a cookie. ' +
    'A read-only key may only read (GET); a key never reaches the credential, password, multi-factor or session calls (403); ' +
    `an unknown, deleted or expired key is 401 at once; each key may make ${API_KEY_REQUESTS_PER_MINUTE} requests a minute (429); ` +
    'a device whose plan has no API (Basic) refuses keys (403). Calls a key opens list `apiKey` beside `session` under their lock icon.',
  '',
  '```',
  'curl -H "Authorization: Bearer $PORTAL_API_KEY" https://portal.example.com/api/groups',
  'curl -X PUT -H "Authorization: Bearer $PORTAL_API_KEY" -H "Content-Type: application/json" \\',
  '  -d \'{"PORTAL_deviceName":"Tank 4"}\' https://portal.example.com/api/device/0-ABC1234/settings',
  '```',
  '',
  'Virtual devices (ids `0-` + 7 letters or digits) are created with `POST /api/virtual-devices` and fed with their device key by `POST /api/ingest/{id}` (`Authorization: Device <key>`).',
].join('\n');

export async function registerSwagger(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Portal API',
        version: '0.1.0',
        description: API_DESCRIPTION,
      },
      // Relative: the document is right on every host (brand) that serves it.
      servers: [{ url: '/' }],
      tags: TAGS,
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform,
    transformObject,
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PATH });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, () => app.swagger());
}
