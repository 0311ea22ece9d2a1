/**
 * The ingest queue: one bounded queue in front of one writer. Producers (MQTT publishes, HTTP
 * ingest calls) wait while it is full (backpressure, never a drop); the writer takes up to
 * `batchSize` items per transaction (group commit) and settles each item's promise only once
 * the transaction has committed. A failed batch is retried item by item, so one bad item
 * never fails the others. `prepare` runs on each item as it is pushed, while the writer waits
 * for the database, so the writer's own turn is shorter.
 */

interface Entry<P, R> {
  item: P;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export interface IngestQueueOptions<T, R, P> {
  capacity: number;
  batchSize: number;
  /** Turns a pushed item into what `process` takes (validation, serialisation). */
  prepare(item: T): P;
  /** Stores a batch in one transaction; returns one result per item, in order. */
  process(items: P[]): Promise<R[]>;
  /** Called with the error of a batch that failed and is being retried item by item. */
  onBatchError?(error: unknown, size: number): void;
}

export class IngestQueue<T, R, P = T> {
  private readonly entries: Entry<P, R>[] = [];
  private readonly spaceWaiters: (() => void)[] = [];
  private running: Promise<void> | null = null;
  private writing = 0;
  private closed = false;

  constructor(private readonly options: IngestQueueOptions<T, R, P>) {}

  /** Items waiting for the writer. */
  get length(): number {
    return this.entries.length;
  }

  /** Items queued or being written, not yet settled. */
  get pending(): number {
    return this.entries.length + this.writing;
  }

  /** Producers waiting for space. */
  get waiting(): number {
    return this.spaceWaiters.length;
  }

  /** Enqueues `item` (waiting for space when full); resolves after its batch committed. */
  push(item: T): Promise<R> {
    // With space (the usual case) the item's own promise is returned as is: no async wrapper.
    if (this.entries.length < this.options.capacity || this.closed) return this.enqueue(item);
    return this.pushWhenSpace(item);
  }

  private async pushWhenSpace(item: T): Promise<R> {
    while (this.entries.length >= this.options.capacity) {
      if (this.closed) throw new Error('The ingest queue is closed');
      await new Promise<void>((resolve) => this.spaceWaiters.push(resolve));
    }
    return this.enqueue(item);
  }

  private enqueue(item: T): Promise<R> {
    if (this.closed) return Promise.reject(new Error('The ingest queue is closed'));
    let prepared: P;
    try {
      prepared = this.options.prepare(item);
    } catch (error) {
      return Promise.reject(error);
    }
    const result = new Promise<R>((resolve, reject) => this.entries.push({ item: prepared, resolve, reject }));
    this.running ??= this.drain();
    return result;
  }

  /** Refuses new items and waits for the queued ones to be written. */
  async close(): Promise<void> {
    this.closed = true;
    for (const wake of this.spaceWaiters.splice(0)) wake();
    while (this.running) await this.running;
  }

  private wakeProducers(): void {
    const free = this.options.capacity - this.entries.length;
    if (free <= 0 || this.spaceWaiters.length === 0) return;
    // One splice: shifting waiter after waiter costs a copy of the array each.
    for (const wake of this.spaceWaiters.splice(0, free)) wake();
  }

  /**
   * Writes batches until the queue is empty. `running` is cleared in the same step as the last
   * emptiness check, before anyone whose item was just settled can push again: a push never
   * finds a drain that has already stopped looking.
   */
  private async drain(): Promise<void> {
    try {
      // Let the producers of this tick enqueue before the first batch is cut.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (this.entries.length > 0) {
        const batch = this.entries.splice(0, this.options.batchSize);
        this.writing = batch.length;
        this.wakeProducers();
        try {
          const results = await this.options.process(batch.map((e) => e.item));
          batch.forEach((entry, i) => entry.resolve(results[i]!));
        } catch (error) {
          this.options.onBatchError?.(error, batch.length);
          for (const entry of batch) {
            try {
              const [result] = await this.options.process([entry.item]);
              entry.resolve(result!);
            } catch (itemError) {
              entry.reject(itemError);
            }
          }
        } finally {
          this.writing = 0;
        }
      }
    } finally {
      this.running = null;
    }
  }
}
