/**
 * Text codecs, pure (no Buffer, TextEncoder or atob in core): UTF-8 bytes of a text and back, and
 * base64 of bytes and back. Used by the card texts (display-format.ts: hex and base64 modes), the
 * Settings page's serial capture fields (device-config-fields.ts) and the script editor (script.ts).
 */

/** A number in upper-case hex, padded with zeros to `width` digits (0x0a, 2 -> '0A'). */
export function hexDigits(n: number, width: number): string {
  return n.toString(16).toUpperCase().padStart(width, '0');
}

// ---- UTF-8 -------------------------------------------------------------------------------------

/** A lone surrogate (half of a pair, as a cut paste may leave) has no UTF-8 form. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** True when the text holds a lone surrogate, which no UTF-8 byte sequence stands for. */
export function hasLoneSurrogate(text: string): boolean {
  return new RegExp(LONE_SURROGATE.source).test(text);
}

/** Text with each lone surrogate replaced by U+FFFD, so its UTF-8 bytes decode back to it. */
export function wellFormedText(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * The UTF-8 bytes of a text, code point by code point ('é' -> C3 A9). A lone surrogate is
 * written as its three bytes, which no strict decoder accepts: check hasLoneSurrogate (or use
 * wellFormedText) first where that matters.
 */
export function utf8Bytes(text: string): number[] {
  const bytes: number[] = [];
  for (const char of text) {
    const c = char.codePointAt(0) ?? 0;
    if (c < 0x80) bytes.push(c);
    else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return bytes;
}

/** The code point of the UTF-8 sequence starting at bytes[i] and its length, or null for a malformed, overlong or surrogate one. */
export function utf8CodePointAt(bytes: readonly number[], i: number): { cp: number; length: number } | null {
  const b = bytes[i] ?? 0;
  const need = b < 0x80 ? 0 : b >= 0xc2 && b < 0xe0 ? 1 : b >= 0xe0 && b < 0xf0 ? 2 : b >= 0xf0 && b < 0xf5 ? 3 : -1;
  if (need < 0 || i + need >= bytes.length) return null;
  let cp = need === 0 ? b : b & (0x3f >> need);
  for (let k = 1; k <= need; k++) {
    const next = bytes[i + k] ?? 0;
    if ((next & 0xc0) !== 0x80) return null;
    cp = (cp << 6) | (next & 0x3f);
  }
  const smallest = [0, 0x80, 0x800, 0x10000][need] ?? 0;
  if (cp < smallest || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return null;
  return { cp, length: need + 1 };
}

/** Strict UTF-8 decoding: the text of the bytes, or null for a malformed, overlong or surrogate sequence. */
export function utf8Text(bytes: readonly number[]): string | null {
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const next = utf8CodePointAt(bytes, i);
    if (next === null) return null;
    out += String.fromCodePoint(next.cp);
    i += next.length;
  }
  return out;
}

// ---- Base64 ------------------------------------------------------------------------------------

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_INDEX: ReadonlyMap<string, number> = new Map([
  ...[...BASE64_ALPHABET].map((c, i) => [c, i] as const),
  ['-', 62] as const, // the URL-safe alphabet is accepted too
  ['_', 63] as const,
]);
/** Standard base64 with its padding: what decodeBase64Text accepts. */
const BASE64_TEXT = /^[A-Za-z0-9+/]*={0,2}$/;

/** Bytes of base64 text (standard or URL-safe, padding optional, white space ignored), or null if not base64. */
export function base64Bytes(text: string): number[] | null {
  const s = text.replace(/\s+/g, '');
  const body = s.replace(/={1,2}$/, '');
  if (body !== s && s.length % 4 !== 0) return null;
  if (body.length % 4 === 1) return null;
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const ch of body) {
    const v = BASE64_INDEX.get(ch);
    if (v === undefined) return null;
    buffer = (buffer << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
      buffer &= (1 << bits) - 1;
    }
  }
  return bytes;
}

/** Standard base64 (with padding) of the text's UTF-8 bytes: 'AT' gives 'QVQ=' (SUB-09). */
export function encodeBase64Text(text: string): string {
  const bytes = utf8Bytes(text);
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a = 0, b = 0, c = 0] = [bytes[i], bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | (b << 8) | c;
    out += BASE64_ALPHABET[(n >> 18) & 63]! + BASE64_ALPHABET[(n >> 12) & 63]!;
    out += i + 1 < bytes.length ? BASE64_ALPHABET[(n >> 6) & 63]! : '=';
    out += i + 2 < bytes.length ? BASE64_ALPHABET[n & 63]! : '=';
  }
  return out;
}

/** The UTF-8 text of a standard base64 string ('QVQ=' gives 'AT', SUB-08); null when it is not base64 of text. */
export function decodeBase64Text(value: unknown): string | null {
  if (typeof value !== 'string' || value.length % 4 !== 0 || !BASE64_TEXT.test(value)) return null;
  const bytes = base64Bytes(value);
  return bytes === null ? null : utf8Text(bytes);
}
