/**
 * Every answer a server test receives is checked against the OpenAPI document of the portal that
 * gave it (GET /api/openapi.json, generated from the Zod contracts): its status must be documented
 * for the operation, its content type among the documented ones, and a JSON body must validate
 * against the documented schema. The shared ApiClient (../helpers.ts) calls checkResponse after
 * every request, so a non-conforming answer fails the test that received it.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { OpenApiDocument } from './document';

/** What a test received, as the client recorded it. */
export interface ResponseRecord {
  method: string;
  /** The path asked for, with its query. */
  path: string;
  status: number;
  contentType: string;
  /** The answer's text (parsed when its content type is JSON). */
  text: string;
}

/** The operation of the document a request reached, once matched. */
export interface MatchedOperation {
  /** The path template of the document, e.g. /api/device/{id}/settings. */
  route: string;
  operationId: string;
}

type Json = Record<string, unknown>;

/**
 * OpenAPI 3.0 `nullable` as JSON Schema: Ajv reads `nullable: true` next to a `type` itself; a
 * schema without a type (anyOf, $ref, any value) becomes anyOf [the schema, null].
 */
export function toJsonSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toJsonSchema);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'properties' && child && typeof child === 'object') {
      // Property names are names (a property may be called `default`); their values are schemas.
      out[key] = Object.fromEntries(Object.entries(child).map(([name, schema]) => [name, toJsonSchema(schema)]));
    } else {
      // Enum values, defaults and examples are data, not schemas.
      out[key] = key === 'enum' || key === 'example' || key === 'default' ? child : toJsonSchema(child);
    }
  }
  if (out.nullable === true && out.type === undefined) {
    delete out.nullable;
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

/**
 * Answers of Node's HTTP server before any route runs (plugins/http-parse-errors.ts): an address or
 * headers over its limit (431), a request too slow to arrive (408). No operation gives them, so the
 * document lists them nowhere.
 */
const BEFORE_ROUTING = new Set([408, 431]);

const media = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();
const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

/** The validators of one document: operations by method and path, schemas compiled on first use. */
export class ResponseContract {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly routes: { method: string; route: string; pattern: RegExp; literals: number }[] = [];

  constructor(readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    for (const [route, operations] of Object.entries(document.paths)) {
      const segments = route.split('/').filter(Boolean);
      const pattern = new RegExp(
        `^/${segments.map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/')}/?$`,
      );
      const literals = segments.filter((s) => !s.startsWith('{')).length;
      for (const method of Object.keys(operations))
        this.routes.push({ method: method.toUpperCase(), route, pattern, literals });
    }
    // A static segment wins over a parameter, as in the router.
    this.routes.sort((a, b) => b.literals - a.literals);
  }

  /** The documented operation a request reaches, or null (not an operation of the document). */
  match(method: string, path: string): MatchedOperation | null {
    const pathname = path.split(/[?#]/)[0] ?? '';
    const found = this.routes.find((r) => r.method === method.toUpperCase() && r.pattern.test(pathname));
    if (!found) return null;
    const operation = this.document.paths[found.route]![found.method.toLowerCase()]!;
    return { route: found.route, operationId: operation.operationId ?? `${found.method} ${found.route}` };
  }

  /** The problems of an answer against the document (empty when it conforms). */
  problems(record: ResponseRecord): { operation: MatchedOperation | null; problems: string[] } {
    const operation = this.match(record.method, record.path);
    if (!operation || BEFORE_ROUTING.has(record.status)) return { operation, problems: [] };
    const documented = this.document.paths[operation.route]![record.method.toLowerCase()]!;
    const status = String(record.status);
    const answer =
      documented.responses[status] ?? documented.responses[`${status[0]}XX`] ?? documented.responses.default;
    if (!answer) {
      const listed = Object.keys(documented.responses).join(', ');
      return { operation, problems: [`status ${status} is not documented (documented: ${listed})`] };
    }
    // No content (204, or an answer with an empty body and no content documented).
    if (record.text === '' && (record.status === 204 || !answer.content)) return { operation, problems: [] };
    const mediaType = media(record.contentType);
    const content = answer.content ?? {};
    const documentedTypes = Object.keys(content);
    if (!documentedTypes.includes(mediaType)) {
      return {
        operation,
        problems: [
          `content type ${mediaType || '(none)'} is not documented for ${status} (documented: ${documentedTypes.join(', ') || 'no content'})`,
        ],
      };
    }
    if (!isJson(mediaType) || !content[mediaType]!.schema) return { operation, problems: [] };
    let body: unknown;
    try {
      body = JSON.parse(record.text);
    } catch {
      return { operation, problems: ['the body is not JSON'] };
    }
    const validate = this.validator(
      operation.route,
      record.method.toLowerCase(),
      status,
      mediaType,
      content[mediaType]!.schema!,
    );
    if (validate(body)) return { operation, problems: [] };
    return {
      operation,
      problems: (validate.errors ?? []).map(
        (e) =>
          `${e.instancePath || '(body)'} ${e.message ?? 'is invalid'}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
      ),
    };
  }

  private validator(route: string, method: string, status: string, mediaType: string, schema: Json): ValidateFunction {
    const key = `${method} ${route} ${status} ${mediaType}`;
    let validate = this.validators.get(key);
    if (!validate) {
      // The schema with the document's components, so #/components/schemas/... refs resolve.
      validate = this.ajv.compile(
        toJsonSchema({ allOf: [schema], components: this.document.components ?? {} }) as Json,
      );
      this.validators.set(key, validate);
    }
    return validate;
  }
}

const contracts = new Map<string, Promise<ResponseContract>>();
/** Contracts by document text: portals of the same code share their compiled validators. */
const byDocument = new Map<string, ResponseContract>();

/** The contract of the portal at `base` (its document is read once). */
export function contractOf(base: string): Promise<ResponseContract> {
  let contract = contracts.get(base);
  if (!contract) {
    contract = fetch(`${base}/api/openapi.json`).then(async (res) => {
      const text = await res.text();
      if (!res.ok) throw new Error(`GET /api/openapi.json answered ${res.status}: ${text}`);
      let known = byDocument.get(text);
      if (!known) {
        known = new ResponseContract(JSON.parse(text) as OpenApiDocument);
        byDocument.set(text, known);
      }
      return known;
    });
    contracts.set(base, contract);
    // A portal that failed to answer is asked again next time.
    contract.catch(() => contracts.delete(base));
  }
  return contract;
}

/** Error thrown into the test whose request got an answer the document does not describe. */
export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

/**
 * Checks an answer of the portal at `base`; throws a ContractViolation naming the call, the
 * operation and each problem. Answers outside the document's operations pass.
 */
export async function checkResponse(base: string, record: ResponseRecord): Promise<MatchedOperation | null> {
  if (!record.path.startsWith('/api/') || record.method === 'HEAD' || record.method === 'OPTIONS') return null;
  const contract = await contractOf(base);
  const { operation, problems } = contract.problems(record);
  if (problems.length > 0) {
    const body = record.text.length > 800 ? `${record.text.slice(0, 800)}...` : record.text;
    throw new ContractViolation(
      `${record.method} ${record.path} (${operation?.operationId}) answered ${record.status} ${record.contentType}, ` +
        `which the OpenAPI document does not describe:\n  ${problems.slice(0, 10).join('\n  ')}\nbody: ${body}`,
    );
  }
  return operation;
}
