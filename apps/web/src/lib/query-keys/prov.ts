/** The keys of the provisioning pages, all under ['prov']. Part of the key factory (lib/query-keys). */
export const all = ['prov'] as const;
export const device = (deviceid: string) => ['prov', 'device', deviceid] as const;
export const log = (deviceid: string) => ['prov', 'log', deviceid] as const;
