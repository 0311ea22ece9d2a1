import { describe, expect, it } from 'vitest';
import {
  CARD_MESSAGES,
  CONFIG_LOAD_ERROR,
  CUSTOM_SETTING_QUEUED,
  GENERIC_ERROR_TEXT,
  MESSAGE_MAX_LENGTH,
  MFA_ERROR_DELAY_MS,
  PAGE_NOT_FOUND_TEXT,
  PORTAL_SETTINGS_LOAD_ERROR,
  TOAST_LIFE_MS,
  UNKNOWN_ERROR_MESSAGE,
  errorMessage,
  isNoCurrentUser,
  lastKnownValueTooltip,
  loadErrorDetail,
  mfaFailureMessage,
  mutationErrorMessage,
  mutationSuccessMessage,
  toastId,
  trendTooltip,
  widgetLimitMessage,
} from '../src/index';

const LONG = 'y'.repeat(100_000);

describe('verbatim texts', () => {
  it.each([
    [
      GENERIC_ERROR_TEXT,
      'An error occurred! This has been automatically reported to our support team. Please try again later or contact support if the issue persists.',
    ],
    [PAGE_NOT_FOUND_TEXT, 'Page not found!'],
    [UNKNOWN_ERROR_MESSAGE, 'An unknown error occurred'],
    [CONFIG_LOAD_ERROR, 'Failed to load device configuration.'],
    [PORTAL_SETTINGS_LOAD_ERROR, 'Failed to load Portal settings for this device.'],
    [CUSTOM_SETTING_QUEUED, 'The change has been queued, and will be pushed next time the device makes contact.'],
    [CARD_MESSAGES.noData, 'No Data Available'],
    [CARD_MESSAGES.noEvents, 'No Events'],
    [CARD_MESSAGES.firmwareUpdateRequired, 'Firmware Update Required'],
    [CARD_MESSAGES.errorLoadingData, 'Error Loading Data'],
    [CARD_MESSAGES.base64Failed, 'Failed to display as base64'],
    [CARD_MESSAGES.hexFailed, 'Failed to display as hex'],
    [CARD_MESSAGES.processFailed, 'Failed to process data'],
    [widgetLimitMessage('custom widget', 99), 'Maximum number of custom widgets reached [99]'],
    [widgetLimitMessage('chart', 5), 'Maximum number of charts reached [5]'],
    [lastKnownValueTooltip('10:00'), 'Last known value from 10:00'],
    [trendTooltip('up', '3'), 'Increased from 3'],
    [trendTooltip('down', '3'), 'Decreased from 3'],
  ])('%s', (actual, expected) => expect(actual).toBe(expected));

  it('timings', () => {
    expect(TOAST_LIFE_MS).toBe(7000);
    expect(MFA_ERROR_DELAY_MS).toBe(2000);
  });
});

describe('toastId (ERR-03)', () => {
  it.each([
    ['Error Loading Data', 'Error Loading D'],
    ['Error Loading Data again', 'Error Loading D'],
    ['short', 'short'],
    ['', ''],
    ['😀'.repeat(20), '😀'.repeat(15)],
    [LONG, 'y'.repeat(15)],
  ])('toastId(%s) -> %s', (text, id) => expect(toastId(text)).toBe(id));
});

describe('ERR-02 loadErrorDetail', () => {
  it.each<[unknown, string]>([
    [{ message: 'X' }, 'X'],
    [new Error('X'), 'X'],
    [{ response: { data: { message: 'From server' } }, message: 'Request failed' }, 'From server'],
    [{ body: { message: 'From body', code: 'FORBIDDEN' }, message: 'Forbidden' }, 'From body'],
    [{ body: 'Y' }, 'Y'],
    [{ response: { data: 'Y' } }, 'Y'],
    [{ response: 'Y' }, 'Y'],
    ['plain string', 'plain string'],
    [{}, 'Error Loading Data'],
    [null, 'Error Loading Data'],
    [undefined, 'Error Loading Data'],
    [42, 'Error Loading Data'],
    ['', 'Error Loading Data'],
    [{ message: '' }, 'Error Loading Data'],
    [{ message: '   ' }, 'Error Loading Data'],
    [{ message: 42 }, 'Error Loading Data'],
    [{ response: { data: { message: { nested: true } } } }, 'Error Loading Data'],
    [JSON.parse('{"__proto__": {"message": "polluted"}}'), 'Error Loading Data'],
    [new Error(), 'Error Loading Data'],
  ])('%j -> %s', (err, text) => expect(loadErrorDetail(err)).toBe(text));
});

describe('ERR-05 mutationErrorMessage', () => {
  it.each<[unknown, string]>([
    [{ response: { data: { message: 'Server says no' } }, message: 'Request failed' }, 'Server says no'],
    [{ body: { message: 'Server says no' } }, 'Server says no'],
    [new Error('Own message'), 'Own message'],
    [{ message: 'Own message' }, 'Own message'],
    [null, 'Network Error'],
    [undefined, 'Network Error'],
    [{}, 'Network Error'],
    [new TypeError(''), 'Network Error'],
  ])('%j -> %s', (err, text) => expect(mutationErrorMessage(err)).toBe(text));
});

describe('mutationSuccessMessage (ERR-06)', () => {
  it.each<[unknown, string]>([
    [{ message: 'Saved' }, 'Saved'],
    ['Done', 'Done'],
    [{}, 'Success'],
    [{ message: '' }, 'Success'],
    [null, 'Success'],
    [undefined, 'Success'],
    [[], 'Success'],
  ])('%j -> %s', (body, text) => expect(mutationSuccessMessage(body)).toBe(text));
});

describe('AUTH-09 mfaFailureMessage', () => {
  it.each<[unknown, string]>([
    [{ body: { message: 'Invalid code received for user', code: 'MFA_INVALID' } }, 'Invalid code received for user'],
    [new Error('Code mismatch'), 'Code mismatch'],
    [{}, 'Invalid Code'],
    [null, 'Invalid Code'],
  ])('%j -> %s', (err, text) => expect(mfaFailureMessage(err)).toBe(text));
});

describe('ERR-07 errorMessage', () => {
  it.each<[unknown, string]>([
    [{ weird: true }, 'An unknown error occurred'],
    [Symbol('x'), 'An unknown error occurred'],
    [[1, 2], 'An unknown error occurred'],
    [null, 'An unknown error occurred'],
    [() => 1, 'An unknown error occurred'],
    [new Error('Known'), 'Known'],
    [{ body: 'Text' }, 'Text'],
  ])('%s -> %s', (err, text) => expect(errorMessage(err)).toBe(text));

  it('survives objects whose properties throw', () => {
    const hostile = new Proxy(
      {},
      {
        has: () => {
          throw new Error('boom');
        },
        get: () => {
          throw new Error('boom');
        },
      },
    );
    expect(errorMessage(hostile)).toBe(UNKNOWN_ERROR_MESSAGE);
  });

  it('cuts very long messages', () => {
    const text = errorMessage({ message: LONG });
    expect(text).toHaveLength(MESSAGE_MAX_LENGTH);
    expect(text.endsWith('…')).toBe(true);
  });

  it('AUTH-19: recognises the silent No current user answer', () => {
    expect(isNoCurrentUser({ body: { message: 'No current user', code: 'UNAUTHENTICATED' } })).toBe(true);
    expect(isNoCurrentUser('No current user')).toBe(true);
    expect(isNoCurrentUser(new Error('boom'))).toBe(false);
    expect(isNoCurrentUser(null)).toBe(false);
  });
});

describe("the web client's error shape (Error with message and raw response text)", () => {
  class ClientError extends Error {
    constructor(
      message: string,
      readonly response?: string,
    ) {
      super(message);
    }
  }
  it.each<[unknown, string, string]>([
    [new ClientError('Forbidden by server'), 'Forbidden by server', 'Forbidden by server'],
    [new ClientError('', '<html>Bad gateway</html>'), '<html>Bad gateway</html>', '<html>Bad gateway</html>'],
    [new ClientError(''), 'Error Loading Data', 'Network Error'],
  ])('%s', (err, load, mutation) => {
    expect(loadErrorDetail(err)).toBe(load);
    expect(mutationErrorMessage(err)).toBe(mutation);
  });
});
