/**
 * The group data call for 10,000 devices: `GET /api/group/{groupid}/data` over HTTP (the real
 * route: membership, the reads, the JSON written, brotli as a browser asks for it) for a group of
 * DEVICES devices over the default 7-day range with a configured table's keys, 20 sequential calls
 * a run, p95 of each run (time to the last byte), the median of 3 runs, and the answer's size on
 * the wire (compressed) and as JSON. Before each call 1 % of the devices send a record with an
 * event, as a live fleet does between two refreshes: the server writes again only their parts
 * and serves the others as kept. Also every part read (a range not asked before: an hour's first
 * call), the database's reads alone (groupDataParts, every device), to tell its share from the rest, and home's search (`GET /api/search?q=`) for the same user,
 * who reaches the 10,000 devices through the group.
 *
 * Data: DEVICES devices, each with a 20-key record (the simulator's ORB-C1 model) every 6 hours
 * for 7 days, every record carrying events of each level in turn, fed through the telemetry
 * service's ingest path (the writer behind MQTT and HTTP: records, events and their counts, the
 * newest messages, rollups, latest values, contact times), the portal's clock moved along with
 * the records.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { GroupDataResponseSchema, SearchResponseSchema, type DeviceRecord } from '@portal/core';
import { groupDataParts } from '../../apps/server/src/modules/telemetry/group-data.repository';
import type { BenchResult } from './run';
import { median } from './stats';
import {
  RecordSource,
  ingestHistory,
  progress,
  p95Runs,
  provisionDevices,
  round1,
  round2,
  startBenchPortal,
  type BenchPortal,
  type Store,
  onEachStore,
  benchUser,
  signInCookie,
} from './telemetry-kit';

/** BENCH_GROUP_DEVICES: a smaller fleet for a quick try (the figures are for 10,000). */
const DEVICES = Number(process.env.BENCH_GROUP_DEVICES ?? 10_000);
const DAYS = 7;
const INTERVAL_S = 6 * 3600;
const CALLS = 20;
/** The default view's table columns read no measurement keys; a configured table asks for a few. */
const KEYS = ['batt', 'ambient_temp', 'vsys'];
const TARGETS: Record<Store, number> = { pglite: 400, postgres: 150 };
const SEARCH_CALLS = 20;
/** Devices that sent data between two calls (1 %: a 30 s refresh over a fleet reporting about every 50 minutes). */
const CHURN = Math.max(1, Math.round(DEVICES / 100));
const LVS = [5, 15, 25, 35];

/** The model's records with one or two events of each level in turn. */
class EventfulSource extends RecordSource {
  private n = 0;
  override at(ts: number): DeviceRecord {
    const record = super.at(ts);
    const n = (this.n += 1);
    const events = [...(record.events ?? []), { msg: `bench event ${n}`, lv: LVS[n % LVS.length]! }];
    if (n % 3 === 0) events.push({ msg: `bench event ${n}b`, lv: LVS[(n + 1) % LVS.length]! });
    record.events = events;
    return record;
  }
}

interface Answer {
  status: number;
  ms: number;
  /** Bytes on the wire (as the server encoded them). */
  wire: number;
  encoding: string;
  body: Buffer;
}

/** A GET with the session cookie and a browser's Accept-Encoding, timed to the last byte, the body left encoded. */
function get(port: number, path: string, cookie: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        headers: { cookie, 'accept-encoding': 'br, gzip', 'x-requested-with': 'portal' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - start,
            wire: body.length,
            encoding: String(res.headers['content-encoding'] ?? 'identity'),
            body,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function decoded(answer: Answer): string {
  if (answer.encoding === 'br') return brotliDecompressSync(answer.body).toString('utf8');
  if (answer.encoding === 'gzip') return gunzipSync(answer.body).toString('utf8');
  return answer.body.toString('utf8');
}

/** A signed-in member (VIEW) of a new group holding `ids`: the session cookie and the group id. */
export async function groupMember(bp: BenchPortal, ids: string[]): Promise<{ cookie: string; groupid: string }> {
  const user = await benchUser(bp);
  const groupid = `B${randomBytes(8).toString('hex').toUpperCase().slice(0, 10)}`;
  await bp.portal.db.query('INSERT INTO groups (groupid, group_name, created_at) VALUES ($1, $2, now())', [
    groupid,
    'Bench fleet',
  ]);
  await bp.portal.db.query("INSERT INTO group_members (groupid, user_id, permission) VALUES ($1, $2, 'VIEW')", [
    groupid,
    user.id,
  ]);
  for (let i = 0; i < ids.length; i += 1000) {
    await bp.portal.db.query(
      `INSERT INTO group_devices (groupid, device_id, created_at) SELECT $1, d, now() FROM unnest($2::text[]) AS d`,
      [groupid, ids.slice(i, i + 1000)],
    );
  }
  const cookie = await signInCookie(`http://127.0.0.1:${bp.portal.port}`, user);
  return { cookie, groupid };
}

async function measure(store: Store): Promise<BenchResult[]> {
  const bp = await startBenchPortal(store);
  try {
    let t0 = performance.now();
    const devices = await provisionDevices(bp, DEVICES, 'G');
    progress(`group-data ${store}: ${DEVICES} devices in ${round1((performance.now() - t0) / 1000)} s`);
    const to = Math.floor(Date.now() / 1000 / 3600) * 3600;
    const from = to - DAYS * 86_400 + 3600;
    t0 = performance.now();
    const stored = await ingestHistory(bp, devices, {
      from,
      to,
      intervalS: INTERVAL_S,
      perMessage: 4,
      sources: new Map(devices.map((d) => [d.id, new EventfulSource(d.id)])),
    });
    // The statistics autovacuum would gather a minute after such a load: without them the
    // planner reads the freshly filled tables as nearly empty (a sequential scan of latest).
    await bp.portal.db.exec('ANALYZE');
    const [events] = await bp.portal.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM events');
    progress(
      `group-data ${store}: ${stored} records, ${events?.n} events through the ingest path in ${round1((performance.now() - t0) / 1000)} s`,
    );
    const ids = devices.map((d) => d.id);
    const { cookie, groupid } = await groupMember(bp, ids);
    const port = bp.portal.port;
    const path = `/api/group/${groupid}/data?keys=${KEYS.join(',')}`;

    // One answer checked whole against the contract, its sizes reported.
    const first = await get(port, path, cookie);
    if (first.status !== 200) throw new Error(`group data answered ${first.status}: ${decoded(first).slice(0, 300)}`);
    const json = decoded(first);
    const answer = GroupDataResponseSchema.parse(JSON.parse(json));
    if (answer.devices.length !== DEVICES) throw new Error(`group data answered ${answer.devices.length} devices`);
    const sample = answer.devices[0]!;
    progress(
      `group-data ${store}: a device has ${Object.keys(sample.values).length} values, ${sample.messages.length} messages, counts ${sample.alarmCount}/${sample.warningCount}/${sample.alertCount}/${sample.infoCount}, severity ${sample.severity}; ${round1(json.length / 1024)} KiB JSON, ${round1(first.wire / 1024)} KiB on the wire (${first.encoding})`,
    );

    // A live fleet between two calls: CHURN devices sent a record with an event since the last
    // call (through the ingest path, not timed), so their parts are read again and the rest are
    // served as kept (modules/telemetry/group-data-cache.ts).
    const telemetry = bp.portal.app.services.telemetry;
    let turn = 0;
    const churn = async () => {
      const receivedAt = bp.clock.now();
      const ts = Math.floor(receivedAt.getTime() / 1000);
      const start = (turn++ * CHURN) % DEVICES;
      const changed = devices.slice(start, start + CHURN);
      await Promise.all(
        changed.map((d) =>
          telemetry.ingest({
            deviceId: d.id,
            kind: 'data',
            body: [{ ts, batt: 12 + (turn % 10) / 10, events: [{ msg: `live ${turn}`, lv: LVS[turn % LVS.length]! }] }],
            basic: false,
            receivedAt,
            source: 'http',
          }),
        ),
      );
    };
    const statsBefore = telemetry.groupDataCacheStats();
    const httpP95s = await p95Runs(
      `group-data ${store} HTTP (${CHURN} devices changed before each call)`,
      CALLS,
      async () => {
        await churn();
        const res = await get(port, path, cookie);
        if (res.status !== 200) throw new Error(`group data answered ${res.status}`);
        return res.ms;
      },
    );
    const statsAfter = telemetry.groupDataCacheStats();
    progress(
      `group-data ${store}: ${statsAfter.read - statsBefore.read} parts read, ${statsAfter.kept - statsBefore.kept} served as kept`,
    );

    // Every part read: a question no call asked before each time (as an hour's first call of the
    // default range, when the range moves): the keys and one more that no device has.
    let asked = 0;
    const coldP95s = await p95Runs(`group-data ${store} HTTP, every part read`, CALLS, async () => {
      asked += 1;
      const res = await get(port, `${path},unknown${asked}`, cookie);
      if (res.status !== 200) throw new Error(`group data answered ${res.status}`);
      return res.ms;
    });

    const readP95s = await p95Runs(`group-data ${store} reads`, CALLS, async () => {
      const start = performance.now();
      const rows = await groupDataParts(bp.portal.db, ids, { fromS: to - DAYS * 86_400, toS: to, keys: KEYS });
      if (rows.length !== DEVICES) throw new Error(`groupDataParts answered ${rows.length} rows`);
      return performance.now() - start;
    });

    // Home's search box as typed: a part of a device id (every device matches the prefix), a
    // part of the name, a group name, and text nothing matches.
    const needles = [ids[0]!.slice(0, 3), ids[DEVICES - 1]!.slice(3, 7).toLowerCase(), 'fleet', 'zzzz-nothing'];
    const found = SearchResponseSchema.parse(
      JSON.parse(decoded(await get(port, `/api/search?q=${encodeURIComponent(needles[0]!)}`, cookie))),
    );
    progress(`search ${store}: '${needles[0]}' finds ${found.devices.length} devices, ${found.groups.length} groups`);
    let n = 0;
    const searchP95s = await p95Runs(`search ${store}`, SEARCH_CALLS, async () => {
      const q = needles[n++ % needles.length]!;
      const res = await get(port, `/api/search?q=${encodeURIComponent(q)}`, cookie);
      if (res.status !== 200) throw new Error(`search answered ${res.status}`);
      return res.ms;
    });

    return [
      {
        name: `group-data-http-${store}-${DEVICES}dev-7d-${CHURN}changed-p95`,
        value: round2(median(httpP95s)),
        unit: 'ms',
        better: 'lower',
        target: TARGETS[store],
        runs: httpP95s.map(round2),
      },
      {
        name: `group-data-http-cold-${store}-${DEVICES}dev-7d-p95`,
        value: round2(median(coldP95s)),
        unit: 'ms',
        better: 'lower',
        runs: coldP95s.map(round2),
      },
      {
        name: `group-data-wire-${store}-${DEVICES}dev-${first.encoding}`,
        value: round1(first.wire / 1024),
        unit: 'KiB',
        better: 'lower',
        runs: [round1(first.wire / 1024)],
      },
      {
        name: `group-data-json-${store}-${DEVICES}dev`,
        value: round1(json.length / 1024),
        unit: 'KiB',
        better: 'lower',
        runs: [round1(json.length / 1024)],
      },
      {
        name: `group-data-read-${store}-${DEVICES}dev-7d-p95`,
        value: round2(median(readP95s)),
        unit: 'ms',
        better: 'lower',
        runs: readP95s.map(round2),
      },
      {
        name: `search-${store}-${DEVICES}dev-p95`,
        value: round2(median(searchP95s)),
        unit: 'ms',
        better: 'lower',
        runs: searchP95s.map(round2),
      },
    ];
  } finally {
    await bp.close();
  }
}

export async function groupData(): Promise<BenchResult[]> {
  return onEachStore(measure);
}
