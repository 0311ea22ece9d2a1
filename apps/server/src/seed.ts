/** Demo data created on first start when SEED_DEMO is on; running it again changes nothing. */
import type { AuthService, SeedUser } from './modules/auth/auth.service';

export const DEMO_USER = {
  email: 'demo@portal.local',
  password: 'demo-portal-2026',
  userGroups: [],
} as const satisfies SeedUser;
export const STAFF_USER = {
  email: 'staff@portal.local',
  password: 'staff-portal-2026',
  userGroups: ['senquip_admin', 'distributors'],
} as const satisfies SeedUser;

export interface SeedServices {
  auth: AuthService;
}

/** Creates the demo and staff accounts when missing; returns the addresses created. */
export async function seedDemo(services: SeedServices): Promise<string[]> {
  const created: string[] = [];
  for (const user of [DEMO_USER, STAFF_USER]) {
    if (await services.auth.ensureUser({ ...user, userGroups: [...user.userGroups] })) created.push(user.email);
  }
  // Later issues: demo groups, devices and the simulator fleet.
  return created;
}
