import { describe, expect, it } from 'vitest';
import {
  BRAND_IMAGE_MESSAGES,
  IMAGE_MAX_BASE64,
  brandImageTypeOf,
  brandImageUploadError,
  commandCancelledMessage,
  settingsSavedMessage,
} from '../src/index';

const bytes = (...parts: (number[] | string)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const b64 = (buffer: Buffer) => buffer.toString('base64');

describe('customer brand images (BRD-13): the type comes from the bytes', () => {
  it('tells png, jpeg and webp by their first bytes; anything else is null', () => {
    expect(brandImageTypeOf(bytes([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 13]))).toBe('image/png');
    expect(brandImageTypeOf(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(brandImageTypeOf(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))).toBe('image/webp');
    expect(brandImageTypeOf(bytes('RIFF', [1, 2, 3, 4], 'WAVEfmt '))).toBeNull();
    expect(brandImageTypeOf(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(brandImageTypeOf(bytes('GIF89a'))).toBeNull();
    expect(brandImageTypeOf(bytes([0x89], 'PN'))).toBeNull();
    expect(brandImageTypeOf([])).toBeNull();
  });

  it('checks an upload: size first, then base64, then type', () => {
    expect(brandImageUploadError(b64(bytes([0xff, 0xd8, 0xff], 'x'.repeat(100))))).toBeNull();
    expect(brandImageUploadError('A'.repeat(IMAGE_MAX_BASE64 + 4))).toBe(BRAND_IMAGE_MESSAGES.tooLarge);
    expect(brandImageUploadError('')).toBe(BRAND_IMAGE_MESSAGES.notBase64);
    expect(brandImageUploadError('abc')).toBe(BRAND_IMAGE_MESSAGES.notBase64);
    expect(brandImageUploadError(b64(bytes('<svg/>')))).toBe(BRAND_IMAGE_MESSAGES.type);
  });
});

describe("the messages of saves (ERR-06's 'Success' dialog)", () => {
  it('PUT settings says what it saved', () => {
    expect(settingsSavedMessage({ PORTAL_deviceName: 'A' })).toBe('Device name saved.');
    expect(settingsSavedMessage({ PORTAL_deviceNotes: {} })).toBe('Asset notes saved.');
    expect(settingsSavedMessage({ PORTAL_displaySettings: {} })).toBe('Display settings saved.');
    expect(settingsSavedMessage({ PORTAL_deviceName: 'A', PORTAL_displaySettings: {} })).toBe('Device settings saved.');
    expect(commandCancelledMessage(42)).toBe('Command 42 cancelled.');
  });
});
