import { describe, expect, it } from 'vitest';
import {
  DEVICE_CONFIG_MESSAGES,
  SCRIPT_MAX_BYTES,
  STORAGE_KEYS,
  USER_SCOPED_STORAGE_KEYS,
  base64DecodedSize,
  decodeScript,
  encodeScript,
  isBase64,
  parseScriptTheme,
  scriptByteLength,
  scriptFirmwareMessage,
  scriptSizeError,
  scriptingSupported,
} from '../src/index';

describe('decodeScript (SUB-21)', () => {
  it.each([
    ['', ''],
    ['bGV0IHggPSAxOw==', 'let x = 1;'],
    ['QVQ=', 'AT'],
    ['Ly8gw6l0w6kg4oKsIPCfmIAK', '// été € 😀\n'],
  ])('%j decodes to %j', (base64, text) => {
    expect(decodeScript(base64)).toBe(text);
  });

  it.each([
    ['!!!', 'not base64'],
    ['abc', 'not a multiple of 4'],
    ['ab=c', 'padding inside'],
    ['QQ==QQ==', 'padding before the end'],
    ['QUJD\n', 'a line break'],
    ['/w==', 'byte 0xFF is not UTF-8'],
    ['wA==', 'a lone lead byte'],
    ['wK8=', 'an overlong form (0xC0 0xAF)'],
    ['7aCA', 'an encoded surrogate (0xED 0xA0 0x80)'],
    ['4oI=', 'a cut sequence'],
  ])('%j is a decoding failure (%s): null, no exception', (base64) => {
    expect(decodeScript(base64)).toBeNull();
  });

  it.each([null, undefined, 42, {}, ['QVQ='], '__proto__'])('%j is null', (value) => {
    expect(decodeScript(value)).toBeNull();
  });
});

describe('encodeScript (SUB-22)', () => {
  it.each([
    '',
    'let x = 1;',
    '// été € 😀\n',
    'Shadow.set("a", 1);\r\n\tfunction f() { return "\\u0000"; }',
    'x'.repeat(SCRIPT_MAX_BYTES),
  ])('%j goes to standard padded base64 and back', (text) => {
    const base64 = encodeScript(text);
    expect(isBase64(base64)).toBe(true);
    expect(decodeScript(base64)).toBe(text);
    expect(base64DecodedSize(base64)).toBe(scriptByteLength(text));
  });

  it('matches the base64 of the UTF-8 bytes', () => {
    expect(encodeScript('AT')).toBe('QVQ=');
    expect(encodeScript('€')).toBe('4oKs');
  });

  it('a lone surrogate (a half-pasted emoji) is saved as U+FFFD, so it decodes again', () => {
    const base64 = encodeScript('a\uD83Db');
    expect(decodeScript(base64)).toBe('a\uFFFDb');
    expect(decodeScript(encodeScript('\uDE00'))).toBe('\uFFFD');
  });
});

describe('scriptByteLength and scriptSizeError', () => {
  it.each([
    ['', 0],
    ['a', 1],
    ['é', 2],
    ['€', 3],
    ['😀', 4],
    ['\uD83D', 3],
  ])('%j is %i bytes', (text, bytes) => {
    expect(scriptByteLength(text)).toBe(bytes);
  });

  it('allows exactly SCRIPT_MAX_BYTES and refuses one byte more with the server message', () => {
    expect(scriptSizeError('x'.repeat(SCRIPT_MAX_BYTES))).toBeNull();
    expect(scriptSizeError('x'.repeat(SCRIPT_MAX_BYTES + 1))).toBe(DEVICE_CONFIG_MESSAGES.scriptTooLarge);
    expect(DEVICE_CONFIG_MESSAGES.scriptTooLarge).toBe('The script is larger than 20000 bytes.');
  });

  it('counts bytes, not characters', () => {
    const euros = '€'.repeat(Math.floor(SCRIPT_MAX_BYTES / 3) + 1);
    expect(euros.length).toBeLessThan(SCRIPT_MAX_BYTES);
    expect(scriptSizeError(euros)).toBe(DEVICE_CONFIG_MESSAGES.scriptTooLarge);
  });
});

describe('scriptingSupported: SFW003 or later by document number', () => {
  it.each([
    ['SFW003-1.0.0', true],
    ['SFW003-0.0.1', true],
    ['SFW004-0.0.0', true],
    ['SFW100-2.4.1', true],
    ['SFW210-2.0.5', true],
    ['SFW002-9.9.9', false],
    ['SFW001-1.0.0', false],
    ['SFW000-1.0.0', false],
  ])('%s: %s', (fw, supported) => {
    expect(scriptingSupported(fw)).toBe(supported);
  });

  it.each([null, undefined, '', 'SFW3-1.0.0', 'sfw003-1.0.0', 'SFW003', 'SFW003-1.0', ' SFW003-1.0.0', 3, '__proto__'])(
    '%j is not a firmware string: false',
    (fw) => {
      expect(scriptingSupported(fw)).toBe(false);
    },
  );

  it('names the firmware in its refusal', () => {
    expect(scriptFirmwareMessage('SFW002-1.4.0')).toBe(
      'Firmware Update Required: scripting needs firmware SFW003 or later, and this device runs SFW002-1.4.0.',
    );
  });
});

describe('parseScriptTheme (SUB-24)', () => {
  it.each([
    ['dark', 'dark'],
    ['light', 'light'],
    [null, 'light'],
    ['', 'light'],
    ['DARK', 'light'],
    ['__proto__', 'light'],
    [1, 'light'],
  ])('%j reads as %s', (stored, theme) => {
    expect(parseScriptTheme(stored)).toBe(theme);
  });

  it('the theme is one of the keys cleared when the user changes', () => {
    expect(STORAGE_KEYS.scriptTheme).toBe('portal.scriptTheme');
    expect(USER_SCOPED_STORAGE_KEYS).toContain(STORAGE_KEYS.scriptTheme);
  });
});
