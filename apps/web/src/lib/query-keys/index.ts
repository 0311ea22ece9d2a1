/**
 * Every react-query key of the web, in one factory: a call and the changes that make it stale
 * ask here for the same key instead of each spelling an array. Keys nest by prefix, which is
 * what invalidation relies on: ['device', id] holds every answer of one device, ['group', id]
 * every answer of one group, ['groups'] the user's groups and what they hold, ['staff'] every
 * staff page, ['prov'] the provisioning pages. Import it whole (`import * as queryKeys`) and ask for
 * queryKeys.device.settings(id), queryKeys.group.all(id), queryKeys.staff.all ...: each area is a
 * module of named exports re-exported as a namespace, so a chunk carries only the keys it uses (an
 * object of keys would land whole in the entry chunk that shares it).
 */
export * as account from './account';
export * as device from './device';
export * as group from './group';
export * as groups from './groups';
export * as prov from './prov';
export * as staff from './staff';
export { billingCustomer, firmware, mapTiles, search } from './other';
