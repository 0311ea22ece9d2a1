/**
 * The records import behind the Raw Data page (issue 14; spec 2 section 7, API-26, API-27), over
 * real HTTP on PGlite: a malformed body gets 400 with a clear message and changes nothing; records
 * the server cannot take are refused one by one, by index and reason, with nothing stored for
 * them; and a range exported as CSV or JSON, read back by core's parseImportFile as the page reads
 * it, imports into another device as the same records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMPORT_RECORDS, parseImportFile } from '@portal/core';
import { type TestPortal, startTestPortal } from '../helpers';
import { type Provisioned, type SignedInUser, claim, expectError, provision, signedInUser } from '../device-helpers';
import { vts } from '../ingest-helpers';

type DataBody = { data: Record<string, { v: unknown; ts: number }[]>; events: { msg: string }[] };

const nowS = (tp: TestPortal) => Math.floor(tp.clock.now().getTime() / 1000);

async function recordCount(tp: TestPortal, deviceId: string): Promise<number> {
  const rows = await tp.portal.db.query<{ n: number }>(
    'SELECT count(*)::integer AS n FROM records WHERE device_id = $1',
    [deviceId],
  );
  return rows[0]!.n;
}

describe('records import (Raw Data page)', () => {
  let tp: TestPortal;
  let owner: SignedInUser;
  let source: Provisioned;
  let target: Provisioned;
  const importPath = (d: Provisioned) => `/api/device/${d.deviceid}/import`;

  beforeAll(async () => {
    tp = await startTestPortal({ db: 'pglite' });
    owner = await signedInUser(tp);
    source = await provision(tp);
    target = await provision(tp);
    for (const d of [source, target]) expect((await claim(owner.client, d.deviceid, d.setupPassword)).status).toBe(200);
  });
  afterAll(async () => {
    await tp?.close();
  });

  it('a malformed body gets 400 with a clear message and stores nothing', async () => {
    const ts = nowS(tp) - 10;
    const cases: [unknown, RegExp][] = [
      [{}, /Send either \{config: \{\.\.\.\}\} \(a config document\) or \{records: \[\.\.\.\]\}/],
      [{ records: 'x' }, /records must be an array of records/],
      [{ records: { ts } }, /records must be an array of records/],
      [{ records: [{ ts, a: 1 }], extra: true }, /extra/],
      [
        { records: Array.from({ length: MAX_IMPORT_RECORDS + 1 }, (_, i) => ({ ts: ts - i, a: 1 })) },
        new RegExp(`At most ${MAX_IMPORT_RECORDS} records per import`),
      ],
      [[{ ts, a: 1 }], /object/i],
    ];
    for (const [body, message] of cases) {
      expectError(await owner.client.post(importPath(target), body), 400, 'BAD_REQUEST', message);
    }
    // Not JSON at all.
    const text = await owner.client.request('POST', importPath(target), { rawBody: '{"records": [' });
    expectError(text, 400, 'BAD_REQUEST');
    expect(await recordCount(tp, target.deviceid)).toBe(0);
  });

  it('refuses records it cannot take one by one, with their index and reason, and stores none of them', async () => {
    const ts = nowS(tp);
    const res = await owner.client.post(importPath(target), {
      records: [{ level: 1 }, { ts: 'soon', level: 1 }, 7, { ts: ts - 8 * 86_400, level: 1 }, { ts: ts + 3600 }],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      deviceid: target.deviceid,
      imported: 0,
      duplicates: 0,
      thinned: 0,
      refused: [
        { index: 0, reason: 'A record needs ts, epoch seconds' },
        { index: 1, reason: 'A record needs ts, epoch seconds' },
        { index: 2, reason: 'A record must be a JSON object' },
        { index: 3, reason: expect.stringMatching(/more than 7 days old/) as unknown as string },
        { index: 4, reason: expect.stringMatching(/more than 5 minutes in the future/) as unknown as string },
      ],
    });
    expect(await recordCount(tp, target.deviceid)).toBe(0);
  });

  it.each(['csv', 'json'] as const)(
    'a range exported as %s and read back as the page reads it imports as the same records',
    async (format) => {
      const device = await provision(tp);
      const into = await provision(tp);
      for (const d of [device, into]) expect((await claim(owner.client, d.deviceid, d.setupPassword)).status).toBe(200);
      const t0 = nowS(tp) - 6 * 86_400;
      const records = Array.from({ length: 1200 }, (_, i) => ({
        ts: t0 + i * 400,
        vsys: 12 + (i % 7) / 10,
        state: i % 2 ? 'on, "quoted"' : '=cmd',
        ign: i % 3 === 0,
        ...(i % 5 === 0 ? { serial1: Buffer.from(`frame ${i}\r\n`).toString('base64'), arr: [1, i] } : {}),
      }));
      const stored = await owner.client.post(importPath(device), { records });
      expect(stored.body).toMatchObject({ imported: 1200, refused: [] });

      const exported = await owner.client.get(
        `/api/device/${device.deviceid}/export?format=${format}&fromTime=${t0}&toTime=${nowS(tp)}`,
      );
      expect(exported.status).toBe(200);
      const file = parseImportFile(`export.${format}`, exported.text);
      if (!file.ok) throw new Error(file.message);
      expect(file.records).toHaveLength(1200);
      const res = await owner.client.post(importPath(into), { records: file.records });
      expect(res.body).toMatchObject({ imported: 1200, duplicates: 0, refused: [] });

      const read = async (d: Provisioned) =>
        vts<DataBody>((await owner.client.get(`/api/device/${d.deviceid}/data?dataPoints=2000&fromTime=0`)).body).data;
      expect(await read(into)).toEqual(await read(device));
    },
  );
});
