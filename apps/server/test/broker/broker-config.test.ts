/** MQTT_MAX_PACKET_BYTES and MQTT_CONNECT_TIMEOUT_MS: defaults, and values refused at start. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { CONFIG_VARIABLES } from '../../src/config-variables';

describe('embedded broker settings', () => {
  it('default to a 256 kB packet cap and a 10 s connect timeout, and are documented', () => {
    const config = loadConfig({});
    expect(config.mqttMaxPacketBytes).toBe(262_144);
    expect(config.mqttConnectTimeoutMs).toBe(10_000);
    const documented = new Map(CONFIG_VARIABLES.map((v) => [v.name, v.default]));
    expect(documented.get('MQTT_MAX_PACKET_BYTES')).toBe('262144');
    expect(documented.get('MQTT_CONNECT_TIMEOUT_MS')).toBe('10000');
  });

  it('take values that leave room for a 64 kB record', () => {
    expect(loadConfig({ MQTT_MAX_PACKET_BYTES: '66560', MQTT_CONNECT_TIMEOUT_MS: '500' })).toMatchObject({
      mqttMaxPacketBytes: 66_560,
      mqttConnectTimeoutMs: 500,
    });
  });

  it.each([
    [{ MQTT_MAX_PACKET_BYTES: '65536' }, /^Invalid configuration: MQTT_MAX_PACKET_BYTES must be at least 66560/],
    [{ MQTT_MAX_PACKET_BYTES: '1e12' }, /^Invalid configuration: MQTT_MAX_PACKET_BYTES must be at most 268435460/],
    [{ MQTT_MAX_PACKET_BYTES: 'lots' }, 'Invalid configuration: MQTT_MAX_PACKET_BYTES must be a number.'],
    [{ MQTT_CONNECT_TIMEOUT_MS: '0' }, 'Invalid configuration: MQTT_CONNECT_TIMEOUT_MS must be 100-600000.'],
    [{ MQTT_CONNECT_TIMEOUT_MS: '2.5' }, 'Invalid configuration: MQTT_CONNECT_TIMEOUT_MS must be a whole number.'],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
