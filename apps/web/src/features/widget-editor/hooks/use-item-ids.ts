/**
 * Stable React keys for a list the editor reorders: the ids move with their items, so a moved
 * column keeps its fields (and the focus stays in the one being typed in).
 */
import { useRef, useState } from 'react';

export interface ItemIds {
  ids: readonly number[];
  added: () => void;
  removed: (index: number) => void;
  moved: (from: number, to: number) => void;
  /** Fresh ids for a list of `count` items (after a reload). */
  reset: (count: number) => void;
}

export function useItemIds(count: number): ItemIds {
  const next = useRef(count);
  const [ids, setIds] = useState<readonly number[]>(() => Array.from({ length: count }, (_, i) => i));
  const fresh = () => next.current++;
  return {
    ids,
    added: () => setIds((old) => [...old, fresh()]),
    removed: (index) => setIds((old) => old.filter((_, i) => i !== index)),
    moved: (from, to) =>
      setIds((old) => {
        const list = [...old];
        const [id] = list.splice(from, 1);
        if (id !== undefined) list.splice(to, 0, id);
        return list;
      }),
    reset: (n) => setIds(Array.from({ length: n }, () => fresh())),
  };
}
