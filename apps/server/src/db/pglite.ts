/** The main-thread side of the PGlite database hosted in a worker thread (see pglite-worker.ts). */
import { Worker } from 'node:worker_threads';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CHANNEL_NAME } from './channel';
import type { Db } from './db';
import { DbError } from './db-error';
import type { WorkerError, WorkerInit, WorkerRequest, WorkerResponse } from './pglite-protocol';

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type RequestBody = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

function toDbError(error: WorkerError): DbError {
  return new DbError(error.message, error.code, error.constraint);
}

class PgliteConnection {
  private readonly pending = new Map<number, Pending>();
  /** Who listens on each channel (the worker forwards every notification). */
  readonly listeners = new Map<string, Set<(payload: string | null) => void>>();
  private nextId = 1;
  private exitError: Error | null = null;

  constructor(
    private readonly worker: Worker,
    private readonly onClosed: () => void,
  ) {
    worker.on('message', (message: WorkerResponse) => {
      if (message.kind === 'notification') {
        for (const listener of this.listeners.get(message.channel) ?? []) listener(message.payload);
        return;
      }
      if (message.kind !== 'reply') return;
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.ok) waiting.resolve(message.result);
      else waiting.reject(toDbError(message.error));
    });
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new DbError(`The database worker stopped (exit code ${code})`)));
  }

  private fail(error: Error): void {
    this.exitError ??= error;
    for (const waiting of this.pending.values()) waiting.reject(this.exitError);
    this.pending.clear();
  }

  call<T>(request: RequestBody): Promise<T> {
    if (this.exitError) return Promise.reject(this.exitError);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  async close(): Promise<void> {
    try {
      if (this.exitError) return;
      const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
      await this.call({ type: 'close' });
      await exited;
    } finally {
      this.onClosed();
    }
  }
}

class PgliteDb implements Db {
  readonly kind = 'pglite' as const;

  constructor(
    private readonly connection: PgliteConnection,
    private readonly txId?: number,
  ) {}

  query<T = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.connection.call<T[]>({ type: 'query', sql, params, txId: this.txId });
  }

  async exec(sql: string): Promise<void> {
    await this.connection.call({ type: 'exec', sql, txId: this.txId });
  }

  async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    // Nested transactions simply join the outer one.
    if (this.txId !== undefined) return fn(this);
    const txId = await this.connection.call<number>({ type: 'begin' });
    let result: T;
    try {
      result = await fn(new PgliteDb(this.connection, txId));
    } catch (error) {
      await this.connection.call({ type: 'end', txId, commit: false }).catch(() => undefined);
      throw error;
    }
    await this.connection.call({ type: 'end', txId, commit: true });
    return result;
  }

  async listen(channel: string, onNotify: (payload: string | null) => void): Promise<() => Promise<void>> {
    if (!CHANNEL_NAME.test(channel)) throw new DbError(`Invalid channel name: ${channel}`);
    const { listeners } = this.connection;
    const own = listeners.get(channel) ?? new Set();
    listeners.set(channel, own);
    own.add(onNotify);
    await this.connection.call({ type: 'listen', channel });
    return async () => {
      own.delete(onNotify);
    };
  }

  /** The whole data directory as a tar (what `template` of openPglite starts from). */
  dump(): Promise<Uint8Array> {
    return this.connection.call<Uint8Array>({ type: 'dump' });
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}

export type { PgliteDb };

const MEMORY = 'memory://';

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

/**
 * PGlite is single-process: two portals on one directory would corrupt it. A lock file holding
 * the owner's pid refuses the second one; a lock left by a dead process is taken over.
 */
function lockDirectory(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = join(dataDir, 'portal.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(lockFile, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && processAlive(owner)) {
        throw new DbError(
          `The database in ${dataDir} is in use by another portal (pid ${owner}): stop it or set DATA_DIR to another directory.`,
        );
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new DbError(`Cannot lock the database in ${dataDir}: set DATA_DIR to a writable directory.`);
}

/**
 * Starts the PGlite worker and waits until it is ready: files in `{dataDir}/pglite` (the
 * directory is locked for this process), or in memory when `dataDir` is 'memory://'. A new
 * database (in memory, or a directory without one yet) starts from `template` when given: a file
 * written from `dump()`; an existing one ignores it.
 */
export async function openPglite(dataDir: string, template?: string): Promise<PgliteDb> {
  const unlock = dataDir === MEMORY ? () => undefined : lockDirectory(dataDir);
  try {
    const worker = await startWorker(dataDir === MEMORY ? MEMORY : join(dataDir, 'pglite'), template);
    return new PgliteDb(new PgliteConnection(worker, unlock));
  } catch (error) {
    unlock();
    throw error;
  }
}

let workerModule: Promise<URL> | undefined;

/**
 * The worker thread's module, pglite-worker.ts compiled to JavaScript by esbuild (tsx's compiler)
 * once per process, as a data: URL, its packages imported by file URL. Started on the TypeScript
 * file, each worker thread would first start tsx's loader on a thread of its own: about 0.5 of the
 * 3.6 core-seconds that opening a database cost (the test suite opens about 150). esbuild's service
 * process stays beside the portal, idle, and ends with it (stopping it could break a compile of
 * someone else's in this thread, as Vite's in the tests' global setup).
 */
function compiledWorker(): Promise<URL> {
  workerModule ??= (async () => {
    const INNER = Symbol('resolved by esbuild');
    const { build } = await import('esbuild');
    const built = await build({
      entryPoints: [fileURLToPath(new URL('./pglite-worker.ts', import.meta.url))],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'silent',
      plugins: [
        {
          name: 'packages-by-url',
          setup(b) {
            b.onResolve({ filter: /^[^./]/ }, async (args) => {
              if (args.path.startsWith('node:')) return { path: args.path, external: true };
              if (args.pluginData === INNER) return undefined;
              // The package's own ES module entry, as esbuild finds it (its resolver, this plugin aside).
              const found = await b.resolve(args.path, {
                kind: args.kind,
                resolveDir: args.resolveDir,
                pluginData: INNER,
              });
              if (found.errors.length > 0) return { errors: found.errors };
              return { path: pathToFileURL(found.path).href, external: true };
            });
          },
        },
      ],
    });
    const code = built.outputFiles[0]?.text;
    if (!code) throw new DbError('The database worker did not compile');
    return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
  })().catch((error: unknown) => {
    // Not kept: the next database opened compiles again (esbuild's process may have failed to start).
    workerModule = undefined;
    throw error;
  });
  return workerModule;
}

async function startWorker(dataDir: string, template: string | undefined): Promise<Worker> {
  const init: WorkerInit = { dataDir, template };
  const worker = new Worker(await compiledWorker(), { workerData: init });
  await new Promise<void>((resolve, reject) => {
    const onMessage = (message: WorkerResponse) => {
      if (message.kind === 'reply' || message.kind === 'notification') return;
      cleanup();
      if (message.kind === 'ready') resolve();
      else reject(new DbError(`Cannot open the database in ${dataDir}: ${message.error.message}`));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new DbError(`Cannot open the database in ${dataDir}: ${error.message}`));
    };
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
  });
  return worker;
}
