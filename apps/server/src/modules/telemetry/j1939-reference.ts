/**
 * The J1939 reference tables (SPN and FMI texts, parameter group names) from the data the project
 * carries in packages/core/refdata (with its LICENSES), read once when first needed, and a device's
 * bus state as the Diagnostics page shows it.
 */
import { readFile } from 'node:fs/promises';
import {
  J1939_PGN,
  faultCodeKey,
  faultTexts,
  j1939Reference,
  parameterGroupName,
  type ActiveFaultView,
  type BusMessageView,
  type Dm1LampsView,
  type FmiEntry,
  type J1939Reference,
  type PgnEntry,
  type SpnEntry,
} from '@portal/core';
import type { BusMessageRow } from './telemetry.rows';

const REFDATA = new URL('../../../../../packages/core/refdata/', import.meta.url);

async function readList<T>(file: string): Promise<T[]> {
  return JSON.parse(await readFile(new URL(file, REFDATA), 'utf8')) as T[];
}

let loading: Promise<J1939Reference> | null = null;

/** The tables, loaded on the first call (about 2 MB of JSON) and kept. */
export function loadJ1939Reference(): Promise<J1939Reference> {
  loading ??= (async () =>
    j1939Reference({
      spns: await readList<SpnEntry>('spn-names.json'),
      fmis: await readList<FmiEntry>('fmi.json'),
      pgns: await readList<PgnEntry>('pgn-names.json'),
    }))().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** A device's bus rows as the diagnostics call answers them: active faults, lamps, and named groups. */
export function busStateView(
  rows: readonly BusMessageRow[],
  reference: J1939Reference,
): { faults: ActiveFaultView[]; lamps: Dm1LampsView[]; busMessages: BusMessageView[] } {
  const faults: ActiveFaultView[] = [];
  const lamps: Dm1LampsView[] = [];
  for (const row of rows) {
    if (row.pgn !== J1939_PGN.DM1 || !row.dm1) continue;
    const { bus, source, ts } = row;
    lamps.push({ bus, source, ts, ...row.dm1.lamps });
    for (const f of row.dm1.faults)
      faults.push({ bus, source, ts, ...f, code: faultCodeKey(f.spn, f.fmi), ...faultTexts(f.spn, f.fmi, reference) });
  }
  const busMessages = rows.map(({ bus, pgn, source, ts }) => ({
    bus,
    pgn,
    source,
    ts,
    name: parameterGroupName(pgn, reference),
  }));
  return { faults, lamps, busMessages };
}
