/**
 * The one import point of the server tests' shared factories (each in helpers/, one job a file):
 * a real portal on an ephemeral port (same startPortal as main), a cookie-jar HTTP client, a real
 * SMTP server that catches mail, users made through the repository, TOTP and SMS codes, captured
 * logs, and PostgreSQL discovery for the second run of the suite.
 */
export * from './helpers/test-clock';
export * from './helpers/codes';
export * from './helpers/postgres';
export * from './helpers/logs';
export * from './helpers/test-portal';
export * from './helpers/users';
export * from './helpers/api-client';
export * from './helpers/mail-catcher';
