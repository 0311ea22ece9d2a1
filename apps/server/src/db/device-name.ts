/**
 * The name a device is shown by, in SQL, for reads that name many devices at once (group
 * summaries, search): the portal name, else config settings.device.name, else the id. Its twin
 * for one device row is `deviceName` in modules/devices/devices.summary.ts.
 */
export function deviceNameSql(alias: string): string {
  return `COALESCE(${alias}.portal_name, NULLIF(${alias}.config #>> '{settings,device,name}', ''), ${alias}.id)`;
}
