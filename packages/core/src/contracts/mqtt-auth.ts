/**
 * Wire shapes of the broker HTTP hooks (issue 17): what mosquitto-go-auth's http backend, EMQX 5's
 * HTTP authenticator and authorizer and VerneMQ's webhooks send, in each broker's own field
 * names, and what each expects back. Bodies are not strict: brokers add fields in new versions
 * (VerneMQ's client_cert and listener fields), and a field the portal does not read changes
 * nothing. A field over its limit is refused, which every broker takes as a refusal.
 */
import { z } from 'zod';
import { safeString } from './fields';

/** Where each call carries MQTT_AUTH_HOOK_SECRET: this header, or else this query parameter (go-auth sends no headers). */
export const MQTT_AUTH_SECRET_HEADER = 'x-portal-hook-secret';
export const MQTT_AUTH_SECRET_QUERY = 'secret';

/** Longest text the hooks read in each field; MQTT allows more, the portal's clients never use it. */
export const MQTT_AUTH_FIELD_LIMITS = { username: 256, password: 1024, clientId: 256, topic: 1024 } as const;

const username = safeString().max(MQTT_AUTH_FIELD_LIMITS.username);
const password = safeString().max(MQTT_AUTH_FIELD_LIMITS.password);
const clientId = safeString().max(MQTT_AUTH_FIELD_LIMITS.clientId);
const topic = safeString().min(1).max(MQTT_AUTH_FIELD_LIMITS.topic);
const mountpoint = safeString().max(MQTT_AUTH_FIELD_LIMITS.topic);
const qos = z.number().int().min(0).max(2);

// ---------------------------------------------------------------- mosquitto-go-auth (http backend)

/** POST {http_getuser_uri}: a client connects (JSON, or a form with http_params_mode form). */
export const GoAuthUserBodySchema = z.object({ username, password, clientid: clientId.optional() });
export type GoAuthUserBody = z.infer<typeof GoAuthUserBodySchema>;

/** POST {http_superuser_uri}: may this user do anything (go-auth then skips the ACL check)? */
export const GoAuthSuperuserBodySchema = z.object({ username });
export type GoAuthSuperuserBody = z.infer<typeof GoAuthSuperuserBodySchema>;

/**
 * Mosquitto's access codes as go-auth sends them: 1 read (a message is delivered to the client),
 * 2 write (the client publishes), 3 both, 4 subscribe. A number in JSON, text in a form.
 */
export const GO_AUTH_ACCESS_CODES = [1, 2, 3, 4] as const;
export type GoAuthAccessCode = (typeof GO_AUTH_ACCESS_CODES)[number];

const GoAuthAccSchema = z.union([
  z.literal(GO_AUTH_ACCESS_CODES),
  z.enum(['1', '2', '3', '4']).transform((text) => Number(text) as GoAuthAccessCode),
]);

/** POST {http_aclcheck_uri}: may this client read, write or subscribe to this topic? */
export const GoAuthAclBodySchema = z.object({ username, clientid: clientId.optional(), topic, acc: GoAuthAccSchema });
export type GoAuthAclBody = z.infer<typeof GoAuthAclBodySchema>;

/**
 * go-auth's answer when allowed (200); a refusal is 403. go-auth's `status` response mode reads
 * the status only, its `json` mode this body too.
 */
export const GoAuthAllowedSchema = z.object({ ok: z.literal(true), error: z.literal('') });
export type GoAuthAllowed = z.infer<typeof GoAuthAllowedSchema>;

// ---------------------------------------------------------------- EMQX 5 (HTTP authenticator, HTTP authorizer)

/** The authenticator's body, as the README's EMQX configuration sends it. */
export const EmqxAuthenticateBodySchema = z.object({ username, password, clientid: clientId });
export type EmqxAuthenticateBody = z.infer<typeof EmqxAuthenticateBodySchema>;

/** The authenticator's answer: always 200 (EMQX takes any other status as 'ignore'). */
export const EmqxAuthenticateAnswerSchema = z.object({ result: z.enum(['allow', 'deny']), is_superuser: z.boolean() });
export type EmqxAuthenticateAnswer = z.infer<typeof EmqxAuthenticateAnswerSchema>;

/** The authorizer's body, as the README's EMQX configuration sends it (`${action}`: publish or subscribe). */
export const EmqxAuthorizeBodySchema = z.object({
  username,
  clientid: clientId,
  topic,
  action: z.enum(['publish', 'subscribe']),
});
export type EmqxAuthorizeBody = z.infer<typeof EmqxAuthorizeBodySchema>;

/** The authorizer's answer: always 200 (any other status is 'ignore', and then EMQX's no_match decides). */
export const EmqxAuthorizeAnswerSchema = z.object({ result: z.enum(['allow', 'deny']) });
export type EmqxAuthorizeAnswer = z.infer<typeof EmqxAuthorizeAnswerSchema>;

// ---------------------------------------------------------------- VerneMQ (vmq_webhooks)

/** The hooks the portal answers, as VerneMQ names them (also in its `vernemq-hook` header). */
export const VERNEMQ_HOOKS = ['auth_on_register', 'auth_on_publish', 'auth_on_subscribe'] as const;
export type VernemqHook = (typeof VERNEMQ_HOOKS)[number];

/** auth_on_register: a client connects. VerneMQ sends null for a missing username or password. */
export const VernemqRegisterBodySchema = z.object({
  peer_addr: safeString().max(64).nullable().optional(),
  peer_port: z.number().int().min(0).max(65_535).nullable().optional(),
  username: username.nullable(),
  password: password.nullable(),
  mountpoint: mountpoint.optional(),
  client_id: clientId,
  clean_session: z.boolean().optional(),
});
export type VernemqRegisterBody = z.infer<typeof VernemqRegisterBodySchema>;

/** auth_on_publish: a client publishes (the payload, base64 unless configured otherwise, is not read). */
export const VernemqPublishBodySchema = z.object({
  username: username.nullable(),
  client_id: clientId,
  mountpoint: mountpoint.optional(),
  qos: qos.optional(),
  topic,
  payload: z.unknown().optional(),
  retain: z.boolean().optional(),
});
export type VernemqPublishBody = z.infer<typeof VernemqPublishBodySchema>;

const VernemqTopicSchema = z.object({ topic, qos });

/** auth_on_subscribe: a client subscribes to one or more topic filters. */
export const VernemqSubscribeBodySchema = z.object({
  username: username.nullable(),
  client_id: clientId,
  mountpoint: mountpoint.optional(),
  topics: z.array(VernemqTopicSchema).min(1).max(100),
});
export type VernemqSubscribeBody = z.infer<typeof VernemqSubscribeBodySchema>;

/** VerneMQ's QoS for a topic filter it must not subscribe the client to. */
export const VERNEMQ_NOT_ALLOWED_QOS = 128;

const VernemqOkSchema = z.object({ result: z.literal('ok') });
const VernemqNotAllowedSchema = z.object({ result: z.object({ error: z.literal('not_allowed') }) });

/** auth_on_register and auth_on_publish: allowed, or not. */
export const VernemqAnswerSchema = z.union([VernemqOkSchema, VernemqNotAllowedSchema]);
export type VernemqAnswer = z.infer<typeof VernemqAnswerSchema>;

/**
 * auth_on_subscribe: all allowed; some, with the refused filters at QoS 128 (VerneMQ answers
 * those 0x80 in the SUBACK and subscribes the rest); or none.
 */
export const VernemqSubscribeAnswerSchema = z.union([
  // First: the plain 'ok' would match this answer too and drop its topics.
  z.object({
    result: z.literal('ok'),
    topics: z.array(z.object({ topic: z.string(), qos: z.union([qos, z.literal(VERNEMQ_NOT_ALLOWED_QOS)]) })),
  }),
  VernemqOkSchema,
  VernemqNotAllowedSchema,
]);
export type VernemqSubscribeAnswer = z.infer<typeof VernemqSubscribeAnswerSchema>;
