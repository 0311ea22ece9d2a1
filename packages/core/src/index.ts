export * from './domain/brands';
export * from './domain/validation';
export * from './contracts/errors';
export * from './contracts/auth';
