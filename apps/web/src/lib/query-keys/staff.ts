/** The keys of the staff pages, all under ['staff']. Part of the key factory (lib/query-keys). */
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
