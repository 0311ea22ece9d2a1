/** The keys of the user's groups, all under ['groups']: the list, and the devices no group holds. Part of the key factory (lib/query-keys). */

export const groups = {
  /** The user's groups; under it, everything that changes with what the groups hold. */
  all: ['groups'] as const,
  /** Every page of the user's devices no group holds (under the groups: adding or moving a device asks them again). */
  ungrouped: ['groups', 'ungrouped-devices'] as const,
  ungroupedPage: (offset: number) => ['groups', 'ungrouped-devices', offset] as const,
};
