/** The keys of the signed-in user's own answers (account, recovery codes, sign-in). Part of the key factory (lib/query-keys). */
export const account = {
  notifications: ['account', 'notifications'] as const,
  alertPhone: ['account', 'alert-phone'] as const,
  apiCredentials: ['account', 'api-credentials'] as const,
  recoveryCodes: ['recovery-codes'] as const,
  userLogin: ['user-login'] as const,
};
