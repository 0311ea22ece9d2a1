/** The keys of the provisioning pages, all under ['prov']. Part of the key factory (lib/query-keys). */
export const prov = {
  all: ['prov'] as const,
  device: (deviceid: string) => ['prov', 'device', deviceid] as const,
  log: (deviceid: string) => ['prov', 'log', deviceid] as const,
};
