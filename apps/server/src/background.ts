/** Work that outlives a request (e-mail sent after answering); awaited before shutdown. */
import type { FastifyBaseLogger } from 'fastify';

export interface BackgroundTasks {
  /** Starts `task` without waiting for it; a failure is logged with `label`. */
  run(label: string, task: () => Promise<void>): void;
  /** Resolves when every started task has settled. */
  drain(): Promise<void>;
}

export function createBackgroundTasks(log: FastifyBaseLogger): BackgroundTasks {
  const running = new Set<Promise<void>>();
  return {
    run(label, task) {
      const promise = task()
        .catch((error: unknown) => log.error({ err: error }, `${label} failed`))
        .finally(() => running.delete(promise));
      running.add(promise);
    },
    async drain() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
