/**
 * What the test portals of a run share: the environment of a test portal (below), and one
 * migrated PGlite database for the whole run. A new in-memory PGlite costs an initdb and
 * every migration (seconds each time); a portal started from this dump only unpacks it. Made by
 * the global setup of the server and browser tests, kept under node_modules/.cache by a hash of
 * the migrations and PGlite's version (a changed migration makes a new one), and handed to the
 * test files through `inject('pgliteTemplate')`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { loadMigrations, migrate } from '../src/db/migrate';
import { openPglite } from '../src/db/pglite';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite template's file (see ensurePgliteTemplate). */
    pgliteTemplate: string;
  }
}

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const CACHE = join(root, 'node_modules/.cache/portal-tests');

/** PGlite's version, from the manifest above its entry (the package does not export package.json). */
function pgliteVersion(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The template's file, made (migrated and dumped) when this set of migrations has none yet. */
export async function ensurePgliteTemplate(): Promise<string> {
  const migrations = await loadMigrations();
  const hash = createHash('sha256').update(pgliteVersion());
  for (const m of migrations) hash.update(`\0${m.name}\0${m.sql}`);
  const name = `pglite-${hash.digest('hex').slice(0, 16)}.tar`;
  const file = join(CACHE, name);
  if (existsSync(file)) return file;
  mkdirSync(CACHE, { recursive: true });
  const db = await openPglite('memory://');
  try {
    await migrate(db, migrations);
    // Written aside and renamed: a reader never sees half a file, and two setups may race.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, await db.dump());
    renameSync(partial, file);
  } finally {
    await db.close();
  }
  for (const old of readdirSync(CACHE)) {
    if (old.startsWith('pglite-') && old.endsWith('.tar') && old !== name) rmSync(join(CACHE, old), { force: true });
  }
  return file;
}

/**
 * The environment every test portal adds to its configuration: the cheap password hash, which the
 * portal takes under NODE_ENV=test only (accounts made and signed in thousands of times; the tests
 * of the hash itself use the standard cost).
 */
export const TEST_PORTAL_ENV = { NODE_ENV: 'test', PASSWORD_HASH_COST: 'test' } as const;

/** In a test file: the run's migrated template (the global setup made it). */
export function pgliteTemplate(): string {
  return inject('pgliteTemplate');
}
