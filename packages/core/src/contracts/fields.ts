/**
 * Field builders every request contract uses: text (`safeString`, never a bare z.string()),
 * free-form JSON (`storableJson`) and colours (`ColourSchema`). Response schemas describe what
 * the server already stored and keep z.string().
 */
import { z } from 'zod';
import { COLOUR_MESSAGE, isCssColour } from '../domain/colour';
import { UNSTORABLE_TEXT_MESSAGE, isStorableText, jsonStorageProblem } from '../domain/text';

/**
 * A string the database can store: U+0000 and unpaired surrogates are refused with
 * UNSTORABLE_TEXT_MESSAGE. Chain limits and transforms as on z.string() (`safeString().max(20)`).
 */
export function safeString(params?: string | { message?: string }) {
  return z.string(params).refine(isStorableText, { message: UNSTORABLE_TEXT_MESSAGE });
}

/**
 * Any JSON value (rpc args and the like) whose keys and strings are all storable text, nested at
 * most JSON_MAX_DEPTH deep; the issue names the path of the first offending key or value.
 */
export function storableJson() {
  return z.unknown().superRefine((value, ctx) => {
    const problem = jsonStorageProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  });
}

/** A colour field: a hex colour or a CSS colour name (isCssColour). */
export const ColourSchema = safeString({ message: 'colour must be text' })
  .max(32, COLOUR_MESSAGE)
  .refine(isCssColour, COLOUR_MESSAGE);

// ---- Numbers -------------------------------------------------------------------------------------

/** Latest epoch second a request may name: 2100-01-01T00:00:00Z (DESIGN.md section 5). */
export const REQUEST_EPOCH_S_MAX = 4_102_444_800;

/**
 * Largest magnitude of a stored number (a record's value, a threshold, a limit): 2^53 - 1, the
 * largest whole number a double holds exactly. Sums of any number of such values stay finite,
 * so no aggregate over them can overflow (docs/decisions.md, 'Bounded numbers').
 */
export const VALUE_MAX = Number.MAX_SAFE_INTEGER;

/** Options of a bounded number: whole numbers only, and the words its message uses for the kind of number. */
interface NumberBounds {
  int?: boolean;
  /** What the number is, for the message ('epoch seconds'); default 'a number' or 'a whole number'. */
  kind?: string;
}

/** The message of a number outside its bounds (or no number at all): it names the allowed range. */
export function rangeMessage(name: string, min: number, max: number, options: NumberBounds = {}): string {
  const kind = options.kind ?? (options.int ? 'a whole number' : 'a number');
  return `${name} must be ${kind} from ${min} to ${max}`;
}

/**
 * A number from `min` to `max` (both in the schema: the OpenAPI document shows them), whole with
 * `int`; anything else, Infinity and NaN included, is refused with a message naming the range.
 */
export function boundedNumber(name: string, min: number, max: number, options: NumberBounds = {}) {
  const message = rangeMessage(name, min, max, options);
  const n = z.number({ message }).min(min, message).max(max, message);
  return options.int ? n.int(message) : n;
}

/** Query text as a number: '' and blanks are missing, text that is not a number stays NaN (refused). */
export function queryText(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  return v.trim() === '' ? undefined : Number(v);
}

/** An optional number of a query string, from `min` to `max` (as boundedNumber). */
export function queryNumber(name: string, min: number, max: number, options: NumberBounds = {}) {
  return z.preprocess(queryText, boundedNumber(name, min, max, options).optional());
}

/** An optional time of a query string: epoch seconds from 0 to REQUEST_EPOCH_S_MAX. */
export function queryTime(name: string, options: { int?: boolean } = {}) {
  return queryNumber(name, 0, REQUEST_EPOCH_S_MAX, {
    ...options,
    kind: options.int ? 'whole epoch seconds' : 'epoch seconds',
  });
}

/** An optional stored value (threshold, axis limit, filter value): a number of magnitude at most VALUE_MAX. */
export function valueNumber(name: string) {
  return boundedNumber(name, -VALUE_MAX, VALUE_MAX);
}
