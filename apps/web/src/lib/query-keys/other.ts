/** The keys no area module owns: billing, search, firmware, map tiles. Part of the key factory (lib/query-keys). */

/** The user's billing customer (Subscriptions). */
export const billingCustomer = ['billing', 'customer'] as const;
/** The header's device and group search. */
export const search = (q: string) => ['search', q] as const;
export const firmware = ['firmware'] as const;
export const mapTiles = ['map-tiles'] as const;
