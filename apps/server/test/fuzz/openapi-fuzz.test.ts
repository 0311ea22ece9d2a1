/**
 * Fuzzes every operation of the OpenAPI document (so a new route is covered without being listed
 * here), on PGlite and on PostgreSQL when reachable. The caller is a staff user (senquip_admin and
 * distributors) holding ADMIN on a real device, and device-key routes get that device's key, so
 * requests pass authorisation and reach validation. Per operation it sends:
 *   - U+0000 and a lone surrogate in every path parameter, query parameter and body string field;
 *   - the wrong type for every query parameter and body field;
 *   - a malformed JSON body, a body of the wrong type, `__proto__` keys (body, nested, query);
 *   - a 1 MB string in the query and in the first body string field;
 *   - extreme numbers in every numeric path, query and body field (1e23, -1e23, 1e308, -1, 0,
 *     2^53 + 1, NaN, Infinity, 1e400 as JSON text, and 1.5 where a whole number is expected), and
 *     each range of the query reversed and a hundred years wide.
 * Expected: an answer within 30 s, never a 5xx; every 4xx a JSON { message, code }; U+0000 and lone surrogates in a text field
 * refused (4xx); and no partial write: the database (row count and hash of every table) is the same
 * after each refused request as before it, except for the append-only logs that record a refusal
 * (EXCLUDED_TABLES) and the session's sliding expiry (EXCLUDED_COLUMNS). After the run the server still
 * answers and the process has grown by less than 200 MB.
 *
 * The broker hooks (MQTT_AUTH_HOOK_SECRET, on here) get the hook secret, and bodies that name the
 * device with its key, so requests reach their checks; they store nothing, and the EMQX hooks
 * answer a refusal with 200 'deny' (any other status is 'ignore' to EMQX), so their text fields
 * need not be refused with a 4xx.
 *
 * Body fields are filled with a valid example built from the schema (BASE_BODIES where a rule of
 * the contract is not in the schema), so that each request is wrong in the fuzzed field only; the
 * example is proved valid first against the operation's body schema in the document (credentials
 * are checked before validation, so no request can tell a valid body from an invalid one unsigned).
 */
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MQTT_AUTH_SECRET_HEADER, UNSTORABLE_TEXT_MESSAGE } from '@portal/core';
import { OPENAPI_PATH } from '../../src/plugins/swagger';
import {
  describeWhenPostgres,
  makeUser,
  signedIn,
  startTestPortal,
  type ApiClient,
  type DbKind,
  type TestPortal,
} from '../helpers';
import { claim, provision, type Provisioned } from '../device-helpers';
import { toJsonSchema } from '../openapi/response-contract';

// ---------------------------------------------------------------- what the snapshot leaves out

/**
 * Tables that a refused request writes on purpose, so they are left out of the comparison:
 * - server_log: the device server log records refused device messages and acknowledgements;
 * - auth_attempts, sign_in_failures: failed sign-ins and reset requests are counted (lock-out, rate limits);
 * - device_claim_attempts: wrong setup passwords are counted (claim lock-out);
 * - rate_limit_counters: every request to a limited route counts, refused or not (request limits).
 */
const EXCLUDED_TABLES = new Set([
  'server_log',
  'auth_attempts',
  'sign_in_failures',
  'device_claim_attempts',
  'rate_limit_counters',
]);
/**
 * Columns a refused request moves on purpose: the session's sliding expiry (every signed-in
 * request), and the wrong-code counters of a multi-factor challenge and of an SMS enrolment (a
 * wrong code is refused and counted, so that guessing ends).
 */
const EXCLUDED_COLUMNS: Record<string, string[]> = {
  sessions: ['last_seen_at', 'expires_at'],
  auth_challenges: ['attempts'],
  users: ['sms_pending_attempts'],
};

// ---------------------------------------------------------------- OpenAPI shapes

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  not?: Schema;
  $ref?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  pattern?: string;
  format?: string;
  nullable?: boolean;
  default?: unknown;
}

interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: Schema;
}

interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body: Schema | null;
  /** The scheme of its security requirement, null for a public operation, undefined when the document does not say. */
  security: string | null | undefined;
}

type Json = unknown;
type Path = (string | number)[];

// ---------------------------------------------------------------- fixtures the requests use

interface Fixture {
  device: Provisioned;
  target: Provisioned;
  otherUserId: string;
  nowS: number;
  /** A group of the fuzzing user holding the device (other is a VIEW member), and a second group of theirs. */
  groupid: string;
  targetGroupid: string;
}

/**
 * Valid bodies where the schema alone cannot give one (rules of the contract that are code, not
 * JSON Schema: base64, custom-setting names, either/or fields), keyed 'METHOD /path'. A new route
 * whose example is refused fails the probe below and names this table.
 */
const BASE_BODIES: Record<string, (f: Fixture) => Json> = {
  'POST /api/device/{id}/user': () => ({ setupPassword: 'ABCDEFGH', groupid: 'g1' }),
  'PUT /api/device/{id}/user': (f) => ({ userid: f.otherUserId, permission: 'USER' }),
  'DELETE /api/device/{id}/user': (f) => ({ userid: f.otherUserId }),
  // No PORTAL_deviceName: only a virtual device's can change, so the service would refuse every request.
  'PUT /api/device/{id}/settings': () => ({
    PORTAL_deviceNotes: { status: 'ok', description: 'notes' },
    PORTAL_displaySettings: { temp: { name: 'Temp', units: 'C', colour: '#0284c7' } },
  }),
  'PUT /api/device/{id}/notes-image/{slot}': () => ({
    contentType: 'image/png',
    dataBase64: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]).toString('base64'),
  }),
  'PUT /api/device/{id}/widget-image/{widgetid}': () => ({
    contentType: 'image/png',
    dataBase64: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]).toString('base64'),
  }),
  'POST /api/device/{id}/rpc': () => ({ method: 'Admin.Reboot', args: { delay: 1, note: 'x' } }),
  'DELETE /api/device/{id}/rpc': () => ({ commandID: 1 }),
  'POST /api/device/{id}/transfer-data': (f) => ({ setupPassword: 'ABCDEFGH', targetDeviceid: f.target.deviceid }),
  'PUT /api/device/{id}/config': () => ({
    config: {
      settings: {
        device: { name: 'Pump 1', base_interval: 60 },
        inputs: { analog: { '1': { enabled: true, name: 'Level', mode: 'voltage' } } },
        serial1: { capture: { start: 'AA==' } },
        script: { strLabel: 'text', numLimit: 5, triggers: [{ index: 1, name: 'Horn', colour: 'red' }] },
      },
    },
  }),
  'POST /api/device/{id}/import': () => ({
    config: { settings: { device: { name: 'Pump 1' }, script: { strLabel: 'text' } } },
  }),
  'PUT /api/device/{id}/custom-settings': () => ({ values: { strLabel: 'text', numLimit: 5 } }),
  'PUT /api/device/{id}/script': () => ({ scriptFileBase64: Buffer.from('let x = 1;').toString('base64') }),
  'PUT /api/device/{id}/file': () => ({ fileName: 'fuzz.bin', fileDataBase64: 'AAAA' }),
  'POST /api/account/mfa/sms/setup': () => ({ phone: '+61412345678' }),
  'PUT /api/device/{id}/alerts': () => ({
    email: true,
    sms: false,
    events: true,
    limits: true,
    offline: false,
    schedule: 3600,
  }),
  'POST /api/account/alert-phone': () => ({ phone: '+61412345678' }),
  'POST /api/account/alert-phone/confirm': () => ({ code: '123456' }),
  'POST /api/account/mfa/totp/enable': () => ({ code: '123456' }),
  'POST /api/account/mfa/sms/enable': () => ({ code: '123456' }),
  'POST /api/auth/mfa/recovery': () => ({ recoveryCode: '7kq2-m9xd' }),
  'POST /api/ingest/{id}': (f) => ({ ts: f.nowS, note: 'ok', level: 1, events: [{ msg: 'hello' }] }),
  'POST /api/ingest/{id}/ack': () => ({ id: 1 }),
  'POST /api/group': () => ({ groupName: 'Fuzz group' }),
  'POST /api/mqtt-auth/go-auth/user': (f) => ({
    username: f.device.deviceid,
    password: f.device.deviceKey,
    clientid: f.device.deviceid,
  }),
  'POST /api/mqtt-auth/go-auth/acl': (f) => ({
    username: f.device.deviceid,
    clientid: f.device.deviceid,
    topic: `dev/${f.device.deviceid}/data`,
    acc: 2,
  }),
  'POST /api/mqtt-auth/emqx/authenticate': (f) => ({
    username: f.device.deviceid,
    password: f.device.deviceKey,
    clientid: f.device.deviceid,
  }),
  'POST /api/mqtt-auth/emqx/authorize': (f) => ({
    username: f.device.deviceid,
    clientid: f.device.deviceid,
    topic: `dev/${f.device.deviceid}/data`,
    action: 'publish',
  }),
  'POST /api/mqtt-auth/vernemq/auth_on_register': (f) => ({
    username: f.device.deviceid,
    password: f.device.deviceKey,
    client_id: f.device.deviceid,
    mountpoint: '',
    clean_session: true,
  }),
  'POST /api/mqtt-auth/vernemq/auth_on_publish': (f) => ({
    username: f.device.deviceid,
    client_id: f.device.deviceid,
    mountpoint: '',
    qos: 1,
    topic: `dev/${f.device.deviceid}/data`,
    retain: false,
  }),
  'POST /api/mqtt-auth/vernemq/auth_on_subscribe': (f) => ({
    username: f.device.deviceid,
    client_id: f.device.deviceid,
    mountpoint: '',
    topics: [{ topic: `dev/${f.device.deviceid}/cmd`, qos: 1 }],
  }),
  'POST /api/billing-update-subscription': (f) => ({ deviceList: [f.device.deviceid], subscription: 'monthly' }),
  'POST /api/billing-update-plan': (f) => ({ deviceid: f.device.deviceid, plan: 'Hosted' }),
  'POST /api/distributors': () => ({
    id: 0,
    name: 'Fuzz distributor',
    contactEmail: 'fuzz@example.com',
    country: 'AU',
  }),
  'PUT /api/distributors': () => ({ id: 1, name: 'Fuzz distributor', contactEmail: 'fuzz@example.com', country: 'AU' }),
  'PUT /api/distributor-devices': (f) => ({ distributorId: null, deviceList: [f.device.deviceid] }),
  'PUT /api/group/{groupid}': () => ({ groupName: 'Fuzz group' }),
  'POST /api/group/{groupid}/user': () => ({ targetEmail: 'fuzz-invitee@example.com', targetPermission: 'USER' }),
  'PUT /api/group/{groupid}/user': (f) => ({ targetUserID: f.otherUserId, targetPermission: 'USER' }),
  'DELETE /api/group/{groupid}/user': (f) => ({ targetUserID: f.otherUserId }),
  'PUT /api/group/{groupid}/devices': (f) => ({
    deviceList: [f.device.deviceid],
    targetGroupid: f.targetGroupid,
    action: 'copy',
  }),
  'DELETE /api/group/{groupid}/devices': (f) => ({ deviceList: [f.device.deviceid] }),
  'PUT /api/group/{groupid}/view': () => ({
    view: {
      name: 'Fuzz view',
      sortOrder: 2,
      timeRange: { type: 'day', amount: 7, rolling: true },
      widgets: {
        widget1: {
          type: 'map',
          settings: {},
          layouts: {
            lg: { x: 0, y: 0, w: 12, h: 12, minW: 1, minH: 2 },
            md: { x: 0, y: 0, w: 6, h: 12, minW: 1, minH: 2 },
            sm: { x: 0, y: 0, w: 4, h: 12, minW: 1, minH: 2 },
          },
        },
      },
    },
  }),
};

/** Fields a device sends (the ingest body is text read by the device-record rules, not a schema). */
const BODY_SCHEMAS: Record<string, Schema> = {
  'POST /api/ingest/{id}': {
    type: 'object',
    properties: {
      ts: { type: 'number' },
      note: { type: 'string' },
      level: { type: 'number' },
      events: { type: 'array', items: { type: 'object', properties: { msg: { type: 'string' } } } },
    },
  },
  'POST /api/ingest/{id}/ack': { type: 'object', properties: { id: { type: 'integer', minimum: 1 } } },
};

/** Texts tried, in order, for a string field with a pattern. */
const PATTERN_SAMPLES = ['SFW003-1.0.0', 'ABCDEFGH1', 'Prov.Test', 'fuzz.bin', '123456', '+61412345678', 'abc'];

/** MQTT_AUTH_HOOK_SECRET of the fuzzed portal: its broker hooks exist, and get it. */
const HOOK_SECRET = 'fuzz-hook-secret-0123456789';

/** Operations that end the caller's session when they succeed: each of their requests gets a fresh one. */
const SESSION_ENDING = new Set(['POST /api/auth/logout']);

const MB = 1024 * 1024;

/**
 * Extreme numbers tried in every numeric field (issue 30: one unbounded time took the server
 * down): huge and tiny, negative, past 2^53, not a number, infinite, and a fraction where a
 * whole number is expected. As query text; a body gets the JSON ones, and the others as raw
 * JSON text (`1e400` parses to Infinity).
 */
const EXTREME_QUERY_NUMBERS = ['1e23', '-1e23', '1e308', '-1', '0', '9007199254740993', 'NaN', 'Infinity', '-Infinity'];
const EXTREME_BODY_NUMBERS: number[] = [1e23, -1e23, 1e308, -1e308, -1, 0, 2 ** 53 + 1];
const EXTREME_BODY_TEXT = ['1e400', '-1e400'];
/** A fraction, for fields that take whole numbers only. */
const FRACTION = 1.5;

/** Pairs of query parameters that make a range: each is also sent reversed and 100 years wide. */
const RANGE_PAIRS: [string, string][] = [
  ['fromTime', 'toTime'],
  ['from', 'to'],
  ['currentStartTime', 'currentEndTime'],
  ['previousStartTime', 'previousEndTime'],
];
const HUNDRED_YEARS_S = 100 * 365 * 86_400;

/** The JavaScript heap in use after a full garbage collection (the memory a leak would hold). */
function heapAfterCollection(): number {
  v8.setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

/** How long one fuzz request may take before it counts as a hang. */
const REQUEST_TIMEOUT_MS = 30_000;
/** How much the process may grow over the run (issue 30: +200 MB). */
const MEMORY_GROWTH_LIMIT = 200 * MB;

// ---------------------------------------------------------------- examples from a schema

class SchemaReader {
  constructor(private readonly components: Record<string, Schema>) {}

  resolve(schema: Schema | undefined): Schema {
    let s = schema ?? {};
    for (let i = 0; s.$ref && i < 20; i += 1) s = this.components[s.$ref.replace('#/components/schemas/', '')] ?? {};
    if (s.allOf?.[0]) return this.resolve({ ...s.allOf[0], ...s, allOf: undefined });
    const options = s.anyOf ?? s.oneOf;
    if (options) {
      const first = options.map((o) => this.resolve(o)).find((o) => o.type !== 'null' && !o.not);
      return first ?? {};
    }
    return s;
  }

  type(schema: Schema): string | undefined {
    const t = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type;
    if (t) return t;
    if (schema.properties) return 'object';
    return undefined;
  }

  /** A valid value of `schema`: required properties only, smallest allowed numbers, sample texts. */
  example(input: Schema | undefined, f: Fixture): Json {
    const s = this.resolve(input);
    if (s.default !== undefined) return s.default;
    if (s.const !== undefined) return s.const;
    if (s.enum) return s.enum.find((v) => v !== null);
    switch (this.type(s)) {
      case 'string': {
        if (s.format === 'email') return 'fuzz@example.com';
        if (s.pattern) {
          const re = new RegExp(s.pattern);
          const hit = [f.device.deviceid, ...PATTERN_SAMPLES].find((t) => re.test(t));
          if (hit) return hit;
        }
        return 'x'.repeat(Math.max(1, s.minLength ?? 1));
      }
      case 'integer':
      case 'number': {
        const min = typeof s.minimum === 'number' ? s.minimum : undefined;
        if (min !== undefined) return s.exclusiveMinimum === true ? min + 1 : min;
        if (typeof s.exclusiveMinimum === 'number') return s.exclusiveMinimum + 1;
        return typeof s.maximum === 'number' && s.maximum < 1 ? s.maximum : 1;
      }
      case 'boolean':
        return true;
      case 'array':
        return (s.minItems ?? 0) > 0 ? [this.example(s.items, f)] : [];
      case 'object': {
        const out: Record<string, Json> = {};
        for (const name of s.required ?? []) out[name] = this.example(s.properties?.[name], f);
        return out;
      }
      default:
        return {};
    }
  }

  /**
   * Every field of a body: each property (optional ones too), one entry of each record (a key
   * the example has, else `strFuzz`), the first item of each array; with the schemas of the
   * containers on the way (to build the ones the example lacks).
   */
  leaves(input: Schema | undefined, value: Json, path: Path = [], chain: Schema[] = [], depth = 0): Leaf[] {
    const s = this.resolve(input);
    const t = this.type(s);
    const here = [...chain, s];
    if (depth < 8 && t === 'object') {
      const out: Leaf[] = [];
      const v = (value && typeof value === 'object' ? value : {}) as Record<string, Json>;
      for (const [name, child] of Object.entries(s.properties ?? {})) {
        if (this.resolve(child).not) continue; // a field that is never accepted (z.never)
        out.push(...this.leaves(child, v[name], [...path, name], here, depth + 1));
      }
      if (typeof s.additionalProperties === 'object') {
        const known = Object.keys(v).find((k) => !(s.properties ?? {})[k]);
        const key = known ?? 'strFuzz';
        out.push(...this.leaves(s.additionalProperties, v[key], [...path, key], here, depth + 1));
      }
      return out.length > 0 ? out : [{ path, schema: s, chain }];
    }
    if (depth < 8 && t === 'array') {
      const v = Array.isArray(value) ? value : [];
      return this.leaves(s.items, v[0], [...path, 0], here, depth + 1);
    }
    return [{ path, schema: s, chain }];
  }
}

interface Leaf {
  path: Path;
  schema: Schema;
  /** Schemas of the containers from the root to the leaf's parent. */
  chain: Schema[];
}

/** A copy of `base` with `value` at the leaf's path (containers the base lacks are made from their schemas). */
function withValue(reader: SchemaReader, f: Fixture, base: Json, leaf: Leaf, value: Json): Json {
  if (leaf.path.length === 0) return value;
  const root = structuredClone(base) as Record<string | number, Json>;
  let node = root;
  for (let i = 0; i < leaf.path.length - 1; i += 1) {
    const key = leaf.path[i]!;
    const next = node[key];
    if (next === null || typeof next !== 'object') {
      const made = reader.example(leaf.chain[i + 1], f);
      node[key] =
        made !== null && typeof made === 'object' ? made : reader.type(leaf.chain[i + 1]!) === 'array' ? [] : {};
    }
    node = node[key] as Record<string | number, Json>;
  }
  node[leaf.path[leaf.path.length - 1]!] = value;
  return root;
}

/** A value of another JSON type than the leaf's. */
function wrongType(reader: SchemaReader, schema: Schema): Json {
  switch (reader.type(schema)) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return 'not a number';
    case 'boolean':
      return 'yes';
    case 'array':
      return { not: 'an array' };
    case 'object':
      return ['not', 'an', 'object'];
    default:
      return schema.enum ? 7 : undefined;
  }
}

// ---------------------------------------------------------------- the database snapshot

interface Snapshot {
  /** The write-ahead log's insert position when the snapshot began. */
  lsn: string;
  tables: Map<string, string>;
}

/** One query: per table, its row count and an order-independent hash of its rows. */
async function snapshotQuery(tp: TestPortal): Promise<{ sql: string; tables: string[] }> {
  const columns = await tp.portal.db.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
      ORDER BY c.table_name, c.ordinal_position`,
  );
  const byTable = new Map<string, string[]>();
  for (const { table_name: table, column_name: column } of columns) {
    if (EXCLUDED_TABLES.has(table) || EXCLUDED_COLUMNS[table]?.includes(column)) continue;
    byTable.set(table, [...(byTable.get(table) ?? []), column]);
  }
  // A write to an unlogged table leaves the write-ahead log where it was (see snapshotSince).
  const unlogged = await tp.portal.db.query<{ relname: string }>(
    `SELECT relname FROM pg_class WHERE relkind = 'r' AND relpersistence = 'u' AND relnamespace = current_schema()::regnamespace`,
  );
  const compared = unlogged.map((r) => r.relname).filter((table) => !EXCLUDED_TABLES.has(table));
  if (compared.length > 0) throw new Error(`unlogged tables the snapshot compares: ${compared.join(', ')}`);
  const tables = [...byTable.keys()];
  const parts = tables.map((table) => {
    const row = `md5(row(${byTable
      .get(table)!
      .map((c) => `x."${c}"`)
      .join(', ')})::text)`;
    return `SELECT '${table}' AS t, count(*)::int AS n, coalesce(md5(string_agg(${row}, '' ORDER BY ${row})), '') AS h FROM "${table}" x`;
  });
  return { sql: parts.join(' UNION ALL '), tables };
}

async function walPosition(tp: TestPortal): Promise<string> {
  const [row] = await tp.portal.db.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
  return row!.lsn;
}

async function snapshot(tp: TestPortal, sql: string, walRead?: string): Promise<Snapshot> {
  // The position first: a write during the hashing moves it past this, so the next look hashes again.
  const lsn = walRead ?? (await walPosition(tp));
  const rows = await tp.portal.db.query<{ t: string; n: number; h: string }>(sql);
  return { lsn, tables: new Map(rows.map((r) => [r.t, `${r.n}:${r.h}`])) };
}

/**
 * The database now: `before` itself when the write-ahead log has not moved since `before` began
 * (every insert, update and delete of a logged table writes to it, committed or not, and the
 * snapshot compares no unlogged table: snapshotQuery checks), else a new snapshot. Hashing every
 * table after each of the thousands of requests was most of this file's time; a write, or anything
 * else that moves the log (another schema's tests on a shared PostgreSQL), still gets the hash.
 */
async function snapshotSince(tp: TestPortal, sql: string, before: Snapshot): Promise<Snapshot> {
  const lsn = await walPosition(tp);
  return lsn === before.lsn ? before : snapshot(tp, sql, lsn);
}

function changedTables(before: Snapshot, after: Snapshot): string[] {
  return [...before.tables.keys()].filter((t) => before.tables.get(t) !== after.tables.get(t));
}

// ---------------------------------------------------------------- the run

/** An answer as the fuzz reads it. */
interface Answer {
  status: number;
  contentType: string;
  text: string;
  body: unknown;
}

interface FuzzRequest {
  kind: string;
  /** Path with its parameters, and the query string (already encoded). */
  url: string;
  body?: Json;
  rawBody?: string;
  /** The request carries text the database cannot store in a text field: it must be refused. */
  mustRefuse?: boolean;
  /** The request carries an extreme number or range. */
  extreme?: boolean;
}

interface Figures {
  operations: number;
  requests: number;
  refused: number;
  unstorableRefusals: number;
  /** Requests carrying an extreme number or range. */
  extremeNumbers: number;
  ms: number;
  /**
   * The process' JavaScript heap after a full collection and its resident memory, before and after
   * the run, MB (the portal runs in this process; its embedded database in a worker of it).
   */
  heapBeforeMb: number;
  heapAfterMb: number;
  rssBeforeMb: number;
  rssAfterMb: number;
}

const NUL = '\u0000';
const LONE = '\ud800';
/** What a lone surrogate would look like in an address: its WTF-8 bytes (not valid UTF-8). */
const LONE_IN_URL = '%ED%A0%80';

function opKey(op: Operation): string {
  return `${op.method} ${op.path}`;
}

function readOperations(doc: {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: unknown; security?: unknown[] }>>;
}): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const content = (op.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)?.content;
      const body = content ? (Object.values(content)[0]?.schema ?? {}) : null;
      const security = op.security === undefined ? undefined : (Object.keys(op.security[0] ?? {})[0] ?? null);
      ops.push({ method: method.toUpperCase(), path, parameters: op.parameters ?? [], body, security });
    }
  }
  return ops;
}

/** Addresses that need no credentials, for a document that does not state each operation's security. */
const PUBLIC_PATHS = /^\/api\/(auth\/(?!session)|client-errors|health|map-tiles)/;

/**
 * Whether the operation must refuse (4xx) unstorable text in a body field: not device ingest (the
 * record rules drop a bad field and keep the rest), not the broker hooks (they store nothing).
 */
function refusesUnstorableText(op: Operation): boolean {
  const scheme = schemeOf(op);
  return scheme !== 'deviceKey' && scheme !== 'hookSecret';
}

/** The credentials an operation takes: its security requirement, else what its address says. */
function schemeOf(op: Operation): 'session' | 'deviceKey' | 'hookSecret' | null {
  if (op.security === 'deviceKey' || (op.security === undefined && op.path.startsWith('/api/ingest/')))
    return 'deviceKey';
  if (op.security === 'hookSecret') return 'hookSecret';
  if (op.security === undefined) return PUBLIC_PATHS.test(op.path) ? null : 'session';
  return op.security === null ? null : 'session';
}

function describeFuzz(kind: DbKind) {
  describe(`OpenAPI fuzz (${kind})`, () => {
    let tp: TestPortal;
    let staff: ApiClient;
    let staffLogin: { email: string; password: string };
    let fixture: Fixture;
    let operations: Operation[];
    let reader: SchemaReader;
    let components: Record<string, Schema>;
    let snapshotSql: string;

    beforeAll(async () => {
      tp = await startTestPortal({ db: kind, seed: false, mqttAuthHookSecret: HOOK_SECRET });
      const user = await makeUser(tp, { userGroups: ['senquip_admin', 'distributors'] });
      staffLogin = user;
      staff = await signedIn(tp, user);
      const device = await provision(tp, 'QUAD-C2');
      const target = await provision(tp);
      const group = async (groupName: string) => {
        const res = await staff.post('/api/group', { groupName });
        expect(res.status, res.text).toBe(200);
        return (res.body as { groupid: string }).groupid;
      };
      const groupid = await group('Fuzz');
      const targetGroupid = await group('Fuzz target');
      const placed = await staff.post(`/api/device/${device.deviceid}/user`, {
        setupPassword: device.setupPassword,
        groupid,
      });
      expect(placed.body, placed.text).toMatchObject({ permission: 'ADMIN', groupid });
      expect((await claim(staff, target.deviceid, target.setupPassword)).status).toBe(200);
      const other = await makeUser(tp);
      const grant = await staff.post(`/api/device/${device.deviceid}/user`, {
        targetEmail: other.email,
        targetPermission: 'VIEW',
      });
      expect(grant.status, grant.text).toBe(200);
      const shared = await staff.post(`/api/group/${groupid}/user`, {
        targetEmail: other.email,
        targetPermission: 'VIEW',
      });
      expect(shared.status, shared.text).toBe(200);
      fixture = {
        device,
        target,
        otherUserId: other.id,
        nowS: Math.floor(tp.clock.now().getTime() / 1000) - 60,
        groupid,
        targetGroupid,
      };
      const doc = (await tp.client().get(OPENAPI_PATH)).body as Parameters<typeof readOperations>[0] & {
        components?: { schemas?: Record<string, Schema> };
      };
      operations = readOperations(doc);
      components = doc.components?.schemas ?? {};
      reader = new SchemaReader(components);
      snapshotSql = (await snapshotQuery(tp)).sql;
    });
    afterAll(async () => {
      await tp?.close();
    });

    /** The address of an operation with real values in its path (or `override` for one parameter). */
    function address(op: Operation, override?: { name: string; raw: string }, query = ''): string {
      const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
        if (override?.name === name) return override.raw;
        return encodeURIComponent(String(pathValue(op, name)));
      });
      return query ? `${path}?${query}` : path;
    }

    function pathValue(op: Operation, name: string): Json {
      const p = op.parameters.find((x) => x.in === 'path' && x.name === name);
      const s = reader.resolve(p?.schema);
      if (name === 'id') return fixture.device.deviceid;
      if (name === 'groupid') return fixture.groupid;
      if (name === 'widgetid') return 'widget1';
      if (s.enum) return s.enum[0];
      if (reader.type(s) === 'integer' || reader.type(s) === 'number') return 1;
      return 'fuzzcode';
    }

    /** The required query parameters with valid values, as name -> text. */
    function baseQuery(op: Operation): Record<string, string> {
      const out: Record<string, string> = {};
      for (const p of op.parameters)
        if (p.in === 'query' && p.required) out[p.name] = String(reader.example(p.schema, fixture));
      return out;
    }

    const qs = (values: Record<string, string>, raw: Record<string, string> = {}) =>
      [
        ...Object.entries(values).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`),
        ...Object.entries(raw).map(([k, v]) => `${k}=${v}`),
      ].join('&');

    function baseBody(op: Operation): Json {
      const make = BASE_BODIES[opKey(op)];
      return make ? make(fixture) : reader.example(bodySchema(op), fixture);
    }

    function bodySchema(op: Operation): Schema | undefined {
      return BODY_SCHEMAS[opKey(op)] ?? op.body ?? undefined;
    }

    /** Every fuzz request of one operation. */
    function requestsOf(op: Operation): FuzzRequest[] {
      const out: FuzzRequest[] = [];
      const query = baseQuery(op);
      const plain = address(op, undefined, qs(query));
      const hasBody = op.method !== 'GET';
      const body = op.body || BODY_SCHEMAS[opKey(op)] ? baseBody(op) : undefined;
      const withBody = (r: FuzzRequest): FuzzRequest =>
        body !== undefined && r.body === undefined && r.rawBody === undefined ? { ...r, body } : r;

      // Path parameters.
      for (const p of op.parameters.filter((x) => x.in === 'path')) {
        const real = encodeURIComponent(String(pathValue(op, p.name)));
        out.push(
          withBody({
            kind: `path ${p.name}: U+0000`,
            url: address(op, { name: p.name, raw: `${real}%00` }, qs(query)),
            mustRefuse: true,
          }),
        );
        out.push(
          withBody({
            kind: `path ${p.name}: lone surrogate`,
            url: address(op, { name: p.name, raw: `${real}${LONE_IN_URL}` }, qs(query)),
          }),
        );
        const type = reader.type(reader.resolve(p.schema));
        if (type === 'integer' || type === 'number')
          for (const n of [...EXTREME_QUERY_NUMBERS, String(FRACTION)])
            out.push(
              withBody({
                kind: `path ${p.name}: ${n}`,
                url: address(op, { name: p.name, raw: n }, qs(query)),
                extreme: true,
              }),
            );
      }
      // Query parameters.
      for (const p of op.parameters.filter((x) => x.in === 'query')) {
        const valid = String(reader.example(p.schema, fixture));
        const others = { ...query };
        delete others[p.name];
        out.push(
          withBody({
            kind: `query ${p.name}: U+0000`,
            url: address(op, undefined, qs({ ...others, [p.name]: `${valid}${NUL}` })),
            mustRefuse: true,
          }),
        );
        out.push(
          withBody({
            kind: `query ${p.name}: lone surrogate`,
            url: address(op, undefined, qs(others, { [p.name]: `${encodeURIComponent(valid)}${LONE_IN_URL}` })),
          }),
        );
        const type = reader.type(reader.resolve(p.schema));
        const wrong =
          type === 'string' && !reader.resolve(p.schema).enum
            ? qs(others, { [p.name]: `a&${p.name}=b` })
            : qs({ ...others, [p.name]: 'not-a-number' });
        out.push(withBody({ kind: `query ${p.name}: wrong type`, url: address(op, undefined, wrong) }));
        if (type === 'integer' || type === 'number') {
          const numbers = type === 'integer' ? [...EXTREME_QUERY_NUMBERS, String(FRACTION)] : EXTREME_QUERY_NUMBERS;
          for (const n of numbers)
            out.push(
              withBody({
                kind: `query ${p.name}: ${n}`,
                url: address(op, undefined, qs({ ...others, [p.name]: n })),
                extreme: true,
              }),
            );
        }
      }
      // Ranges: reversed, and a hundred years wide (from the epoch, and ending in 2100).
      const names = new Set(op.parameters.filter((x) => x.in === 'query').map((x) => x.name));
      for (const [lo, hi] of RANGE_PAIRS.filter(([a, b]) => names.has(a) && names.has(b))) {
        const ranges: [string, number, number][] = [
          ['reversed', fixture.nowS, fixture.nowS - 86_400],
          ['100 years', 0, HUNDRED_YEARS_S],
          ['100 years to 2100', 4_102_444_800 - HUNDRED_YEARS_S, 4_102_444_800],
        ];
        for (const [what, a, b] of ranges)
          out.push(
            withBody({
              kind: `query ${lo}/${hi}: ${what}`,
              url: address(op, undefined, qs({ ...query, [lo]: String(a), [hi]: String(b) })),
              extreme: true,
            }),
          );
      }
      const first = op.parameters.find((x) => x.in === 'query')?.name ?? 'fuzz';
      out.push(
        withBody({ kind: 'query: 1 MB', url: address(op, undefined, qs({ ...query, [first]: 'x'.repeat(MB) })) }),
      );
      out.push(
        withBody({
          kind: 'query: __proto__',
          url: address(op, undefined, qs(query, { ['__proto__']: 'x', 'constructor[prototype][polluted]': 'x' })),
        }),
      );
      if (!hasBody) return out;

      // The body as a whole.
      out.push({ kind: 'body: malformed JSON', url: plain, rawBody: '{"fuzz": ' });
      out.push({ kind: 'body: wrong type (array)', url: plain, body: [body ?? {}] });
      out.push({ kind: 'body: wrong type (string)', url: plain, body: 'text' });
      const proto = (value: Json) => JSON.stringify(value).replace('"__fuzz_proto__"', '"__proto__"');
      const root = body && typeof body === 'object' && !Array.isArray(body) ? body : {};
      out.push({
        kind: 'body: __proto__ key',
        url: plain,
        rawBody: proto({ __fuzz_proto__: { polluted: 1 }, ...root }),
      });
      out.push({
        kind: 'body: constructor.prototype key',
        url: plain,
        rawBody: JSON.stringify({ constructor: { prototype: { polluted: 1 } }, ...root }),
      });
      if (body === undefined) {
        out.push({ kind: 'body: 1 MB', url: plain, body: { fuzz: 'x'.repeat(MB) } });
        return out;
      }
      // Each field.
      const leaves = reader.leaves(bodySchema(op), body);
      let big = false;
      for (const leaf of leaves) {
        const at = leaf.path.join('.') || '(body)';
        const type = reader.type(leaf.schema);
        if (type === 'string') {
          const valid = String(reader.example(leaf.schema, fixture));
          out.push({
            kind: `${at}: U+0000`,
            url: plain,
            body: withValue(reader, fixture, body, leaf, `${valid}${NUL}`),
            mustRefuse: refusesUnstorableText(op),
          });
          out.push({
            kind: `${at}: lone surrogate`,
            url: plain,
            body: withValue(reader, fixture, body, leaf, `${valid.slice(0, 1)}${LONE}${valid.slice(1)}`),
            mustRefuse: refusesUnstorableText(op),
          });
          if (!big) {
            big = true;
            out.push({ kind: `${at}: 1 MB`, url: plain, body: withValue(reader, fixture, body, leaf, 'x'.repeat(MB)) });
          }
        } else if (type === undefined && !leaf.schema.enum) {
          // Free-form JSON: unstorable text nested in it, and nesting far too deep.
          out.push({
            kind: `${at}: nested U+0000`,
            url: plain,
            body: withValue(reader, fixture, body, leaf, { fuzz: [`a${NUL}`] }),
          });
          out.push({
            kind: `${at}: nested lone surrogate key`,
            url: plain,
            body: withValue(reader, fixture, body, leaf, { [`k${LONE}`]: 1 }),
          });
          // As text: JSON.stringify itself cannot write 5000 levels.
          const deep = `${'['.repeat(5000)}1${']'.repeat(5000)}`;
          const rawBody = JSON.stringify(withValue(reader, fixture, body, leaf, '__fuzz_deep__')).replace(
            '"__fuzz_deep__"',
            deep,
          );
          out.push({ kind: `${at}: 5000 levels deep`, url: plain, rawBody });
        }
        if (type === 'integer' || type === 'number') {
          const numbers = type === 'integer' ? [...EXTREME_BODY_NUMBERS, FRACTION] : EXTREME_BODY_NUMBERS;
          for (const n of numbers)
            out.push({
              kind: `${at}: ${n}`,
              url: plain,
              body: withValue(reader, fixture, body, leaf, n),
              extreme: true,
            });
          for (const text of EXTREME_BODY_TEXT) {
            const rawBody = JSON.stringify(withValue(reader, fixture, body, leaf, '__fuzz_number__')).replace(
              '"__fuzz_number__"',
              text,
            );
            out.push({ kind: `${at}: ${text}`, url: plain, rawBody, extreme: true });
          }
        }
        const wrong = wrongType(reader, leaf.schema);
        if (wrong !== undefined)
          out.push({ kind: `${at}: wrong type`, url: plain, body: withValue(reader, fixture, body, leaf, wrong) });
      }
      if (!big) out.push({ kind: 'body: 1 MB', url: plain, body: { ...root, fuzz: 'x'.repeat(MB) } });
      return out;
    }

    /**
     * Sends a fuzz request with the client's session (none for null) or the device's key. Plain
     * fetch, not the client: its answers are judged here, not against the document.
     */
    async function send(op: Operation, client: ApiClient | null, r: FuzzRequest): Promise<Answer> {
      const headers: Record<string, string> = {};
      if (schemeOf(op) === 'deviceKey') headers.authorization = `Device ${fixture.device.deviceKey}`;
      else if (schemeOf(op) === 'hookSecret') headers[MQTT_AUTH_SECRET_HEADER] = HOOK_SECRET;
      else if (op.method !== 'GET') headers['x-requested-with'] = 'portal';
      const cookie = client?.cookieHeader();
      if (cookie) headers.cookie = cookie;
      const payload = r.rawBody ?? (r.body !== undefined ? JSON.stringify(r.body) : undefined);
      if (payload !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(tp.base + r.url, {
        method: op.method,
        headers,
        body: payload,
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await res.text();
      const contentType = res.headers.get('content-type') ?? '';
      let body: unknown;
      if (contentType.includes('application/json')) {
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
      }
      return { status: res.status, contentType, text, body };
    }

    /** Waits until the database stops changing (background work of an accepted request). */
    async function settle(): Promise<Snapshot> {
      let last = await snapshot(tp, snapshotSql);
      for (let i = 0; i < 50; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const next = await snapshotSince(tp, snapshotSql, last);
        if (changedTables(last, next).length === 0) return next;
        last = next;
      }
      return last;
    }

    it('has operations to fuzz, and a valid example body for each (the schema in the document accepts it)', () => {
      expect(operations.length).toBeGreaterThan(40);
      const ajv = new Ajv({ strict: false, allErrors: true });
      addFormats(ajv);
      const refused: string[] = [];
      for (const op of operations) {
        if (!op.body || BODY_SCHEMAS[opKey(op)]) continue;
        const validate = ajv.compile(toJsonSchema({ allOf: [op.body], components: { schemas: components } }) as object);
        if (!validate(baseBody(op)))
          refused.push(`${opKey(op)}: ${ajv.errorsText(validate.errors)} (add a valid body to BASE_BODIES)`);
      }
      expect(refused).toEqual([]);
    });

    it('answers every fuzz request of every operation without a 5xx, with { message, code } and no partial write', async () => {
      const started = Date.now();
      const heapBefore = heapAfterCollection();
      const rssBefore = process.memoryUsage().rss;
      const figures: Figures = {
        operations: 0,
        requests: 0,
        refused: 0,
        unstorableRefusals: 0,
        extremeNumbers: 0,
        ms: 0,
        heapBeforeMb: Math.round(heapBefore / MB),
        heapAfterMb: 0,
        rssBeforeMb: Math.round(rssBefore / MB),
        rssAfterMb: 0,
      };
      const failures: string[] = [];
      /** Mutating operations with at least one refused request whose database snapshot was compared. */
      const checked = new Set<string>();
      // The state before each request: the one after the previous request (checked unchanged, or settled).
      let before = await snapshot(tp, snapshotSql);
      for (const op of operations) {
        figures.operations += 1;
        for (const r of requestsOf(op)) {
          let client = staff;
          if (SESSION_ENDING.has(opKey(op))) {
            client = await signedIn(tp, staffLogin);
            before = await snapshot(tp, snapshotSql);
          }
          let res: Answer;
          try {
            res = await send(op, client, r);
          } catch (error) {
            // No answer within REQUEST_TIMEOUT_MS (or none at all): a hang, as issue 30's crash began.
            failures.push(`${opKey(op)} [${r.kind}] -> no answer: ${String(error)}`);
            continue;
          }
          figures.requests += 1;
          if (r.extreme) figures.extremeNumbers += 1;
          const where = `${opKey(op)} [${r.kind}] -> ${res.status}`;
          if (res.status >= 500) failures.push(`${where}: ${res.text.slice(0, 200)}`);
          if (res.status >= 400) {
            figures.refused += 1;
            const body = res.body as { message?: unknown; code?: unknown } | undefined;
            if (typeof body?.message !== 'string' || typeof body.code !== 'string')
              failures.push(`${where}: not a JSON { message, code }: ${res.contentType} ${res.text.slice(0, 120)}`);
            else if (body.message.includes(UNSTORABLE_TEXT_MESSAGE)) figures.unstorableRefusals += 1;
          }
          if (r.mustRefuse && res.status < 400) failures.push(`${where}: accepted text the database cannot store`);
          if (res.status >= 300) {
            const after = await snapshotSince(tp, snapshotSql, before);
            const changed = changedTables(before, after);
            if (changed.length > 0) failures.push(`${where}: refused, yet wrote ${changed.join(', ')}`);
            if (op.method !== 'GET') checked.add(opKey(op));
            before = after;
          } else {
            before = await settle();
          }
        }
      }
      figures.ms = Date.now() - started;
      const heapAfter = heapAfterCollection();
      figures.heapAfterMb = Math.round(heapAfter / MB);
      figures.rssAfterMb = Math.round(process.memoryUsage().rss / MB);
      console.log(`OpenAPI fuzz (${kind}): ${JSON.stringify(figures)}`);
      expect(Object.prototype).not.toHaveProperty('polluted');
      expect(failures).toEqual([]);
      // Every mutating route was walked: a refused request of each left the database as it was.
      const mutating = operations.filter((op) => op.method !== 'GET').map(opKey);
      expect(mutating.filter((key) => !checked.has(key))).toEqual([]);
      // The server still answers, and the run left its memory within MEMORY_GROWTH_LIMIT of where it began.
      expect((await tp.client().get('/api/health')).status).toBe(200);
      // The heap after a full collection: resident memory also holds freed pages the allocator keeps
      // and the embedded database's WebAssembly memory, which only grows (-160 to +216 MB between runs).
      expect(heapAfter - heapBefore).toBeLessThan(MEMORY_GROWTH_LIMIT);
      // The session survived the run (no fuzz request signed the caller out or broke the fixture).
      expect((await staff.get(`/api/device/${fixture.device.deviceid}/settings`)).status).toBe(200);
    }, 300_000);
  });
}

describeFuzz('pglite');

await describeWhenPostgres('OpenAPI fuzz (postgres)', () => describeFuzz('postgres'));
