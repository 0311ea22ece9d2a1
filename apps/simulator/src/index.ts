export * from './prng';
export * from './clock';
export * from './j1939';
export * from './models';
export * from './links';
export * from './device';
export * from './device-stats';
export * from './fleet';
