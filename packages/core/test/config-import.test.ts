import { describe, expect, it } from 'vitest';
import {
  CONFIG_FILE_MESSAGES,
  DEFAULT_FIRMWARE_VERSIONS,
  FIRMWARE_PATTERN,
  configImportSections,
  parseFirmwareList,
  readConfigFile,
} from '../src/index';

const current = {
  settings: {
    device: { id: 'ABC123456', model: 'ORB-C1', fw: 'SFW003-1.0.0', name: 'Pump', base_interval: 60 },
    gps: { enabled: true, interval: 10 },
    script: { numLimit: 5, triggers: [{ index: 1, name: 'Horn', colour: '#ff0000' }] },
  },
};

describe('readConfigFile (SUB-28: a config file read before import)', () => {
  it('takes an export file: identity ignored, an unchanged config previews no change', () => {
    const reading = readConfigFile(JSON.stringify({ config: current }), current);
    expect(reading).toEqual({
      ok: true,
      document: current,
      sections: [
        { section: 'device', changes: [] },
        { section: 'gps', changes: [] },
        { section: 'script', changes: [] },
      ],
      ignoredFields: ['settings.device.id', 'settings.device.model', 'settings.device.fw'],
    });
  });

  it('previews the values that change, per section (a bare document is taken too)', () => {
    const file = {
      settings: {
        gps: { enabled: false, interval: 10 },
        ambient: { enabled: true },
        script: { triggers: [{ index: 1, name: 'Siren', colour: '#ff0000' }] },
      },
    };
    const reading = readConfigFile(JSON.stringify(file), current);
    expect(reading.ok && reading.sections).toEqual([
      { section: 'gps', changes: [{ path: 'gps.enabled', from: true, to: false }] },
      { section: 'ambient', changes: [{ path: 'ambient.enabled', from: undefined, to: true }] },
      {
        section: 'script',
        changes: [
          {
            path: 'script.triggers',
            from: current.settings.script.triggers,
            to: file.settings.script.triggers,
          },
        ],
      },
    ]);
  });

  it.each([
    ['not json', CONFIG_FILE_MESSAGES.notJson],
    ['', CONFIG_FILE_MESSAGES.notJson],
    ['null', CONFIG_FILE_MESSAGES.notConfig],
    ['[]', CONFIG_FILE_MESSAGES.notConfig],
    ['{"records": []}', CONFIG_FILE_MESSAGES.notConfig],
    ['{"config": {"__proto__": {}}}', CONFIG_FILE_MESSAGES.notConfig],
    ['{"config": {"settings": {}}}', /^The file's config is not valid: /],
    ['{"config": {"settings": {"bogus": {}}}}', /^The file's config is not valid: settings/],
    [
      '{"config": {"settings": {"gps": {"interval": "ten"}}}}',
      /^The file's config is not valid: settings\.gps\.interval: /,
    ],
    ['{"config": {"settings": {"device": {"id": "X", "fw": "SFW003-1.0.0"}}}}', CONFIG_FILE_MESSAGES.nothingToImport],
  ])('refuses %j with a message', (text, message) => {
    const reading = readConfigFile(text, current);
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.message).toMatch(message);
  });

  it('compares a section the device lacks as all new', () => {
    expect(configImportSections({}, { settings: { ble: { enabled: false } } })).toEqual([
      { section: 'ble', changes: [{ path: 'ble.enabled', from: undefined, to: false }] },
    ]);
  });
});

describe('parseFirmwareList (FIRMWARE_VERSIONS)', () => {
  it('trims, drops blanks and repeats, keeps the order', () => {
    expect(parseFirmwareList(' SFW004-2.0.0, ,SFW003-1.2.3,SFW004-2.0.0 ')).toEqual(['SFW004-2.0.0', 'SFW003-1.2.3']);
  });

  it.each(['latest', 'SFW3-1.2.3', 'SFW003-1.2', '__proto__', ',', ''])('refuses %j', (text) => {
    expect(() => parseFirmwareList(text)).toThrow();
  });

  it('has a default list of firmware strings', () => {
    expect(DEFAULT_FIRMWARE_VERSIONS.length).toBeGreaterThan(0);
    for (const fw of DEFAULT_FIRMWARE_VERSIONS) expect(fw).toMatch(FIRMWARE_PATTERN);
  });
});
