import { useEffect, useRef, useState, type RefObject } from 'react';

/**
 * Whether the element's content overflows it (it scrolls), kept up to date as the element, its
 * children or anything inside them changes: a region that scrolls must be reachable from the
 * keyboard (WCAG 2.1.1; axe 'scrollable-region-focusable'), so its owner makes it a named,
 * focusable group while this is true. `deep` false looks again only when children come and go, for
 * content that changes often inside (a chart legend's values follow the cursor).
 */
export function useOverflows<T extends HTMLElement>(deep = true): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const check = () =>
      setOverflows(element.scrollHeight > element.clientHeight + 1 || element.scrollWidth > element.clientWidth + 1);
    // The element's own size, and its children's: they come and go (a skeleton, then content; the
    // legend uPlot mounts again with new settings).
    const sizes = new ResizeObserver(check);
    const watch = () => {
      sizes.disconnect();
      sizes.observe(element);
      for (const child of Array.from(element.children)) sizes.observe(child);
      check();
    };
    // Content that grows inside a child of fixed size (a value arriving, rows added) changes the
    // scroll size with no resize of the element or its children: any change below looks again.
    const changes = new MutationObserver(watch);
    changes.observe(element, deep ? { childList: true, subtree: true, characterData: true } : { childList: true });
    watch();
    return () => {
      sizes.disconnect();
      changes.disconnect();
    };
  }, [deep]);
  return [ref, overflows];
}
