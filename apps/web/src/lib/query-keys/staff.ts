/** The keys of the staff pages, all under ['staff']. Part of the key factory (lib/query-keys). */
/** Everything under it is read again after a staff change. */
export const all = ['staff'] as const;
export const distributors = () => ['staff', 'distributors'] as const;
export const search = (q: string) => ['staff', 'search', q] as const;
export const device = (deviceid: string) => ['staff', 'device', deviceid] as const;
export const billingDevice = (deviceid: string) => ['staff', 'billing-device', deviceid] as const;
export const user = (userid: string) => ['staff', 'user', userid] as const;
export const stats = () => ['staff', 'stats'] as const;
