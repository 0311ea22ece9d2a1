/** The keys of one device's answers, all under ['device', id]. Part of the key factory (lib/query-keys). */
import type { ChartRange } from '@portal/core';

export const all = (deviceid: string) => ['device', deviceid] as const;
export const settings = (deviceid: string) => ['device', deviceid, 'settings'] as const;
/** The distributor tools' own read of the settings (under them, so a settings change reaches it). */
export const distributorTools = (deviceid: string) => ['device', deviceid, 'settings', 'distributor-tools'] as const;
export const config = (deviceid: string) => ['device', deviceid, 'config'] as const;
export const data = (deviceid: string, dataPoints: number) => ['device', deviceid, 'data', dataPoints] as const;
/** The command queue (GET rpc): queuing a command (a trigger) makes it stale. */
export const rpc = (deviceid: string) => ['device', deviceid, 'rpc'] as const;
export const permissions = (deviceid: string) => ['device', deviceid, 'permissions'] as const;
export const diagnostics = (deviceid: string, dataPoints: number) =>
  ['device', deviceid, 'diagnostics', dataPoints] as const;
export const script = (deviceid: string) => ['device', deviceid, 'script'] as const;
export const alerts = (deviceid: string) => ['device', deviceid, 'alerts'] as const;
/** Every page of the raw data table: a reload asks them all again. */
export const raw = (deviceid: string) => ['device', deviceid, 'raw'] as const;
export const rawPage = (deviceid: string, from: number | null, to: number | null, before: number | null) =>
  ['device', deviceid, 'raw', from, to, before] as const;
export const serverLog = (deviceid: string, kind: string | null) =>
  ['device', deviceid, 'serverlog', kind ?? ''] as const;
export const customChart = (deviceid: string, keys: readonly string[], bars: boolean, range: ChartRange) =>
  ['device', deviceid, 'custom-chart', bars ? 'bars' : 'lines', keys.join(','), range] as const;
export const utilisation = (deviceid: string, range: ChartRange) => ['device', deviceid, 'utilisation', range] as const;
/** One series of a dashboard chart: two series of one device and key share a call. */
export const chart = (deviceid: string, key: string, from: number, to: number) =>
  ['device', deviceid, 'chart', key, from, to] as const;
