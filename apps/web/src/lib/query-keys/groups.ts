/** The keys of the user's groups, all under ['groups']: the list, and the devices no group holds. Part of the key factory (lib/query-keys). */

/** The user's groups; under it, everything that changes with what the groups hold. */
export const all = ['groups'] as const;
/** Every page of the user's devices no group holds (under the groups: adding or moving a device asks them again). */
export const ungrouped = ['groups', 'ungrouped-devices'] as const;
export const ungroupedPage = (offset: number) => ['groups', 'ungrouped-devices', offset] as const;
