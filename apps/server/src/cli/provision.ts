/**
 * Provisions a batch of devices and prints their credentials (shown only here, once):
 *
 *   npm run provision -- --model ORB-C1 --count 5 [--prefix ORB] [--brand tank] [--database-url postgres://...|--data-dir ./data] [--json]
 *
 * Uses the same devices service as POST /api/prov-portal-edit-device/{id}. With the embedded
 * database (PGlite) stop the portal first: one process at a time may open DATA_DIR.
 */
import { parseArgs } from 'node:util';
import { randomInt } from 'node:crypto';
import { resolve } from 'node:path';
import {
  BRAND_IDS,
  DEVICE_ID_ALPHABET,
  DEVICE_ID_PREFIX_MAX_LENGTH,
  DEVICE_MODELS,
  FIRMWARE_PATTERN,
  ProvEditDeviceBodySchema,
  isBrandId,
  isDeviceIdPrefix,
  newDeviceId,
  type BrandId,
  type DeviceModel,
} from '@portal/core';
import { openDatabase } from '../db/db';
import { migrate } from '../db/migrate';
import { systemClock } from '../clock';
import { createDeviceRegistry } from '../modules/devices/devices.registry';
import { connectDynsec, type DynsecClient } from '../modules/broker/broker-accounts.service';
import { loadConfig } from '../config';
import type { ProvisionedDevice } from '../modules/devices/devices.summary';

const MAX_COUNT = 10_000;

const USAGE = `Usage: npm run provision -- --model ${DEVICE_MODELS.join('|')} [--count N] [--prefix ABC] [--fw SFW003-1.0.0] [--brand ${BRAND_IDS.join('|')}] [--database-url URL | --data-dir DIR] [--json]`;

class UsageError extends Error {}

function fail(message: string): never {
  throw new UsageError(message);
}

interface Options {
  model: DeviceModel;
  count: number;
  prefix: string;
  fw: string | undefined;
  /** The brand the devices are for: their labels' QR codes open that brand's host. */
  brand: BrandId;
  databaseUrl: string | undefined;
  dataDir: string;
  json: boolean;
}

function readOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      model: { type: 'string' },
      count: { type: 'string', default: '1' },
      prefix: { type: 'string', default: '' },
      fw: { type: 'string' },
      brand: { type: 'string', default: 'default' },
      'database-url': { type: 'string' },
      'data-dir': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const model = values.model;
  if (!model || !(DEVICE_MODELS as readonly string[]).includes(model))
    fail(`--model must be one of ${DEVICE_MODELS.join(', ')}`);
  const count = Number(values.count);
  if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT)
    fail(`--count must be a whole number from 1 to ${MAX_COUNT}`);
  const prefix = values.prefix.toUpperCase();
  if (!isDeviceIdPrefix(prefix)) fail(`--prefix must be at most ${DEVICE_ID_PREFIX_MAX_LENGTH} letters or digits`);
  if (values.fw !== undefined && !FIRMWARE_PATTERN.test(values.fw)) fail('--fw must look like SFW003-1.2.3');
  if (!isBrandId(values.brand)) fail(`--brand must be one of ${BRAND_IDS.join(', ')}`);
  const databaseUrl = values['database-url'] ?? (process.env.DATABASE_URL || undefined);
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) fail('--database-url must start with postgres://');
  const dataDirText = values['data-dir'] ?? (process.env.DATA_DIR || './data');
  return {
    model: model as DeviceModel,
    count,
    prefix,
    fw: values.fw,
    brand: values.brand,
    databaseUrl,
    dataDir: dataDirText === 'memory://' ? dataDirText : resolve(dataDirText),
    json: values.json,
  };
}

/** `n` characters of the device-id alphabet, each drawn uniformly (newDeviceId's random source). */
function randomIdChars(n: number): string {
  let out = '';
  for (let i = 0; i < n; i += 1) out += DEVICE_ID_ALPHABET[randomInt(DEVICE_ID_ALPHABET.length)];
  return out;
}

function table(devices: ProvisionedDevice[]): string {
  const header = ['deviceid', 'model', 'setup password', 'device key'];
  const rows = devices.map((d) => [d.deviceid, d.model, d.setupPassword, d.deviceKey]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const db = await openDatabase({ dataDir: options.dataDir, databaseUrl: options.databaseUrl });
  let brokerAccounts: DynsecClient | undefined;
  try {
    await migrate(db);
    // With MQTT_DEVICE_AUTH=dynsec each device's broker account is made with it, as the API does.
    const config = loadConfig();
    brokerAccounts =
      config.mqttUrl && config.mqttDeviceAuth === 'dynsec' ? await connectDynsec(config.mqttUrl) : undefined;
    const devices = createDeviceRegistry({ db, clock: systemClock, ...(brokerAccounts ? { brokerAccounts } : {}) });
    const body = ProvEditDeviceBodySchema.parse({
      model: options.model,
      brand: options.brand,
      ...(options.fw ? { fw: options.fw } : {}),
    });
    const made: ProvisionedDevice[] = [];
    for (let attempts = 0; made.length < options.count; attempts += 1) {
      if (attempts > options.count * 20)
        throw new Error(`Could not find free device ids with prefix '${options.prefix}'.`);
      const device = await devices.createDevice(newDeviceId(options.prefix, randomIdChars), body, 'cli');
      if (device) made.push(device);
    }
    if (options.json)
      console.log(
        JSON.stringify(
          made.map((d) => ({
            deviceid: d.deviceid,
            model: d.model,
            fw: d.fw,
            brand: d.brand,
            setupPassword: d.setupPassword,
            deviceKey: d.deviceKey,
          })),
        ),
      );
    else {
      console.log(table(made));
      console.log(
        `\n${made.length} device${made.length === 1 ? '' : 's'} provisioned. Keep the device keys: they are not shown again.`,
      );
    }
  } finally {
    await brokerAccounts?.close();
    await db.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
