/**
 * The HTTP hooks an external broker (MQTT_URL) calls to authenticate and authorise its clients
 * (issue 17), registered only with MQTT_AUTH_HOOK_SECRET; each broker in its own dialect, all
 * answered by mqtt-auth.service.ts:
 * - mosquitto-go-auth's http backend: POST /api/mqtt-auth/go-auth/{user,superuser,acl}, JSON or a
 *   form (http_params_mode); 200 allows, 403 refuses (both of its response modes, status and json);
 * - EMQX 5's HTTP authenticator and authorizer: POST /api/mqtt-auth/emqx/{authenticate,authorize},
 *   always 200 with `result` (allow or deny), since EMQX takes any other status as 'ignore';
 * - VerneMQ's webhooks: POST /api/mqtt-auth/vernemq/{auth_on_register,auth_on_publish,
 *   auth_on_subscribe}, 200 with `result` ('ok' or {error: 'not_allowed'}); a subscription with
 *   some refused filters answers those at QoS 128 and subscribes the rest, as the embedded broker does.
 * Every call carries the secret, as header x-portal-hook-secret or query parameter `secret`
 * (go-auth cannot send a header): 401 otherwise, before the body is read. These are machine calls:
 * no session, no CSRF header, no request limit per client address (the broker calls once per
 * connect, publish and subscribe, all from its own address).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EmqxAuthenticateAnswerSchema,
  EmqxAuthenticateBodySchema,
  EmqxAuthorizeAnswerSchema,
  EmqxAuthorizeBodySchema,
  GoAuthAclBodySchema,
  GoAuthAllowedSchema,
  GoAuthSuperuserBodySchema,
  GoAuthUserBodySchema,
  MQTT_AUTH_SECRET_HEADER,
  MQTT_AUTH_SECRET_QUERY,
  VERNEMQ_NOT_ALLOWED_QOS,
  VernemqAnswerSchema,
  VernemqPublishBodySchema,
  VernemqRegisterBodySchema,
  VernemqSubscribeAnswerSchema,
  VernemqSubscribeBodySchema,
  type EmqxAuthenticateAnswer,
  type EmqxAuthorizeAnswer,
  type GoAuthAccessCode,
  type GoAuthAllowed,
  type MqttAccess,
  type VernemqAnswer,
  type VernemqHook,
  type VernemqSubscribeAnswer,
} from '@portal/core';
import { AppError, forbidden, unauthenticated } from '../../errors';
import { errorResponses } from '../../plugins/errors';
import { guardOf } from '../../plugins/route-security';
import type { MqttAuthService } from './mqtt-auth.service';

export const MQTT_AUTH_PATH = '/api/mqtt-auth';

const TAGS = ['mqtt-auth'];
/** Machine calls: no CSRF header, no request limit (a limit per client address would lock the broker out). */
const MACHINE_CALL = { csrf: false, rateLimit: false } as const;

const NOT_ALLOWED_MESSAGE = 'Not allowed';

/**
 * auth_on_publish carries the message's payload (base64) unless the webhook is configured with
 * no_payload = on: room for a packet of 768 kB, three times MQTT_MAX_PACKET_BYTES's default.
 */
const VERNEMQ_PUBLISH_BODY_LIMIT = 1024 * 1024;

// ---------------------------------------------------------------- answers

const GO_AUTH_ALLOWED: GoAuthAllowed = { ok: true, error: '' };
/** 200 and go-auth's json-mode body when allowed; 403 (a refusal in every response mode) when not. */
function goAuthAnswer(allowed: boolean): GoAuthAllowed {
  if (!allowed) throw forbidden(NOT_ALLOWED_MESSAGE);
  return GO_AUTH_ALLOWED;
}

/** What each of mosquitto's access codes asks: acc 3 needs both. */
const GO_AUTH_ACCESS = {
  1: ['receive'],
  2: ['publish'],
  3: ['receive', 'publish'],
  4: ['subscribe'],
} as const satisfies Record<GoAuthAccessCode, readonly MqttAccess[]>;

const EMQX_AUTHENTICATE_DENY: EmqxAuthenticateAnswer = { result: 'deny', is_superuser: false };
const EMQX_AUTHORIZE_DENY: EmqxAuthorizeAnswer = { result: 'deny' };

const VERNEMQ_OK = { result: 'ok' } as const satisfies VernemqAnswer;
const VERNEMQ_NOT_ALLOWED = { result: { error: 'not_allowed' } } as const satisfies VernemqAnswer;

/** VerneMQ's `vernemq-hook` header, when sent, must name the hook the route answers: a misrouted hook is refused. */
const vernemqHeaders = (hook: VernemqHook) => z.looseObject({ 'vernemq-hook': z.literal(hook).optional() });

// ---------------------------------------------------------------- bodies

/**
 * application/x-www-form-urlencoded, as go-auth's form mode posts it: each field once (a repeated
 * field is refused rather than guessed at), values as text.
 */
function parseForm(
  _request: FastifyRequest,
  body: string | Buffer,
  done: (error: Error | null, value?: unknown) => void,
) {
  const entries = [...new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))];
  if (new Set(entries.map(([name]) => name)).size !== entries.length) {
    done(new AppError(400, 'BAD_REQUEST', 'A form field is repeated.'));
    return;
  }
  done(null, Object.fromEntries(entries));
}

const FORM_OR_JSON = ['application/json', 'application/x-www-form-urlencoded'];

// ---------------------------------------------------------------- routes

export async function registerMqttAuthRoutes(app: FastifyInstance, service: MqttAuthService): Promise<void> {
  /** The hook secret, from the header or else the query: 401 without it, before the body is read. */
  const requireHookSecret = guardOf('hookSecret', async (request: FastifyRequest) => {
    const header = request.headers[MQTT_AUTH_SECRET_HEADER];
    const given = header ?? (request.query as Record<string, unknown> | undefined)?.[MQTT_AUTH_SECRET_QUERY];
    if (!service.hasSecret(given)) throw unauthenticated(NOT_ALLOWED_MESSAGE);
  });
  const hook = { config: MACHINE_CALL, onRequest: requireHookSecret };

  // mosquitto-go-auth: a scope of its own, the only one that takes forms.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, parseForm);
    const routes = scope.withTypeProvider<ZodTypeProvider>();
    const goAuth = {
      tags: TAGS,
      consumes: FORM_OR_JSON,
      response: { 200: GoAuthAllowedSchema, ...errorResponses(403) },
    };

    routes.post(
      `${MQTT_AUTH_PATH}/go-auth/user`,
      {
        ...hook,
        schema: {
          ...goAuth,
          summary: "mosquitto-go-auth's user check: may a client connect with this username, password and client id?",
          body: GoAuthUserBodySchema,
        },
      },
      async (request) => {
        const { username, password, clientid } = request.body;
        return goAuthAnswer((await service.authenticate({ username, password, clientId: clientid ?? '' })) !== null);
      },
    );

    routes.post(
      `${MQTT_AUTH_PATH}/go-auth/superuser`,
      {
        ...hook,
        schema: {
          ...goAuth,
          summary: "mosquitto-go-auth's superuser check: only the portal's own broker user (MQTT_URL's) is one",
          body: GoAuthSuperuserBodySchema,
        },
      },
      async (request) => goAuthAnswer(service.isSuperuser(request.body.username)),
    );

    routes.post(
      `${MQTT_AUTH_PATH}/go-auth/acl`,
      {
        ...hook,
        schema: {
          ...goAuth,
          summary:
            "mosquitto-go-auth's ACL check: may this client receive (acc 1), publish (2), both (3) or subscribe (4) on the topic?",
          body: GoAuthAclBodySchema,
        },
      },
      async (request) => {
        const { username, clientid, topic, acc } = request.body;
        const requests = GO_AUTH_ACCESS[acc].map((access) => ({ access, topic }));
        const allowed = await service.authorize({ username, clientId: clientid ?? '' }, requests);
        return goAuthAnswer(allowed.every(Boolean));
      },
    );
  });

  const routes = app.withTypeProvider<ZodTypeProvider>();

  // EMQX 5: a body its template did not fill in as expected is refused with 200 'deny' (attachValidation),
  // since a 400 would be 'ignore' to EMQX.
  routes.post(
    `${MQTT_AUTH_PATH}/emqx/authenticate`,
    {
      ...hook,
      attachValidation: true,
      schema: {
        tags: TAGS,
        summary: "EMQX 5's HTTP authenticator: may a client connect, and is it the superuser (the portal's own user)?",
        body: EmqxAuthenticateBodySchema,
        response: { 200: EmqxAuthenticateAnswerSchema },
      },
    },
    async (request): Promise<EmqxAuthenticateAnswer> => {
      if (request.validationError) return EMQX_AUTHENTICATE_DENY;
      const { username, password, clientid } = request.body;
      const kind = await service.authenticate({ username, password, clientId: clientid });
      return kind ? { result: 'allow', is_superuser: kind === 'portal' } : EMQX_AUTHENTICATE_DENY;
    },
  );

  routes.post(
    `${MQTT_AUTH_PATH}/emqx/authorize`,
    {
      ...hook,
      attachValidation: true,
      schema: {
        tags: TAGS,
        summary: "EMQX 5's HTTP authorizer: may this client publish or subscribe to the topic?",
        body: EmqxAuthorizeBodySchema,
        response: { 200: EmqxAuthorizeAnswerSchema },
      },
    },
    async (request): Promise<EmqxAuthorizeAnswer> => {
      if (request.validationError) return EMQX_AUTHORIZE_DENY;
      const { username, clientid, topic, action } = request.body;
      const [allowed] = await service.authorize({ username, clientId: clientid }, [{ access: action, topic }]);
      return allowed ? { result: 'allow' } : EMQX_AUTHORIZE_DENY;
    },
  );

  // VerneMQ: any status but 200 is an error to it, and an error refuses.
  routes.post(
    `${MQTT_AUTH_PATH}/vernemq/auth_on_register`,
    {
      ...hook,
      schema: {
        tags: TAGS,
        summary: "VerneMQ's auth_on_register webhook: may a client connect with this username, password and client id?",
        headers: vernemqHeaders('auth_on_register'),
        body: VernemqRegisterBodySchema,
        response: { 200: VernemqAnswerSchema },
      },
    },
    async (request): Promise<VernemqAnswer> => {
      const { username, password, client_id } = request.body;
      const kind = await service.authenticate({ username, password, clientId: client_id });
      return kind ? VERNEMQ_OK : VERNEMQ_NOT_ALLOWED;
    },
  );

  routes.post(
    `${MQTT_AUTH_PATH}/vernemq/auth_on_publish`,
    {
      ...hook,
      bodyLimit: VERNEMQ_PUBLISH_BODY_LIMIT,
      schema: {
        tags: TAGS,
        summary: "VerneMQ's auth_on_publish webhook: may this client publish to the topic?",
        headers: vernemqHeaders('auth_on_publish'),
        body: VernemqPublishBodySchema,
        response: { 200: VernemqAnswerSchema },
      },
    },
    async (request): Promise<VernemqAnswer> => {
      const { username, client_id, topic } = request.body;
      const [allowed] = await service.authorize({ username, clientId: client_id }, [{ access: 'publish', topic }]);
      return allowed ? VERNEMQ_OK : VERNEMQ_NOT_ALLOWED;
    },
  );

  routes.post(
    `${MQTT_AUTH_PATH}/vernemq/auth_on_subscribe`,
    {
      ...hook,
      schema: {
        tags: TAGS,
        summary:
          "VerneMQ's auth_on_subscribe webhook: may this client subscribe to each topic filter? Refused filters get QoS 128",
        headers: vernemqHeaders('auth_on_subscribe'),
        body: VernemqSubscribeBodySchema,
        response: { 200: VernemqSubscribeAnswerSchema },
      },
    },
    async (request): Promise<VernemqSubscribeAnswer> => {
      const { username, client_id, topics } = request.body;
      const requests = topics.map(({ topic }) => ({ access: 'subscribe' as const, topic }));
      const allowed = await service.authorize({ username, clientId: client_id }, requests);
      if (allowed.every(Boolean)) return VERNEMQ_OK;
      if (!allowed.some(Boolean)) return VERNEMQ_NOT_ALLOWED;
      return {
        result: 'ok',
        topics: topics.map(({ topic, qos }, i) => ({ topic, qos: allowed[i] ? qos : VERNEMQ_NOT_ALLOWED_QOS })),
      };
    },
  );
}
