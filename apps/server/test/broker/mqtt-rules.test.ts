/**
 * The brokers' pure rules: fixed headers read across any chunking, client ids per device, and the
 * topics each client may use (the embedded broker and the external broker's HTTP hooks alike).
 */
import { describe, expect, it } from 'vitest';
import {
  FixedHeaderReader,
  commandTopic,
  deviceMessageTopic,
  isOwnClientId,
  mayAccessTopic,
  type MqttAccess,
  type MqttPrincipal,
} from '../../src/ingest/mqtt-rules';
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

describe('isOwnClientId', () => {
  const ID = 'ABC123DEF';
  it.each([
    [ID, ID, true],
    [ID, `${ID}-1`, true],
    [ID, `${ID}-tool-${'x'.repeat(200)}`, true],
    [ID, 'XYZ987UVW', false],
    [ID, `XYZ987UVW-${ID}`, false],
    [ID, `${ID}X`, false],
    [ID, `${ID}_1`, false],
    [ID, ID.toLowerCase(), false],
    [ID, '', false],
    [ID, '-', false],
    [ID, `-${ID}`, false],
    [ID, '__proto__', false],
    [ID, 'aedes_1b0c', false],
    ['', '', false],
    ['', '-x', false],
    ['__proto__', '__proto__', false],
    ['ABC-12345', 'ABC-12345', false],
    ['abc123def', 'abc123def', false],
  ])('device %j, client id %j: %s', (deviceId, clientId, expected) => {
    expect(isOwnClientId(deviceId, clientId)).toBe(expected);
  });
});

describe('deviceMessageTopic', () => {
  it.each([
    ['dev/ABC123DEF/data', { deviceId: 'ABC123DEF', kind: 'data' }],
    ['dev/ABC123DEF/diag', { deviceId: 'ABC123DEF', kind: 'diag' }],
    ['dev/ABC123DEF/ack', { deviceId: 'ABC123DEF', kind: 'ack' }],
    ['dev/0-AB12CD3/data', { deviceId: '0-AB12CD3', kind: 'data' }],
    ['dev/ABC123DEF/cmd', null],
    ['dev/ABC123DEF/data/x', null],
    ['dev//data', null],
    ['dev/+/data', null],
    ['dev/#', null],
    ['dev/AB+/data', null],
    ['/dev/ABC123DEF/data', null],
    ['DEV/ABC123DEF/data', null],
    ['$share/g/dev/ABC123DEF/data', null],
    ['', null],
    ['__proto__', null],
  ])('%j -> %j', (topic, expected) => {
    expect(deviceMessageTopic(topic)).toEqual(expected);
  });
});

describe('mayAccessTopic', () => {
  const ID = 'ABC123DEF';
  const OTHER = 'XYZ987UVW';
  const device: MqttPrincipal = { kind: 'device', deviceId: ID };
  const portal: MqttPrincipal = { kind: 'portal' };
  const ACCESSES: MqttAccess[] = ['publish', 'subscribe', 'receive'];

  /** Every topic tried, with the accesses the device and the portal have on it. */
  const TABLE: [string, { device: MqttAccess[]; portal: MqttAccess[] }][] = [
    [`dev/${ID}/data`, { device: ['publish'], portal: ['receive'] }],
    [`dev/${ID}/diag`, { device: ['publish'], portal: ['receive'] }],
    [`dev/${ID}/ack`, { device: ['publish'], portal: ['receive'] }],
    [commandTopic(ID), { device: ['subscribe', 'receive'], portal: ['publish'] }],
    [`dev/${OTHER}/data`, { device: [], portal: ['receive'] }],
    [commandTopic(OTHER), { device: [], portal: ['publish'] }],
    ['dev/+/data', { device: [], portal: ['subscribe'] }],
    ['dev/+/diag', { device: [], portal: ['subscribe'] }],
    ['dev/+/ack', { device: [], portal: ['subscribe'] }],
    ['$share/portal/dev/+/data', { device: [], portal: ['subscribe'] }],
    ['$share/group-2/dev/+/ack', { device: [], portal: ['subscribe'] }],
    ['$share//dev/+/data', { device: [], portal: [] }],
    ['$share/+/dev/+/data', { device: [], portal: [] }],
    ['$share/a/b/dev/+/data', { device: [], portal: [] }],
    ['dev/+/cmd', { device: [], portal: [] }],
    [`$share/portal/dev/${ID}/cmd`, { device: [], portal: [] }],
    [`dev/${ID}/#`, { device: [], portal: [] }],
    [`dev/${ID}/+`, { device: [], portal: [] }],
    ['dev/#', { device: [], portal: [] }],
    ['#', { device: [], portal: [] }],
    ['+/+/+', { device: [], portal: [] }],
    ['$SYS/#', { device: [], portal: [] }],
    ['$SYS/broker/clients/connected', { device: [], portal: [] }],
    [`dev/${ID}/other`, { device: [], portal: [] }],
    [`dev/${ID}/data/more`, { device: [], portal: [] }],
    [`dev/${ID}`, { device: [], portal: [] }],
    [`/dev/${ID}/data`, { device: [], portal: [] }],
    [`dev/${ID.toLowerCase()}/data`, { device: [], portal: ['receive'] }],
    ['dev//cmd', { device: [], portal: [] }],
    ['', { device: [], portal: [] }],
    ['__proto__', { device: [], portal: [] }],
  ];

  it.each(TABLE.flatMap(([topic, allowed]) => ACCESSES.map((access) => [topic, access, allowed] as const)))(
    '%j %s',
    (topic, access, allowed) => {
      expect(mayAccessTopic(device, access, topic)).toBe(allowed.device.includes(access));
      expect(mayAccessTopic(portal, access, topic)).toBe(allowed.portal.includes(access));
    },
  );

  it('gives a device whose id is not one topic level nothing at all', () => {
    for (const deviceId of ['', '+', '#', 'a/b', `${ID}/#`]) {
      const principal: MqttPrincipal = { kind: 'device', deviceId };
      for (const access of ACCESSES) {
        for (const topic of [`dev/${deviceId}/data`, commandTopic(deviceId), 'dev/+/cmd', '#']) {
          expect(mayAccessTopic(principal, access, topic), `${deviceId} ${access} ${topic}`).toBe(false);
        }
      }
    }
  });
});
