/** Query keys of the staff pages: everything under ['staff'] is read again after a staff change. */
export const staffKeys = {
  all: ['staff'] as const,
  distributors: () => ['staff', 'distributors'] as const,
  search: (q: string) => ['staff', 'search', q] as const,
  device: (deviceid: string) => ['staff', 'device', deviceid] as const,
  billingDevice: (deviceid: string) => ['staff', 'billing-device', deviceid] as const,
  user: (userid: string) => ['staff', 'user', userid] as const,
  stats: () => ['staff', 'stats'] as const,
};
