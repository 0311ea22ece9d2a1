/**
 * The name a device is shown by, in SQL, for reads that name many devices at once (group
 * summaries, the group data call, search): the `display_name` column the database keeps from the
 * portal name, else config settings.device.name, else the id (migration 016). Its twin for one
 * device row is `deviceName` in modules/devices/devices.summary.ts.
 */
export function deviceNameSql(alias: string): string {
  return `${alias}.display_name`;
}
