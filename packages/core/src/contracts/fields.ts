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
