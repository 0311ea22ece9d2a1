/**
 * Every number a request carries is bounded where it is declared (DESIGN.md section 5): walks each
 * operation of the OpenAPI document (so a new one is covered without being listed) and fails on a
 * numeric path, query or body field without both a minimum and a maximum. Zod gives every .int()
 * the bounds +-(2^53 - 1) on its own; those count as none (they bound nothing a request could
 * not already say). A time (a field named like one) ends by 2100-01-01 at the latest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_EPOCH_S_MAX } from '@portal/core';
import { buildDocumentedApp, type DocumentedApp } from './document';

interface Schema {
  type?: string | string[];
  $ref?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
}

interface Document {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; schema?: Schema }[];
        requestBody?: { content?: Record<string, { schema?: Schema }> };
      }
    >
  >;
  components?: { schemas?: Record<string, Schema> };
}

const TIME_NAME = /(^|[a-z])(Time|Ts)$|^(from|to|before|after|ts)$/;

/** The numeric fields of a request without both bounds (or a time ending after REQUEST_EPOCH_S_MAX), as 'METHOD /path where'. */
function unbounded(doc: Document): string[] {
  const components = doc.components?.schemas ?? {};
  const out: string[] = [];
  const walk = (schema: Schema | undefined, where: string, name: string, seen: Set<string>): void => {
    if (!schema) return;
    if (schema.$ref) {
      const ref = schema.$ref.replace('#/components/schemas/', '');
      if (seen.has(ref)) return;
      return walk(components[ref], where, name, new Set([...seen, ref]));
    }
    for (const part of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])
      walk(part, where, name, seen);
    const types = [schema.type].flat();
    if (
      (types.includes('number') || types.includes('integer')) &&
      schema.enum === undefined &&
      schema.const === undefined
    ) {
      const min = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : schema.minimum;
      const max = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : schema.maximum;
      const implicit = (n: number | undefined) =>
        n !== undefined && Math.abs(n) === Number.MAX_SAFE_INTEGER && types.includes('integer');
      if (min === undefined || max === undefined || implicit(min) || implicit(max))
        out.push(`${where}: minimum ${min ?? 'none'}, maximum ${max ?? 'none'}`);
      else if (TIME_NAME.test(name) && max > REQUEST_EPOCH_S_MAX) out.push(`${where}: a time up to ${max}`);
    }
    for (const [key, child] of Object.entries(schema.properties ?? {})) walk(child, `${where}.${key}`, key, seen);
    if (typeof schema.additionalProperties === 'object') walk(schema.additionalProperties, `${where}.*`, name, seen);
    if (schema.items) walk(schema.items, `${where}[]`, name, seen);
  };
  for (const [path, methods] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(methods)) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const p of op.parameters ?? []) walk(p.schema, `${at} ${p.in} ${p.name}`, p.name, new Set());
      for (const media of Object.values(op.requestBody?.content ?? {})) walk(media.schema, `${at} body`, '', new Set());
    }
  return [...new Set(out)];
}

describe('numbers of requests (OpenAPI document)', () => {
  let documented: DocumentedApp;
  beforeAll(async () => {
    documented = await buildDocumentedApp();
  });
  afterAll(async () => {
    await documented?.close();
  });

  it('bounds every numeric path, query and body field of every operation on both sides', () => {
    const doc = documented.document() as unknown as Document;
    expect(Object.keys(doc.paths).length).toBeGreaterThan(40);
    expect(unbounded(doc)).toEqual([]);
  });

  it('finds a field without a maximum, an integer with only Zod bounds, and a time past 2100', () => {
    const doc = documented.document() as unknown as Document;
    const op = doc.paths['/api/device/{id}/data']!.get!;
    const param = (name: string) => op.parameters!.find((p) => p.name === name)!;
    delete param('dataPoints').schema!.maximum;
    param('fromTime').schema!.maximum = 1e12;
    op.parameters!.push({
      in: 'query',
      name: 'count',
      schema: { type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
    });
    expect(unbounded(doc)).toEqual([
      'GET /api/device/{id}/data query dataPoints: minimum 1, maximum none',
      'GET /api/device/{id}/data query fromTime: a time up to 1000000000000',
      `GET /api/device/{id}/data query count: minimum -${Number.MAX_SAFE_INTEGER}, maximum ${Number.MAX_SAFE_INTEGER}`,
    ]);
  });
});
