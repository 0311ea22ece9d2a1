/** The group data parts kept between calls (group-data-cache.ts): versions, questions, the size bound. */
import { describe, expect, it } from 'vitest';
import { createGroupDataCache } from '../../src/modules/telemetry/group-data-cache';

/** The cache's parts as text. */
const text = (parts: Promise<Buffer[]>) => parts.then((p) => p.map(String));

/** A reader that writes `{id}@{n}` for the n-th read and records what it was asked. */
function reader() {
  let n = 0;
  const asked: string[][] = [];
  return {
    asked,
    read: async (ids: string[]) => {
      asked.push(ids);
      n += 1;
      return ids.map((id) => `${id}@${n}`);
    },
  };
}

describe('group data cache', () => {
  it('reads only the devices whose version differs from the kept part, in the order asked', async () => {
    const cache = createGroupDataCache(1000);
    const r = reader();
    expect(await text(cache.parts('q', ['A', 'B', 'C'], ['1', '1', '1'], r.read))).toEqual(['A@1', 'B@1', 'C@1']);
    expect(await text(cache.parts('q', ['C', 'B', 'A'], ['1', '2', '1'], r.read))).toEqual(['C@1', 'B@2', 'A@1']);
    expect(await text(cache.parts('q', ['A', 'B', 'C', 'D'], ['1', '2', '1', ''], r.read))).toEqual([
      'A@1',
      'B@2',
      'C@1',
      'D@3',
    ]);
    expect(r.asked).toEqual([['A', 'B', 'C'], ['B'], ['D']]);
    expect(cache.stats()).toEqual({ kept: 5, read: 5 });
  });

  it('keeps parts per question', async () => {
    const cache = createGroupDataCache(1000);
    const r = reader();
    await cache.parts('week', ['A'], ['1'], r.read);
    expect(await text(cache.parts('day', ['A'], ['1'], r.read))).toEqual(['A@2']);
    expect(await text(cache.parts('week', ['A'], ['1'], r.read))).toEqual(['A@1']);
  });

  it('drops the least recently asked questions once the kept parts pass the bound, never the one being answered', async () => {
    const cache = createGroupDataCache(10);
    const r = reader();
    await cache.parts('one', ['A'], ['1'], r.read); // 3 characters
    await cache.parts('two', ['A'], ['1'], r.read);
    await cache.parts('one', ['A'], ['1'], r.read); // asked again: 'two' is now the oldest
    await cache.parts('three', ['A', 'B'], ['1', '1'], r.read); // 6 more: 12 in all, 'two' goes
    expect(await text(cache.parts('one', ['A'], ['1'], r.read))).toEqual(['A@1']);
    expect(await text(cache.parts('two', ['A'], ['1'], r.read))).toEqual(['A@4']);
    // A question larger than the bound is still answered whole, and kept until the next one.
    const big = await text(cache.parts('big', ['A', 'B', 'C', 'D', 'E'], ['1', '1', '1', '1', '1'], r.read));
    expect(big).toHaveLength(5);
    expect(await text(cache.parts('big', ['A'], ['1'], r.read))).toEqual(['A@5']);
  });
});
