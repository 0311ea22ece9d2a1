/**
 * Every react-query key of the web, in one factory: a call and the changes that make it stale
 * ask here for the same key instead of each spelling an array. Keys nest by prefix, which is
 * what invalidation relies on: ['device', id] holds every answer of one device, ['group', id]
 * every answer of one group, ['groups'] the user's groups and what they hold, ['staff'] every
 * staff page, ['prov'] the provisioning pages. Import it whole (`import * as queryKeys`) and ask for
 * queryKeys.device.settings(id), queryKeys.group.all(id), queryKeys.staff.all ...: each area is a
 * module of its own, so a chunk carries only the areas it uses (a module the entry chunk shares
 * would land in it whole).
 */
export { account } from './account';
export { device } from './device';
export { group } from './group';
export { groups } from './groups';
export { prov } from './prov';
export { staff } from './staff';
export { billingCustomer, firmware, mapTiles, search } from './other';
