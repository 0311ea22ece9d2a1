/** Query keys of the provisioning pages. */
export const provKeys = {
  all: ['prov'] as const,
  device: (deviceid: string) => ['prov', 'device', deviceid] as const,
  log: (deviceid: string) => ['prov', 'log', deviceid] as const,
};
