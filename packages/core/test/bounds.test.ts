/** Numbers of requests are bounded where they are declared, and a refusal names the allowed range (issue 30). */
import { describe, expect, it } from 'vitest';
import {
  DataQuerySchema,
  ExportQuerySchema,
  GroupDataQuerySchema,
  REQUEST_EPOCH_S_MAX,
  ServerLogQuerySchema,
  boundedNumber,
  queryNumber,
} from '../src/index';

/** The message the API answers: the first issue's (plugins/errors.ts), or none. */
const messagesOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : [result.error!.issues[0]!.message];

describe('bounded numbers', () => {
  it('refuse what lies outside, NaN and infinities, naming the range', () => {
    const n = boundedNumber('n', 1, 5, { int: true });
    expect(n.parse(1)).toBe(1);
    expect(n.parse(5)).toBe(5);
    for (const bad of [0, 6, 1.5, Number.NaN, Infinity, -Infinity, 1e308, 2 ** 53 + 1, 'x'])
      expect(messagesOf(n.safeParse(bad))).toEqual(['n must be a whole number from 1 to 5']);
  });

  it('read query text: blanks are missing, anything else must be a number in range', () => {
    const q = queryNumber('q', 0, 10);
    expect(q.parse(undefined)).toBeUndefined();
    expect(q.parse('')).toBeUndefined();
    expect(q.parse(' 2.5 ')).toBe(2.5);
    for (const bad of ['1e23', '-1', 'NaN', 'Infinity', '1e400', 'abc'])
      expect(messagesOf(q.safeParse(bad))).toEqual(['q must be a number from 0 to 10']);
  });
});

describe('query bounds of the read calls', () => {
  it('GET /group/{groupid}/data: messages 0 to 20, times to 2100', () => {
    expect(GroupDataQuerySchema.parse({ messages: '20' }).messages).toBe(20);
    for (const messages of ['21', '-1', '1.5'])
      expect(messagesOf(GroupDataQuerySchema.safeParse({ messages }))).toEqual([
        'messages must be a whole number from 0 to 20',
      ]);
    expect(messagesOf(GroupDataQuerySchema.safeParse({ from: '0', to: '1e23' }))).toEqual([
      `to must be whole epoch seconds from 0 to ${REQUEST_EPOCH_S_MAX}`,
    ]);
  });

  it('GET /device/{id}/data and /export: times from 0 to 2100, relative and dataPoints capped', () => {
    for (const [field, value] of [
      ['fromTime', '-1e23'],
      ['toTime', '99999999999999999999999'],
      ['toTime', '1e308'],
    ] as const) {
      expect(messagesOf(DataQuerySchema.safeParse({ [field]: value }))).toEqual([
        `${field} must be epoch seconds from 0 to ${REQUEST_EPOCH_S_MAX}`,
      ]);
      expect(messagesOf(ExportQuerySchema.safeParse({ [field]: value }))).toEqual([
        `${field} must be epoch seconds from 0 to ${REQUEST_EPOCH_S_MAX}`,
      ]);
    }
    expect(messagesOf(DataQuerySchema.safeParse({ relative: '1e23' }))).toEqual([
      `relative must be a number from 0 to ${REQUEST_EPOCH_S_MAX * 1000}`,
    ]);
    expect(messagesOf(DataQuerySchema.safeParse({ dataPoints: '10001' }))).toEqual([
      'dataPoints must be a whole number from 1 to 10000',
    ]);
    expect(messagesOf(ServerLogQuerySchema.safeParse({ before: '0' }))).toEqual([
      'before must be an entry id from 1 to 2147483647',
    ]);
  });
});
