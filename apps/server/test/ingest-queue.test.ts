/**
 * The ingest queue on its own (no database): group commit, backpressure, retry item by item, and
 * a producer that pushes again the moment its previous item settles.
 */
import { describe, expect, it } from 'vitest';
import { IngestQueue } from '../src/ingest/queue';

const tick = () => new Promise((resolve) => setImmediate(resolve));

function queue(options: { capacity?: number; batchSize?: number; fail?: (n: number) => boolean } = {}) {
  const batches: number[][] = [];
  const q = new IngestQueue<number, number, number>({
    capacity: options.capacity ?? 100,
    batchSize: options.batchSize ?? 10,
    prepare: (n) => n,
    async process(items) {
      await tick();
      if (items.some((n) => options.fail?.(n))) throw new Error('bad item');
      batches.push(items);
      return items.map((n) => n * 2);
    },
  });
  return { q, batches };
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
    const { q, batches } = queue({ capacity: 5, batchSize: 5 });
    const results = await Promise.all(Array.from({ length: 23 }, (_, n) => q.push(n)));
    expect(results).toHaveLength(23);
    expect(batches.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 23 }, (_, n) => n));
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(5);
  });

  it('refuses items once closed, after writing the queued ones', async () => {
    const { q } = queue();
    const pending = q.push(1);
    await q.close();
    expect(await pending).toBe(2);
    await expect(q.push(2)).rejects.toThrow('closed');
  });
});
