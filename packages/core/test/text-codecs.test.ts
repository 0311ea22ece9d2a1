// The text codecs shared by the card texts, the Settings page's capture fields and the script
// editor (text-codecs.ts): UTF-8 both ways, base64 both ways (strict and lenient), lone surrogates.
import { describe, expect, it } from 'vitest';
import {
  base64Bytes,
  decodeBase64Text,
  encodeBase64Text,
  hasLoneSurrogate,
  hexDigits,
  utf8Bytes,
  utf8CodePointAt,
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

  it('reads one code point and its length', () => {
    expect(utf8CodePointAt([0x41, 0xe2, 0x82, 0xac], 1)).toEqual({ cp: 0x20ac, length: 3 });
    expect(utf8CodePointAt([0x41, 0xe2, 0x82], 1)).toBeNull();
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

describe('hex digits', () => {
  it('are upper case, padded', () => {
    expect(hexDigits(10, 2)).toBe('0A');
    expect(hexDigits(0x200b, 4)).toBe('200B');
  });
});
