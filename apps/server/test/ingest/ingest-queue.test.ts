/**
 * The ingest queue on its own (no database): group commit, backpressure, retry item by item, and
 * a producer that pushes again the moment its previous item settles.
 */
import { describe, expect, it } from 'vitest';
import { IngestQueue } from '../../src/modules/telemetry/ingest-queue';

const tick = () => new Promise((resolve) => setImmediate(resolve));

function queue(
  options: { capacity?: number; batchSize?: number; fail?: (n: number) => boolean; gate?: Promise<void> } = {},
) {
  const batches: number[][] = [];
  /** Items in the order they entered the queue. */
  const prepared: number[] = [];
  const q = new IngestQueue<number, number, number>({
    capacity: options.capacity ?? 100,
    batchSize: options.batchSize ?? 10,
    prepare: (n) => {
      prepared.push(n);
      return n;
    },
    async process(items) {
      await tick();
      await options.gate;
      if (items.some((n) => options.fail?.(n))) throw new Error('bad item');
      batches.push(items);
      return items.map((n) => n * 2);
    },
  });
  return { q, batches, prepared };
}

describe('ingest queue', () => {
  it('writes what arrives in one tick as one batch and settles each item with its result', async () => {
    const { q, batches } = queue();
    const results = await Promise.all([1, 2, 3, 4].map((n) => q.push(n)));
    expect(results).toEqual([2, 4, 6, 8]);
    expect(batches).toEqual([[1, 2, 3, 4]]);
  });

  it('writes an item pushed the moment the previous one settled (sequential producers never hang)', async () => {
    const { q } = queue();
    const out: number[] = [];
    for (let n = 0; n < 50; n += 1) out.push(await q.push(n));
    expect(out).toEqual(Array.from({ length: 50 }, (_, n) => n * 2));
  });

  it('retries a failed batch item by item: only the bad item fails', async () => {
    const { q } = queue({ fail: (n) => n === 3 });
    const settled = await Promise.allSettled([1, 2, 3, 4].map((n) => q.push(n)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  });

  it('makes producers wait while full and lets them in as batches are taken', async () => {
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const { q, batches, prepared } = queue({ capacity: 2, batchSize: 2, gate });
    const pushes = [1, 2, 3].map((n) => q.push(n));
    // 1 and 2 fill the queue; 3 waits outside it.
    expect(q.waiting).toBe(1);
    expect(prepared).toEqual([1, 2]);
    // The writer takes [1, 2] (and holds it at the gate): 3 comes in.
    while (q.waiting > 0) await tick();
    expect(prepared).toEqual([1, 2, 3]);
    pushes.push(q.push(4), q.push(5));
    // Full again, and the writer is busy: 5 stays out however long it waits.
    for (let i = 0; i < 20; i += 1) await tick();
    expect(q.waiting).toBe(1);
    expect(q.length).toBe(2);
    expect(prepared).toEqual([1, 2, 3, 4]);
    openGate();
    expect(await Promise.all(pushes)).toEqual([2, 4, 6, 8, 10]);
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('refuses items once closed, after writing the queued ones', async () => {
    const { q } = queue();
    const pending = q.push(1);
    await q.close();
    expect(await pending).toBe(2);
    await expect(q.push(2)).rejects.toThrow('closed');
  });
});
