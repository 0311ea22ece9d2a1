/** Test users: unique addresses, users inserted through the repository, their rows, and signed-in clients. */
import { randomBytes } from 'node:crypto';
import type { BrandId, UserGroup } from '@portal/core';
import { hashPassword } from '../../src/security';
import { findUserByEmail, insertUser, type User } from '../../src/modules/auth/auth.repository';
import { TEST_PORTAL_ENV } from '../suite-setup';
import type { ApiClient } from './api-client';
import type { TestPortal } from './test-portal';

let userCounter = 0;

/** A unique address for a test. */
export function uniqueEmail(label = 'user'): string {
  userCounter += 1;
  return `${label}-${userCounter}-${randomBytes(3).toString('hex')}@example.com`;
}

export interface MadeUser {
  id: string;
  email: string;
  password: string;
}

/** Inserts a user through the repository (verified unless told otherwise). */
export async function makeUser(
  tp: TestPortal,
  overrides: { email?: string; password?: string; verified?: boolean; userGroups?: UserGroup[]; brand?: BrandId } = {},
): Promise<MadeUser> {
  const email = overrides.email ?? uniqueEmail();
  const password = overrides.password ?? `pw-${randomBytes(6).toString('hex')}`;
  const user = await insertUser(tp.portal.db, {
    id: randomBytes(12).toString('base64url'),
    email,
    passwordHash: await hashPassword(password, TEST_PORTAL_ENV.PASSWORD_HASH_COST),
    emailVerified: overrides.verified ?? true,
    marketingOptIn: false,
    userGroups: overrides.userGroups ?? [],
    brand: overrides.brand ?? 'default',
    createdAt: tp.clock.now(),
  });
  return { id: user.id, email, password };
}

export async function userRow(tp: TestPortal, email: string): Promise<User> {
  const user = await findUserByEmail(tp.portal.db, email);
  if (!user) throw new Error(`no user ${email}`);
  return user;
}

/** A signed-in client for `user`. */
export async function signedIn(tp: TestPortal, user: { email: string; password: string }): Promise<ApiClient> {
  const client = tp.client();
  const res = await client.post('/api/auth/login', { email: user.email, password: user.password });
  if (res.status !== 200 || (res.body as { status?: string }).status !== 'SIGNED_IN') {
    throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  }
  return client;
}
