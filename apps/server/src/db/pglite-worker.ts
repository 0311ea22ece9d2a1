/**
 * The PGlite database lives in this worker thread: PGlite runs each query on the calling
 * thread, so hosting it here keeps the HTTP event loop answering during long queries
 * (DESIGN.md section 8). The main thread sends queries by message; a transaction gets an id and
 * its queries are routed into PGlite's own `transaction`, which holds other queries back meanwhile.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { WorkerError, WorkerInit, WorkerRequest, WorkerResponse } from './pglite-protocol';

const port = parentPort;
if (!port) throw new Error('pglite-worker must run in a worker thread');

const { dataDir, template } = workerData as WorkerInit;

function toWorkerError(error: unknown): WorkerError {
  const e = error as { message?: unknown; code?: unknown; constraint?: unknown };
  return {
    message: typeof e?.message === 'string' ? e.message : String(error),
    code: typeof e?.code === 'string' ? e.code : undefined,
    constraint: typeof e?.constraint === 'string' ? e.constraint : undefined,
  };
}

function post(message: WorkerResponse): void {
  port!.postMessage(message);
}

class Rollback extends Error {}

interface OpenTransaction {
  tx: Transaction;
  finish: (commit: boolean) => void;
  done: Promise<void>;
}

let db: PGlite;
try {
  const inMemory = dataDir === 'memory://';
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  // A new cluster costs an initdb (seconds); a dumped one (tests start from a migrated template) is only unpacked.
  const isNew = inMemory || !existsSync(join(dataDir, 'PG_VERSION'));
  db =
    template && isNew
      ? await PGlite.create(dataDir, { loadDataDir: new Blob([readFileSync(template)]) })
      : await PGlite.create(dataDir);
  post({ kind: 'ready' });
} catch (error) {
  post({ kind: 'failed', error: toWorkerError(error) });
  process.exit(1);
}

const transactions = new Map<number, OpenTransaction>();
const listening = new Set<string>();
let nextTxId = 1;

function target(txId: number | undefined): PGlite | Transaction {
  if (txId === undefined) return db;
  const open = transactions.get(txId);
  if (!open) throw new Error(`Transaction ${txId} is not open`);
  return open.tx;
}

function begin(): Promise<number> {
  return new Promise<number>((resolveBegin, rejectBegin) => {
    const txId = nextTxId++;
    let started = false;
    const done = db
      .transaction(async (tx) => {
        started = true;
        const commit = await new Promise<boolean>((finish) => {
          transactions.set(txId, { tx, finish, done });
          resolveBegin(txId);
        });
        if (!commit) throw new Rollback();
      })
      .catch((error: unknown) => {
        if (!started) return rejectBegin(error);
        if (!(error instanceof Rollback)) throw error;
      })
      .finally(() => transactions.delete(txId));
  });
}

async function end(txId: number, commit: boolean): Promise<void> {
  const open = transactions.get(txId);
  if (!open) throw new Error(`Transaction ${txId} is not open`);
  open.finish(commit);
  await open.done;
}

async function handle(request: WorkerRequest): Promise<unknown> {
  switch (request.type) {
    case 'query': {
      const result = await target(request.txId).query(request.sql, request.params as unknown[]);
      return result.rows;
    }
    case 'exec':
      await target(request.txId).exec(request.sql);
      return null;
    case 'begin':
      return begin();
    case 'end':
      return end(request.txId, request.commit);
    case 'listen':
      // Once per channel: the main thread hands each notification to its own listeners.
      if (!listening.has(request.channel)) {
        listening.add(request.channel);
        await db.listen(request.channel, (payload) =>
          post({ kind: 'notification', channel: request.channel, payload }),
        );
      }
      return null;
    case 'dump':
      return new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer());
    case 'close':
      await db.close();
      return null;
  }
}

port.on('message', (request: WorkerRequest) => {
  handle(request).then(
    (result) => {
      post({ kind: 'reply', id: request.id, ok: true, result });
      if (request.type === 'close') port.close();
    },
    (error: unknown) => post({ kind: 'reply', id: request.id, ok: false, error: toWorkerError(error) }),
  );
});
