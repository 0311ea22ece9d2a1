/**
 * The measurement keys the simulator's device models send (apps/simulator/src/models.ts), for
 * tests and benchmarks that want a realistic device's keys without importing the simulator.
 */

/** The readings every simulated model sends, in the order it sends them (channels, hours and counters follow). */
export const SIMULATOR_COMMON_KEYS = [
  'vsys',
  'batt',
  'ambient_temp',
  'ambient_hum',
  'gps_lat',
  'gps_lon',
  'gps_nsat',
  'gps_hdop',
  'gps_cog',
  'gps_altitude',
  'gps_speed',
  'accel_x',
  'accel_y',
  'accel_z',
  'gsm_rssi',
] as const;
