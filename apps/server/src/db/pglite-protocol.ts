/** Messages between the main thread and the PGlite worker thread. */

export type WorkerRequest =
  | { id: number; type: 'query'; sql: string; params: readonly unknown[]; txId?: number | undefined }
  | { id: number; type: 'exec'; sql: string; txId?: number | undefined }
  | { id: number; type: 'begin' }
  | { id: number; type: 'end'; txId: number; commit: boolean }
  | { id: number; type: 'listen'; channel: string }
  | { id: number; type: 'dump' }
  | { id: number; type: 'close' };

export interface WorkerError {
  message: string;
  code?: string | undefined;
  constraint?: string | undefined;
}

export type WorkerResponse =
  | { kind: 'reply'; id: number; ok: true; result: unknown }
  | { kind: 'reply'; id: number; ok: false; error: WorkerError }
  | { kind: 'notification'; channel: string; payload: string }
  | { kind: 'ready' }
  | { kind: 'failed'; error: WorkerError };

export interface WorkerInit {
  dataDir: string;
  /** A dumped data directory (tar) a new database starts from instead of a new, empty cluster. */
  template?: string | undefined;
}
