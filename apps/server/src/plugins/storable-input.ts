/**
 * The address of every request (path parameters and query string) holds only text the database
 * can store, by core's one text rule: `/api/device/%00/data` or `?dataKeys=%00` is a 400 before
 * any hook or handler of the route runs (device authentication included), whatever its schema.
 * Bodies are checked by their contracts (safeString, storableJson).
 */
import type { FastifyInstance } from 'fastify';
import { UNSTORABLE_TEXT_MESSAGE, isStorableText } from '@portal/core';
import { AppError } from '../errors';

/** The first name in `values` (params or query) whose text, or one of whose repeated texts, cannot be stored. */
function unstorableName(values: unknown): string | null {
  if (typeof values !== 'object' || values === null) return null;
  for (const [name, value] of Object.entries(values)) {
    if (!isStorableText(name)) return 'parameter name';
    const texts = Array.isArray(value) ? value : [value];
    for (const text of texts) if (typeof text === 'string' && !isStorableText(text)) return name;
  }
  return null;
}

export function registerStorableInput(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const name = unstorableName(request.params) ?? unstorableName(request.query);
    if (name !== null) throw new AppError(400, 'BAD_REQUEST', `${name}: ${UNSTORABLE_TEXT_MESSAGE}`);
  });
}
