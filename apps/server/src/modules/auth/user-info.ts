/** The public view of a user (no hashes, no secrets): what sign-in, the session call and the account page answer with. */
import { UserGroupSchema, type UserGroup, type UserInfo } from '@portal/core';
import type { User } from './auth.repository';

const isUserGroup = (group: string): group is UserGroup => UserGroupSchema.safeParse(group).success;

/** The public view of a user (no hashes, no secrets). */
export function toUserInfo(user: User): UserInfo {
  return {
    userId: user.id,
    email: user.email,
    phone: user.phone ?? '',
    emailVerified: user.emailVerified,
    marketingOptIn: user.marketingOptIn,
    mfa: user.mfaType,
    userGroups: user.userGroups.filter(isUserGroup),
    brandImageUrl: user.brandImageUrl,
  };
}
