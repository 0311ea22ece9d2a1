/**
 * The react-query keys of a device's calls, shared by the features that read or change them
 * (the Data page, asset notes): one device's answers all start with ['device', id].
 */
export const deviceQueryKeys = {
  all: (deviceid: string) => ['device', deviceid] as const,
  settings: (deviceid: string) => ['device', deviceid, 'settings'] as const,
  config: (deviceid: string) => ['device', deviceid, 'config'] as const,
  data: (deviceid: string, dataPoints: number) => ['device', deviceid, 'data', dataPoints] as const,
  /** The command queue (GET rpc): queuing a command (a trigger) makes it stale. */
  rpc: (deviceid: string) => ['device', deviceid, 'rpc'] as const,
  permissions: (deviceid: string) => ['device', deviceid, 'permissions'] as const,
  diagnostics: (deviceid: string, dataPoints: number) => ['device', deviceid, 'diagnostics', dataPoints] as const,
};
