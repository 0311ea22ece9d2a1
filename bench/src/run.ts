// `npm run bench [-- NAME...]`: starts what it needs, measures, prints one JSON document.
import { cpus, totalmem } from 'node:os';
import { signinBundle } from './signin-bundle';
import { authRoundTrip } from './auth-round-trip';
import { ingest } from './ingest';
import { dataQuery } from './data-query';
import { downsample } from './downsample';
import { storage } from './storage';
import { devicePage } from './device-page';
import { lighthouseBench } from './lighthouse';
import { groupData } from './group-data';
import { dashboard } from './dashboard';
import { groupMetrics } from './group-metrics';
import { homeMap } from './home-map';
import { dashboardEdit } from './dashboard-edit';
import { scaleOut } from './scale-out';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  better: 'higher' | 'lower';
  target?: number;
  ceiling?: number;
  runs: number[];
}

const BENCHES: Record<string, () => Promise<BenchResult[]>> = {
  'signin-bundle': signinBundle,
  'auth-round-trip': authRoundTrip,
  ingest,
  'data-query': dataQuery,
  downsample,
  storage,
  'device-page': devicePage,
  lighthouse: lighthouseBench,
  'group-data': groupData,
  dashboard,
  'group-metrics': groupMetrics,
  'home-map': homeMap,
  'dashboard-edit': dashboardEdit,
  'scale-out': scaleOut,
};

const wanted = process.argv.slice(2).filter((a) => a !== '--');
const unknown = wanted.filter((name) => !(name in BENCHES));
if (unknown.length > 0) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}

const results: BenchResult[] = [];
for (const [name, bench] of Object.entries(BENCHES)) {
  if (wanted.length === 0 || wanted.includes(name)) results.push(...(await bench()));
}
const machine = {
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
};
console.log(JSON.stringify({ machine, results }, null, 2));
process.exit(0);
