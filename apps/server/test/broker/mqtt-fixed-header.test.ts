/** The embedded broker's fixed-header reader: packet sizes read across any chunking. */
import { describe, expect, it } from 'vitest';
import { FixedHeaderReader } from '../../src/ingest/mqtt-fixed-header';
import { remainingLength } from './broker-helpers';

const CAP = 70_000;

/** A packet of `type` whose body has `bodyBytes` bytes. */
const packet = (type: number, bodyBytes: number) =>
  Buffer.concat([Buffer.from([type]), remainingLength(bodyBytes), Buffer.alloc(bodyBytes, 0x61)]);

/** Feeds `bytes` in chunks of `size`; the first refusal, or null. */
function readIn(bytes: Buffer, size: number, cap = CAP): { refusal: string | null; at: number } {
  const reader = new FixedHeaderReader(cap);
  for (let at = 0; at < bytes.length; at += size) {
    const refusal = reader.read(bytes.subarray(at, at + size));
    if (refusal) return { refusal, at: Math.min(at + size, bytes.length) };
  }
  return { refusal: null, at: bytes.length };
}

describe('FixedHeaderReader', () => {
  const legal = Buffer.concat([
    packet(0x10, 40), // CONNECT
    packet(0x32, CAP - 4), // PUBLISH of exactly the cap: 1 + 3 length bytes + body
    packet(0xc0, 0), // PINGREQ
    packet(0x82, 127), // SUBSCRIBE, the largest 1-byte length
    packet(0x30, 128), // the smallest 2-byte length
  ]);

  it.each([1, 2, 3, 7, 127, 128, 4096, 65_536, legal.length])('lets legal packets through in chunks of %i', (size) => {
    expect(readIn(legal, size).refusal).toBeNull();
  });

  it('refuses a packet one byte over the cap', () => {
    expect(readIn(packet(0x32, CAP - 3), 1 << 16).refusal).toMatch(/at least 70001 bytes is over the limit of 70000/);
  });

  it.each([1, 2, 5])('refuses a declared length over the cap from its header alone (chunks of %i)', (size) => {
    const header = Buffer.concat([legal, Buffer.from([0x10]), remainingLength(200 * 1024 * 1024)]);
    expect(readIn(header, size).refusal).toMatch(/over the limit of 70000/);
  });

  it('refuses as soon as a partial length passes the cap, before the last length byte', () => {
    const reader = new FixedHeaderReader(CAP);
    // 0xff 0xff: 127 + 127 * 128 = 16383 so far, more to come; 0xff adds 127 * 16384.
    expect(reader.read(Buffer.from([0x30, 0xff, 0xff]))).toBeNull();
    expect(reader.read(Buffer.from([0xff]))).toMatch(/over the limit/);
  });

  it('refuses a remaining length of more than 4 bytes', () => {
    const reader = new FixedHeaderReader(Number.MAX_SAFE_INTEGER);
    expect(reader.read(Buffer.from([0x30, 0x80, 0x80, 0x80, 0x80]))).toBe('a malformed remaining length');
  });
});
