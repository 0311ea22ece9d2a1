// The text codecs shared by the card texts, the Settings page's capture fields and the script
// editor (text-codecs.ts): UTF-8 both ways, base64 both ways (strict and lenient), lone surrogates,
// and the two escaped forms.
import { describe, expect, it } from 'vitest';
import {
  base64Bytes,
  decodeBase64Text,
  encodeBase64Text,
  escapeControlText,
  escapeDisplayBytes,
  escapeDisplayText,
  hasLoneSurrogate,
  hexDigits,
  unescapeControlText,
  utf8Bytes,
  utf8Text,
  wellFormedText,
} from '../src/index';

describe('UTF-8', () => {
  it.each([
    ['', []],
    ['A', [0x41]],
    ['é', [0xc3, 0xa9]],
    ['€', [0xe2, 0x82, 0xac]],
    ['😀', [0xf0, 0x9f, 0x98, 0x80]],
  ])('%j has the bytes %j and back', (text, bytes) => {
    expect(utf8Bytes(text)).toEqual(bytes);
    expect(utf8Text(bytes)).toBe(text);
  });

  it.each([
    ['a lone continuation byte', [0x80]],
    ['an overlong form', [0xc0, 0x80]],
    ['an overlong three-byte form', [0xe0, 0x80, 0x80]],
    ['a surrogate', [0xed, 0xa0, 0x80]],
    ['beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['a cut sequence', [0xe2, 0x82]],
    ['a byte that starts nothing', [0xff]],
  ])('refuses %s', (_name, bytes) => expect(utf8Text(bytes)).toBeNull());

  it('finds lone surrogates and replaces them', () => {
    for (const text of ['\ud800', 'a\udfff', '\udc00\ud800']) {
      expect(hasLoneSurrogate(text)).toBe(true);
      expect(hasLoneSurrogate(wellFormedText(text))).toBe(false);
    }
    expect(hasLoneSurrogate('😀 a')).toBe(false);
    expect(wellFormedText('a\ud800b')).toBe('a\ufffdb');
    expect(wellFormedText('😀')).toBe('😀');
  });
});

describe('base64', () => {
  it('encodes and decodes text strictly', () => {
    expect(encodeBase64Text('AT')).toBe('QVQ=');
    expect(decodeBase64Text('QVQ=')).toBe('AT');
    for (const bad of ['QVQ', 'QV-=', 'QVQ=QVQ=', '====', 5, null, '/w==']) expect(decodeBase64Text(bad)).toBeNull();
  });

  it('reads bytes leniently: URL-safe, unpadded, spaced', () => {
    expect(base64Bytes('aGk=')).toEqual([0x68, 0x69]);
    expect(base64Bytes('aGk')).toEqual([0x68, 0x69]);
    expect(base64Bytes(' a G k = ')).toEqual([0x68, 0x69]);
    expect(base64Bytes('-_8')).toEqual([0xfb, 0xff]);
    for (const bad of ['a', 'aGk=a', 'a*b=', 'aG=']) expect(base64Bytes(bad)).toBeNull();
  });
});

describe('escaped forms', () => {
  it('shows text as the escaped display mode does', () => {
    expect(escapeDisplayText('a\u0001\\\u200b\ud800')).toBe('a\\x01\\\\\\u200B\\uD800');
    expect(escapeDisplayBytes([0x68, 0xff, 0xc3, 0xa9, 0x00])).toBe('h\\xFFé\\x00');
  });

  it('escapes control characters for a one-line input and back', () => {
    expect(escapeControlText('AT\r\n\t\\\u0001\u007f')).toBe('AT\\r\\n\\t\\\\\\x01\\x7F');
    expect(unescapeControlText('AT\\r\\n\\t\\\\\\x01\\x7F')).toBe('AT\r\n\t\\\u0001\u007f');
    expect(unescapeControlText('\\q')).toBeNull();
  });

  it('writes hex digits in upper case, padded', () => {
    expect(hexDigits(10, 2)).toBe('0A');
    expect(hexDigits(0x200b, 4)).toBe('200B');
  });
});
