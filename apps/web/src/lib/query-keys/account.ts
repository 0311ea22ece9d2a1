/** The keys of the signed-in user's own answers (account, recovery codes, sign-in). Part of the key factory (lib/query-keys). */
export const notifications = ['account', 'notifications'] as const;
export const alertPhone = ['account', 'alert-phone'] as const;
export const apiCredentials = ['account', 'api-credentials'] as const;
export const recoveryCodes = ['recovery-codes'] as const;
export const userLogin = ['user-login'] as const;
