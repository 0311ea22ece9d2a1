/**
 * Every react-query key of the web, in one factory: a call and the changes that make it stale
 * ask here for the same key instead of each spelling an array. Keys nest by prefix, which is
 * what invalidation relies on: ['device', id] holds every answer of one device, ['group', id]
 * every answer of one group, ['groups'] the user's groups and what they hold, ['staff'] every
 * staff page, ['prov'] the provisioning pages. Import it whole (`import * as queryKeys`) and ask for
 * queryKeys.device.settings(id), queryKeys.group.all(id), queryKeys.staff.all ...: each area is an
 * export of its own, so a chunk carries only the areas it uses.
 */
import type { ChartRange, MetricsOperator, MetricsPeriod } from '@portal/core';

export const device = {
  all: (deviceid: string) => ['device', deviceid] as const,
  settings: (deviceid: string) => ['device', deviceid, 'settings'] as const,
  /** The distributor tools' own read of the settings (under them, so a settings change reaches it). */
  distributorTools: (deviceid: string) => ['device', deviceid, 'settings', 'distributor-tools'] as const,
  config: (deviceid: string) => ['device', deviceid, 'config'] as const,
  data: (deviceid: string, dataPoints: number) => ['device', deviceid, 'data', dataPoints] as const,
  /** The command queue (GET rpc): queuing a command (a trigger) makes it stale. */
  rpc: (deviceid: string) => ['device', deviceid, 'rpc'] as const,
  permissions: (deviceid: string) => ['device', deviceid, 'permissions'] as const,
  diagnostics: (deviceid: string, dataPoints: number) => ['device', deviceid, 'diagnostics', dataPoints] as const,
  script: (deviceid: string) => ['device', deviceid, 'script'] as const,
  alerts: (deviceid: string) => ['device', deviceid, 'alerts'] as const,
  /** Every page of the raw data table: a reload asks them all again. */
  raw: (deviceid: string) => ['device', deviceid, 'raw'] as const,
  rawPage: (deviceid: string, from: number | null, to: number | null, before: number | null) =>
    ['device', deviceid, 'raw', from, to, before] as const,
  serverLog: (deviceid: string, kind: string | null) => ['device', deviceid, 'serverlog', kind ?? ''] as const,
  customChart: (deviceid: string, keys: readonly string[], bars: boolean, range: ChartRange) =>
    ['device', deviceid, 'custom-chart', bars ? 'bars' : 'lines', keys.join(','), range] as const,
  utilisation: (deviceid: string, range: ChartRange) => ['device', deviceid, 'utilisation', range] as const,
  /** One series of a dashboard chart: two series of one device and key share a call. */
  chart: (deviceid: string, key: string, from: number, to: number) =>
    ['device', deviceid, 'chart', key, from, to] as const,
};

export const group = {
  /** The user's groups; under it, everything that changes with what the groups hold. */
  list: ['groups'] as const,
  /** Every page of the user's devices no group holds (under the groups: adding or moving a device asks them again). */
  ungrouped: ['groups', 'ungrouped-devices'] as const,
  ungroupedPage: (offset: number) => ['groups', 'ungrouped-devices', offset] as const,
  all: (groupid: string) => ['group', groupid] as const,
  views: (groupid: string) => ['group', groupid, 'views'] as const,
  data: (
    groupid: string,
    params: { from?: number; to?: number; keys?: readonly string[]; stats?: readonly string[] },
  ) =>
    [
      'group',
      groupid,
      'data',
      params.from ?? null,
      params.to ?? null,
      [...(params.keys ?? [])].sort(),
      [...(params.stats ?? [])].sort(),
    ] as const,
  metrics: (
    groupid: string,
    params: { key: string; operator: MetricsOperator; current: MetricsPeriod; previous: MetricsPeriod },
  ) =>
    [
      'group',
      groupid,
      'metrics',
      params.key,
      params.operator,
      params.current.startTime,
      params.current.endTime,
      params.previous.startTime,
      params.previous.endTime,
    ] as const,
  permissions: (groupid: string) => ['group', groupid, 'permissions'] as const,
  serverLog: (groupid: string) => ['group', groupid, 'serverlog'] as const,
};

export const staff = {
  /** Everything under it is read again after a staff change. */
  all: ['staff'] as const,
  distributors: () => ['staff', 'distributors'] as const,
  search: (q: string) => ['staff', 'search', q] as const,
  device: (deviceid: string) => ['staff', 'device', deviceid] as const,
  billingDevice: (deviceid: string) => ['staff', 'billing-device', deviceid] as const,
  user: (userid: string) => ['staff', 'user', userid] as const,
  stats: () => ['staff', 'stats'] as const,
};

export const prov = {
  all: ['prov'] as const,
  device: (deviceid: string) => ['prov', 'device', deviceid] as const,
  log: (deviceid: string) => ['prov', 'log', deviceid] as const,
};

export const account = {
  notifications: ['account', 'notifications'] as const,
  alertPhone: ['account', 'alert-phone'] as const,
  apiCredentials: ['account', 'api-credentials'] as const,
  recoveryCodes: ['recovery-codes'] as const,
  userLogin: ['user-login'] as const,
};

/** The user's billing customer (Subscriptions). */
export const billingCustomer = ['billing', 'customer'] as const;
/** The header's device and group search. */
export const search = (q: string) => ['search', q] as const;
export const firmware = ['firmware'] as const;
export const mapTiles = ['map-tiles'] as const;
