/**
 * The brokers' topic rules: client ids per device, and the topics each client may use (the
 * embedded broker and the external broker's HTTP hooks alike).
 */
import { describe, expect, it } from 'vitest';
import {
  commandTopic,
  deviceMessageTopic,
  isOwnClientId,
  mayAccessTopic,
  type MqttAccess,
  type MqttPrincipal,
} from '../src/index';

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
