/**
 * The password hash at its real cost, and the cheap one the test suite uses (PASSWORD_HASH_COST=test):
 * the portal takes the cheap one only under NODE_ENV=test, a portal configured without it hashes at
 * the standard cost, and a stored hash names its own factors, so each kind verifies.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';
import { dummyPasswordHash, hashPassword, PASSWORD_HASH_COSTS, verifyPassword } from '../../src/security';
import { quietTestConfig, startPortalForTest, uniqueEmail, type TestPortal } from '../helpers';

const factors = (hash: string) => hash.split('$').slice(0, 4).join('$');

describe('password hashes', () => {
  it('standard: scrypt N=16384, r=8, p=1, a 16-byte salt and a 32-byte key; verifies the password only', async () => {
    expect(PASSWORD_HASH_COSTS.standard).toEqual({ N: 16384, r: 8, p: 1 });
    const hash = await hashPassword('correct horse');
    expect(factors(hash)).toBe('scrypt$16384$8$1');
    const [, , , , salt, key] = hash.split('$');
    expect(Buffer.from(salt!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(key!, 'base64url')).toHaveLength(32);
    expect(await hashPassword('correct horse')).not.toBe(hash);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct horse ', hash)).toBe(false);
    expect(await verifyPassword('correct horse', 'scrypt$16384$8$1$salt')).toBe(false);
    expect(await verifyPassword('correct horse', 'bcrypt$x')).toBe(false);
    expect(factors(await dummyPasswordHash())).toBe('scrypt$16384$8$1');
  });

  it('test: 16 times cheaper, and each kind of hash verifies wherever it is stored', async () => {
    expect(PASSWORD_HASH_COSTS.test.N * 16).toBe(PASSWORD_HASH_COSTS.standard.N);
    const cheap = await hashPassword('pw-1', 'test');
    expect(factors(cheap)).toBe('scrypt$1024$8$1');
    expect(await verifyPassword('pw-1', cheap)).toBe(true);
    expect(await verifyPassword('pw-2', cheap)).toBe(false);
    expect(factors(await dummyPasswordHash('test'))).toBe('scrypt$1024$8$1');
  });

  it('the portal refuses PASSWORD_HASH_COST=test unless NODE_ENV=test', () => {
    for (const NODE_ENV of [undefined, 'production', 'development', '']) {
      expect(() => loadConfig({ PASSWORD_HASH_COST: 'test', NODE_ENV })).toThrow(ConfigError);
    }
    expect(() => loadConfig({ PASSWORD_HASH_COST: 'test' })).toThrow(
      'Invalid configuration: PASSWORD_HASH_COST test is for the test suite only (NODE_ENV=test): passwords hashed with it are cheap to guess.',
    );
    expect(() => loadConfig({ PASSWORD_HASH_COST: 'cheap', NODE_ENV: 'test' })).toThrow(
      'Invalid configuration: PASSWORD_HASH_COST must be standard or test.',
    );
    expect(loadConfig({}).passwordHashCost).toBe('standard');
    expect(loadConfig({ PASSWORD_HASH_COST: 'test', NODE_ENV: 'test' }).passwordHashCost).toBe('test');
  });

  describe('what a portal stores', () => {
    const portals: TestPortal[] = [];
    afterAll(async () => {
      for (const tp of portals) await tp.close();
    });

    const storedHashOfNewAccount = async (config: ReturnType<typeof loadConfig>) => {
      const tp = await startPortalForTest(config);
      portals.push(tp);
      const email = uniqueEmail('hash');
      expect((await tp.client().post('/api/auth/signup', { email, password: 'password-1' })).status).toBe(201);
      const [row] = await tp.portal.db.query<{ password_hash: string }>(
        'SELECT password_hash FROM users WHERE email = $1',
        [email],
      );
      return row!.password_hash;
    };

    it('a portal configured without PASSWORD_HASH_COST hashes at the standard cost; a test portal at the cheap one', async () => {
      expect(factors(await storedHashOfNewAccount(quietTestConfig({ PASSWORD_HASH_COST: undefined })))).toBe(
        'scrypt$16384$8$1',
      );
      expect(factors(await storedHashOfNewAccount(quietTestConfig()))).toBe('scrypt$1024$8$1');
    });
  });
});
