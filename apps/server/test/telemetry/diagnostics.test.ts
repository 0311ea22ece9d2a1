/**
 * GET /api/device/{id}/diagnostics with J1939 (issue 14; spec 2 sections 6, 7 and 'Reference
 * tables'; ledger SUB-18, SUB-19, REF-03, REF-04; DESIGN.md section 5 'J1939'), on PGlite and on
 * PostgreSQL when reachable: DM1 messages in records (one frame, and multi-packet with the
 * transport protocol's broadcast announce) become each controller's active faults at ingest, named
 * from the reference data; a controller's newer DM1 replaces its older one (a late older record
 * does not), 'no active codes' clears it; the groups heard on each bus are listed with names;
 * delete-data forgets them and transfer-data moves them; ADMIN and USER only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiagnosticsResponse } from '@portal/core';
import { type DbKind, type TestPortal, findPostgres, startTestPortal } from '../helpers';
import { type RoleFixture, claim, deviceWithRoles, expectError, provision } from '../device-helpers';
import { postRecords } from '../ingest-helpers';

const hex = (bytes: number[]) => bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
const idOf = (priority: number, pgn: number, source: number) => (priority << 26) | (pgn << 8) | source;
const dtc = (spn: number, fmi: number, count: number) => [
  spn & 0xff,
  (spn >> 8) & 0xff,
  ((spn >> 16) << 5) | fmi,
  count,
];
/** A DM1 in one frame from `source` (lamps: amber warning). */
const dm1 = (source: number, codes: number[][]) => ({
  id: idOf(6, 65226, source),
  data: hex(
    [0x04, 0xff, ...(codes.length ? codes.flat() : dtc(0, 0, 0)), 0xff, 0xff].slice(
      0,
      Math.max(8, 2 + codes.length * 4),
    ),
  ),
});
/** A DM1 sent with the transport protocol: the broadcast announce and its packets. */
function dm1Multi(source: number, codes: number[][]) {
  const payload = [0x10, 0xff, ...codes.flat()];
  const packets = Math.ceil(payload.length / 7);
  const frames = [
    { id: idOf(7, 60416 | 0xff, source), data: hex([32, payload.length, 0, packets, 0xff, 0xca, 0xfe, 0x00]) },
  ];
  for (let i = 0; i < packets; i++) {
    const chunk = payload.slice(i * 7, i * 7 + 7);
    while (chunk.length < 7) chunk.push(0xff);
    frames.push({ id: idOf(7, 60160 | 0xff, source), data: hex([i + 1, ...chunk]) });
  }
  return frames;
}
const EEC1 = { id: idOf(3, 61444, 0x00), data: 'f3ff8c204e00ffff' };

const pgUrl = await findPostgres();
const kinds: DbKind[] = pgUrl ? ['pglite', 'postgres'] : ['pglite'];

describe.each(kinds)('diagnostics with J1939 faults (%s)', (kind) => {
  let tp: TestPortal;
  let fx: RoleFixture;
  let t0: number;
  const device = () => ({ id: fx.device.deviceid, key: fx.device.deviceKey });
  const read = async (id = fx.device.deviceid) => {
    const res = await fx.users.ADMIN.client.get(`/api/device/${id}/diagnostics`);
    expect(res.status, res.text).toBe(200);
    return res.body as DiagnosticsResponse;
  };

  beforeAll(async () => {
    tp = await startTestPortal({ db: kind, seed: false });
    fx = await deviceWithRoles(tp);
    t0 = Math.floor(tp.clock.now().getTime() / 1000) - 600;
    // The engine (0x00) reports two codes multi-packet, the cluster (0x17) one in a single frame,
    // on can1; can2 hears a brake controller (0x0b) with no active code.
    const status = await postRecords(tp, device(), [
      {
        ts: t0,
        vsys: 12,
        can1: [EEC1, ...dm1Multi(0x00, [dtc(100, 1, 3), dtc(110, 16, 2)]), dm1(0x17, [dtc(520_200, 31, 127)])],
      },
      { ts: t0 + 60, vsys: 12, can2: [dm1(0x0b, [])] },
    ]);
    expect(status).toBe(200);
  });
  afterAll(async () => tp?.close());

  it("answers each controller's active faults with the SPN's name and the FMI's text, and the groups heard", async () => {
    const body = await read();
    expect(body.faults.map((f) => [f.bus, f.source, f.code, f.spnName, f.fmiText, f.occurrences, f.ts])).toEqual([
      [1, 0x00, '100:1', 'Engine Oil Pressure', 'Below normal (most severe)', 3, t0],
      [1, 0x00, '110:16', 'Engine Coolant Temperature 1', 'Above normal (moderately severe)', 2, t0],
      [1, 0x17, '520200:31', 'Manufacturer-specific SPN 520200', 'Condition exists', null, t0],
    ]);
    expect(body.lamps.map((l) => [l.bus, l.source, l.redStop, l.amberWarning])).toEqual([
      [1, 0x00, true, false],
      [1, 0x17, false, true],
      [2, 0x0b, false, true],
    ]);
    expect(body.busMessages.map((m) => [m.bus, m.pgn, m.source, m.name])).toEqual([
      [1, 60160, 0x00, expect.stringMatching(/Transport Protocol/i)],
      [1, 60416, 0x00, expect.stringMatching(/Transport Protocol/i)],
      [1, 61444, 0x00, 'Electronic Engine Controller 1 (EEC1)'],
      [1, 65226, 0x00, 'Active Diagnostic Trouble Codes (DM1)'],
      [1, 65226, 0x17, 'Active Diagnostic Trouble Codes (DM1)'],
      [2, 65226, 0x0b, 'Active Diagnostic Trouble Codes (DM1)'],
    ]);
  });

  it("a newer DM1 replaces a controller's faults, an older one arriving late does not, 'no active codes' clears them", async () => {
    expect(
      await postRecords(tp, device(), [
        { ts: t0 + 120, vsys: 12, can1: [dm1(0x00, [dtc(190, 0, 1)])] },
        { ts: t0 - 60, vsys: 12, can1: [dm1(0x00, [dtc(91, 3, 1)]), dm1(0x17, [dtc(91, 3, 1)])] },
        { ts: t0 + 180, vsys: 12, can1: [dm1(0x17, [])] },
      ]),
    ).toBe(200);
    const body = await read();
    expect(body.faults.map((f) => [f.source, f.code, f.spnName, f.ts])).toEqual([
      [0x00, '190:0', 'Engine Speed', t0 + 120],
    ]);
    expect(body.busMessages.find((m) => m.pgn === 61444)?.ts).toBe(t0);
  });

  it('delete-data forgets what the buses told; transfer-data moves it to the other device', async () => {
    const other = await provision(tp);
    expect((await claim(fx.users.ADMIN.client, other.deviceid, other.setupPassword)).status).toBe(200);
    expect(
      await postRecords(tp, { id: other.deviceid, key: other.deviceKey }, [
        { ts: t0, can1: [dm1(0x21, [dtc(84, 2, 1)])] },
      ]),
    ).toBe(200);
    const moved = await fx.users.ADMIN.client.post(`/api/device/${other.deviceid}/transfer-data`, {
      setupPassword: other.setupPassword,
      targetDeviceid: fx.device.deviceid,
    });
    expect(moved.status, moved.text).toBe(200);
    expect((await read(other.deviceid)).busMessages).toEqual([]);
    expect((await read()).faults.map((f) => f.code)).toEqual(['190:0', '84:2']);

    const deleted = await fx.users.ADMIN.client.post(`/api/device/${fx.device.deviceid}/delete-data`, {
      setupPassword: fx.device.setupPassword,
    });
    expect(deleted.status, deleted.text).toBe(200);
    const body = await read();
    expect([body.faults, body.lamps, body.busMessages, body.diagnostics]).toEqual([[], [], [], []]);
  });

  it('ADMIN and USER read it; OPERATOR and VIEW are refused, a stranger finds no device; dataPoints is checked', async () => {
    const path = `/api/device/${fx.device.deviceid}/diagnostics`;
    expect((await fx.users.USER.client.get(`${path}?dataPoints=600`)).status).toBe(200);
    expectError(await fx.users.OPERATOR.client.get(path), 403, 'FORBIDDEN');
    expectError(await fx.users.VIEW.client.get(path), 403, 'FORBIDDEN');
    expectError(await fx.users.STRANGER.client.get(path), 404, 'NOT_FOUND');
    expectError(await fx.users.ADMIN.client.get(`${path}?dataPoints=abc`), 400, 'BAD_REQUEST');
  });
});
