/**
 * Text the portal can store. PostgreSQL (and PGlite) refuse U+0000 in `text` and `jsonb`, and
 * a string holding an unpaired UTF-16 surrogate cannot be written as UTF-8 at all (pg turns it
 * into U+FFFD, jsonb refuses its \ud800 escape). Every text the API or a device gives is checked
 * by this one rule: request contracts through `safeString`/`storableJson` (contracts/fields.ts),
 * query strings and path parameters by the server before any route runs, device messages by
 * the record validator.
 */

/** U+0000, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
// eslint-disable-next-line no-control-regex -- U+0000 is what this rule finds
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What a refused text is told (prefixed with its field by the server). */
export const UNSTORABLE_TEXT_MESSAGE = 'Text must not contain U+0000 (NUL) or an unpaired surrogate';

/** Deepest nesting of objects and arrays a free-form JSON value may have. */
export const JSON_MAX_DEPTH = 32;
export const JSON_TOO_DEEP_MESSAGE = `JSON nested more than ${JSON_MAX_DEPTH} levels deep`;

/** True when PostgreSQL can store `text` (no U+0000, no unpaired surrogate). */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** `text` without its U+0000 and unpaired surrogates (what a form does with them before sending). */
export function stripUnstorable(text: string): string {
  return isStorableText(text) ? text : text.replace(new RegExp(UNSTORABLE.source, 'g'), '');
}

/** Where a free-form JSON value cannot be stored, and why. */
export interface JsonProblem {
  /** Keys and indexes from the value's root to the offending key or value. */
  path: (string | number)[];
  message: string;
}

interface Frame {
  value: unknown;
  depth: number;
  key: string | number | null;
  parent: Frame | null;
}

function pathOf(frame: Frame): (string | number)[] {
  const path: (string | number)[] = [];
  for (let f: Frame | null = frame; f && f.key !== null; f = f.parent) path.unshift(f.key);
  return path;
}

/**
 * The first reason a free-form JSON value (rpc args, diagnostics, config values) cannot be
 * stored as jsonb: a key or string that is not storable text, or nesting deeper than
 * `maxDepth` containers. Null when it can. Walks without recursion, so no input overflows the stack.
 */
export function jsonStorageProblem(value: unknown, maxDepth: number = JSON_MAX_DEPTH): JsonProblem | null {
  const stack: Frame[] = [{ value, depth: 0, key: null, parent: null }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const v = frame.value;
    if (typeof v === 'string') {
      if (!isStorableText(v)) return { path: pathOf(frame), message: UNSTORABLE_TEXT_MESSAGE };
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    const depth = frame.depth + 1;
    if (depth > maxDepth) return { path: pathOf(frame), message: JSON_TOO_DEEP_MESSAGE };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i -= 1) stack.push({ value: v[i], depth, key: i, parent: frame });
      continue;
    }
    const keys = Object.keys(v);
    for (const key of keys) {
      if (!isStorableText(key)) return { path: [...pathOf(frame), key], message: UNSTORABLE_TEXT_MESSAGE };
    }
    for (let i = keys.length - 1; i >= 0; i -= 1) {
      const key = keys[i]!;
      stack.push({ value: (v as Record<string, unknown>)[key], depth, key, parent: frame });
    }
  }
  return null;
}

/** True when every key and string of a JSON value is storable text and it nests at most `maxDepth` deep. */
export function isStorableJson(value: unknown, maxDepth: number = JSON_MAX_DEPTH): boolean {
  return jsonStorageProblem(value, maxDepth) === null;
}

/** An escape in JSON text that decodes to U+0000 or to half of a surrogate pair. */
const UNSTORABLE_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

/**
 * Whether jsonb can read a JSON text as it is, for storing a parsed value from its own text.
 * jsonb reads the whole text, also what JSON.parse dropped (the first value of a repeated key),
 * so a text with a \u0000 or surrogate escape anywhere (a valid pair too) is written out again
 * from the checked value instead.
 */
export function isJsonTextStorableAsIs(text: string): boolean {
  return !text.includes('\\u') || !UNSTORABLE_ESCAPE.test(text);
}

/**
 * Cuts text to at most `max` UTF-16 units without splitting a surrogate pair (a cut pair would
 * leave an unpaired surrogate that cannot be stored). For log lines built from device text.
 */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}
