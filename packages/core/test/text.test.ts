import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as core from '../src/index';
import {
  JSON_MAX_DEPTH,
  JSON_TOO_DEEP_MESSAGE,
  UNSTORABLE_TEXT_MESSAGE,
  isJsonTextStorableAsIs,
  isStorableJson,
  isStorableText,
  jsonStorageProblem,
  safeString,
  sanitise,
  sanitiseDisplayText,
  storableJson,
  stripUnstorable,
  truncateText,
} from '../src/index';

const UNSTORABLE = ['\u0000', 'a\u0000b', '\ud800', 'a\ud800b', '\udfff', 'x\udc00', '\udbff\udbff\udc00', '\ud83d'];
const STORABLE = ['', 'plain', '__proto__', '\u{1F600}', 'é', '\u0001\u001f', '\ufffd', 'a\ud83d\ude00b', '\\u0000'];

describe('isStorableText (U+0000 and unpaired surrogates)', () => {
  it.each(UNSTORABLE.map((t) => [JSON.stringify(t), t]))('refuses %s', (_label, text) => {
    expect(isStorableText(text)).toBe(false);
  });
  it.each(STORABLE.map((t) => [JSON.stringify(t), t]))('accepts %s', (_label, text) => {
    expect(isStorableText(text)).toBe(true);
  });
  it('is linear on a 1 MB text', () => {
    const big = 'a'.repeat(1024 * 1024);
    expect(isStorableText(big)).toBe(true);
    expect(isStorableText(`${big}\u0000`)).toBe(false);
  });
});

describe('stripUnstorable, and the sanitisers of names and display texts with it', () => {
  it('removes U+0000 and unpaired surrogates only', () => {
    expect(stripUnstorable('a\u0000b\ud800c\udc00')).toBe('abc');
    expect(stripUnstorable('\udbff\udbff\udc00')).toBe('\udbff\udc00');
    for (const text of STORABLE) expect(stripUnstorable(text)).toBe(text);
    for (const text of UNSTORABLE) expect(isStorableText(stripUnstorable(text))).toBe(true);
  });
  it('sanitise and sanitiseDisplayText give storable text', () => {
    expect(sanitise('Pu\u0000mp\ud800 <1>')).toBe('Pump 1');
    expect(sanitiseDisplayText('\ud800ON\u0000')).toBe('ON');
  });
});

describe('safeString', () => {
  it('refuses unstorable text with the one message, and chains like z.string()', () => {
    const schema = safeString().max(5);
    expect(schema.safeParse('ok').success).toBe(true);
    for (const text of UNSTORABLE) {
      const result = schema.safeParse(text);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => i.message)).toContain(UNSTORABLE_TEXT_MESSAGE);
    }
    expect(schema.safeParse('toolong').success).toBe(false);
    expect(safeString({ message: 'must be text' }).safeParse(5).error?.issues[0]?.message).toBe('must be text');
    for (const hostile of [null, undefined, {}, ['x']]) expect(safeString().safeParse(hostile).success).toBe(false);
  });
});

describe('jsonStorageProblem and storableJson (free-form JSON)', () => {
  it('accepts storable JSON', () => {
    for (const value of [
      null,
      1,
      true,
      'x',
      [],
      {},
      { a: [1, 'b', { c: null }] },
      JSON.parse('{"__proto__":{"x":1}}'),
    ]) {
      expect(jsonStorageProblem(value)).toBeNull();
      expect(isStorableJson(value)).toBe(true);
    }
  });
  it('names the path of an unstorable string or key', () => {
    expect(jsonStorageProblem({ a: [1, { b: 'x\u0000' }] })).toEqual({
      path: ['a', 1, 'b'],
      message: UNSTORABLE_TEXT_MESSAGE,
    });
    expect(jsonStorageProblem({ a: { 'k\ud800': 1 } })).toEqual({
      path: ['a', 'k\ud800'],
      message: UNSTORABLE_TEXT_MESSAGE,
    });
    expect(jsonStorageProblem('\udc00')).toEqual({ path: [], message: UNSTORABLE_TEXT_MESSAGE });
  });
  it(`refuses nesting deeper than ${JSON_MAX_DEPTH}, without overflowing the stack on 100,000 levels`, () => {
    const nest = (n: number) => {
      let v: unknown = 1;
      for (let i = 0; i < n; i += 1) v = [v];
      return v;
    };
    expect(jsonStorageProblem(nest(JSON_MAX_DEPTH))).toBeNull();
    expect(jsonStorageProblem(nest(JSON_MAX_DEPTH + 1))?.message).toBe(JSON_TOO_DEEP_MESSAGE);
    expect(jsonStorageProblem(nest(100_000))?.message).toBe(JSON_TOO_DEEP_MESSAGE);
  });
  it('storableJson() reports the issue at its path inside a contract', () => {
    const schema = z.strictObject({ args: storableJson().optional() });
    expect(schema.safeParse({ args: { a: 'ok' } }).success).toBe(true);
    expect(schema.safeParse({}).success).toBe(true);
    const issue = schema.safeParse({ args: { list: ['a', 'b\u0000'] } }).error?.issues[0];
    expect(issue).toMatchObject({ path: ['args', 'list', 1], message: UNSTORABLE_TEXT_MESSAGE });
  });
});

describe('isJsonTextStorableAsIs', () => {
  it.each([
    ['{"a":"x"}', true],
    ['{"a":"\\u00e9"}', true],
    ['{"a":"\\u0000"}', false],
    ['{"a":"\\u0000","a":1}', false],
    ['{"a":"\\ud800"}', false],
    ['{"a":"\\uDC00"}', false],
    // A valid escaped pair is storable, but written out again all the same (cheaper than pairing escapes).
    ['{"a":"\\ud83d\\ude00"}', false],
  ])('%s -> %s', (text, expected) => {
    expect(isJsonTextStorableAsIs(text)).toBe(expected);
  });
});

describe('truncateText', () => {
  it('cuts without splitting a surrogate pair', () => {
    expect(truncateText('abc', 5)).toBe('abc');
    expect(truncateText('abcdef', 3)).toBe('abc');
    expect(truncateText('a\u{1F600}b', 2)).toBe('a');
    expect(truncateText('a\u{1F600}b', 3)).toBe('a\u{1F600}');
    expect(isStorableText(truncateText('\u{1F600}'.repeat(10), 7))).toBe(true);
  });
});

/** Exported request contracts: the schemas of what clients and devices send. */
const REQUEST_SCHEMA = /(Body|Query|Params|Request|Cancel|Patch|Document)Schema$/;

/** Every string schema inside a Zod schema (objects, records and their keys, arrays, unions, wrappers, pipes). */
function stringSchemas(schema: z.ZodType, path: string, out: { path: string; schema: z.ZodType }[], seen = new Set()) {
  if (seen.has(schema)) return out;
  seen.add(schema);
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  const visit = (child: unknown, at: string) => child && stringSchemas(child as z.ZodType, at, out, seen);
  switch (def.type) {
    case 'string':
      out.push({ path, schema });
      break;
    case 'object':
      for (const [key, child] of Object.entries(def.shape as Record<string, unknown>)) visit(child, `${path}.${key}`);
      visit(def.catchall, `${path}.*`);
      break;
    case 'record':
      visit(def.keyType, `${path}{key}`);
      visit(def.valueType, `${path}.*`);
      break;
    case 'array':
      visit(def.element, `${path}[]`);
      break;
    case 'union':
      (def.options as unknown[]).forEach((o, i) => visit(o, `${path}|${i}`));
      break;
    case 'intersection':
      visit(def.left, path);
      visit(def.right, path);
      break;
    case 'pipe':
      visit(def.in, path);
      visit(def.out, path);
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      visit(def.innerType, path);
      break;
  }
  return out;
}

describe('every string of every request contract refuses unstorable text (safeString, never z.string())', () => {
  const requests = Object.entries(core).filter(
    ([name, value]) => REQUEST_SCHEMA.test(name) && name !== 'ErrorBodySchema' && value instanceof z.ZodType,
  ) as [string, z.ZodType][];
  const strings = requests.flatMap(([name, schema]) => stringSchemas(schema, name, []));

  it('finds the request contracts and their strings', () => {
    const names = requests.map(([name]) => name);
    for (const name of [
      'RpcRequestSchema',
      'DeviceSettingsPutBodySchema',
      'DeviceConfigPutBodySchema',
      'ProvLogBodySchema',
    ])
      expect(names).toContain(name);
    expect(strings.length).toBeGreaterThan(50);
  });

  it.each(strings.map((s) => [s.path, s.schema]))('%s', (_path, schema) => {
    for (const text of ['a\u0000', 'a\ud800']) {
      const result = (schema as z.ZodType).safeParse(text);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => i.message)).toContain(UNSTORABLE_TEXT_MESSAGE);
    }
  });
});
